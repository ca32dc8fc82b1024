/* lab06's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), and Harris's table after the bench (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "reduction.h"

/* The rows after the variants. */
enum { CUB = REDUCE_VARIANTS, CPU, ROWS };
extern const struct lab_row extra_rows[ROWS - REDUCE_VARIANTS];
extern const struct lab_job reduce_job;

/* What bench prints after its table: Harris's, for this GPU. */
void harris_table(const struct bench *b, struct lab_size s, const double *ms,
                  const unsigned *threads);

#endif
