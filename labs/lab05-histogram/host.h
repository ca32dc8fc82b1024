/* lab05's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), and the race that `run --race` shows first (experiments.c), as the
 * options set it (main.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "histogram.h"

/* Row r of the variants is variant r / HIST_DATA on input r % HIST_DATA; the extras are
 * CUB's rows, then the CPU's, an input each. */
enum {
    VARIANT_ROWS = HIST_VARIANTS * HIST_DATA,
    CUB = VARIANT_ROWS,
    CPU = CUB + HIST_DATA,
    ROWS = CPU + HIST_DATA
};
/* Their names join a variant's and an input's: name_rows() writes them, before lab_main. */
extern struct lab_variant variant_rows[VARIANT_ROWS];
extern struct lab_row extra_rows[ROWS - VARIANT_ROWS];
void name_rows(void);
extern const struct lab_job histogram_job;

/* --race [INPUT], as the command line sets it: whether it was given, and the input. */
struct options {
    int race;
    enum hist_data race_input;
};
extern struct options opt;
/* What `run --race` prints before the checks: how many counts the race lost. */
void race(struct lab_size size, uint64_t seed);

#endif
