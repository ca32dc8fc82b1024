/* lab02's host side, as main.c and rows.c use it: the view the options choose (main.c), and
 * the bench's rows and the job they run on (rows.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "mandelbrot.h"

/* The rows after the variants. */
enum { CPU = MANDELBROT_VARIANTS, CPU_CORES, ROWS };
extern const struct lab_row extra_rows[ROWS - MANDELBROT_VARIANTS];
extern const struct lab_job mandelbrot_job;

/* What to draw, as the lab's options set it: each job's setup reads it. */
struct options {
    double view[4]; /* x0, y0, x1, y1 */
    unsigned maxiter;
};
extern struct options opt;

#endif
