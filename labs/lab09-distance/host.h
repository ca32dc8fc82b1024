/* lab09's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), the options they read (main.c), and the frame table (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "distance.h"

/* The rows after the variants: NPP's only where have_npp(). */
enum { CPU = DISTANCE_VARIANTS, NPP, ROWS };
extern const struct lab_row extra_rows[ROWS - DISTANCE_VARIANTS];
extern const struct lab_job distance_job;
const char *row_name(int row);
int have_npp(void);

/* The mask and the cap D, as the command line sets them. */
struct options {
    enum distance_mask mask;
    unsigned dmax;
};
extern struct options opt;

/* What run prints first, and what bench prints after its table. */
void npp_note(struct lab_size size, uint64_t seed);
void frame_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned);

#endif
