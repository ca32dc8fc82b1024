/* lab12's host side, as main.c, rows.c and experiments.c use it: the plan the options set,
 * the bench's rows and their job, the bound table and the timeline. */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "streams.h"

/* The rows after the variants: the parts alone, whose slowest is the pipeline's bound. */
enum { H2D_ALONE = STREAMS_VARIANTS, KERNEL_ALONE, D2H_ALONE, BOTH_WAYS, ROWS };
extern const struct lab_row extra_rows[ROWS - STREAMS_VARIANTS];
extern const struct lab_job streams_job;

/* The plan --chunks, --streams and --fmas set: each job's setup reads it. */
extern struct streams_plan opt_plan;

/* bench's report: each variant against the bound max(copy in, kernel, copy out). */
void bound_table(const struct bench *b, struct lab_size size, const double *ms,
                 const unsigned *tuned);
/* run --timeline: every variant's spans, a line each (the TSV that plots/lab12.gp draws). */
void timeline(struct lab_size size, uint64_t seed);

#endif
