/* lab10's host side, as main.c and rows.c use it: the bench's rows and the job they run on
 * (rows.c), and what the command line read (main.c): a picture, the heat rows' steps. */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "stencil.h"

/* The rows after the variants: the reference of each problem on one core, then NPP's Sobel,
 * only where have_npp(). */
enum { CPU_ADJACENT = STENCIL_VARIANTS, CPU_HEAT, CPU_SOBEL, NPP_SOBEL, ROWS };
extern const struct lab_row extra_rows[ROWS - STENCIL_VARIANTS];
extern const struct lab_job stencil_job;
int have_npp(void);

/* run --image: a picture as the Sobel rows' image, width x height bytes of gray (NULL: the
 * drawn one). Its sides are the run's (--image sets --width and --height). --steps: the heat
 * rows' steps, run's and bench's (HEAT_BENCH_STEPS without it). */
struct options {
    unsigned char *image;
    size_t width, height;
    unsigned steps;
};
extern struct options opt;

/* What run prints first, and what bench prints after its table: the note of a CUDA build
 * without NPP. */
void npp_note(struct lab_size size, uint64_t seed);
void npp_report(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned);

#endif
