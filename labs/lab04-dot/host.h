/* lab04's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), and the handout's experiments (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "dot.h"

/* The rows after the variants. */
enum { CUBLAS = DOT_VARIANTS, CPU, ROWS };
extern const struct lab_row extra_rows[ROWS - DOT_VARIANTS];
extern const struct lab_job dot_job;

/* The job of one size, for the experiments too: a and b uniform in [lo, 1) (lo = 0: a sum
 * that only grows, lo = -1: one that cancels), their exact dot product and sum of |a b|. */
struct job {
    size_t n;
    float *a, *b; /* pinned host memory */
    long double exact, abs_sum;
    struct gpu_buf da, db, scratch, out;
};
struct job *job_new(size_t n, uint64_t seed, float lo);
void job_free(void *job);
/* The row's result on the device, its outputs poisoned before. */
int job_result(struct job *j, int row, float *got);
size_t job_scratch(size_t n);
const char *row_name(int row);

/* The experiments: --accuracy, --cosine. */
void accuracy(struct lab_size size, uint64_t seed);
void cosine(struct lab_size size, uint64_t seed);

#endif
