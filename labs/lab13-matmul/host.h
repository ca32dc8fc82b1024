/* lab13's host side, as main.c and rows.c use it: the inner dimension the options choose
 * (main.c), and the bench's rows and the job they run on (rows.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "matmul.h"

/* The rows after the variants: cuBLAS in FP32 and in TF32, and the CPU on one core. */
enum { CUBLAS_SGEMM = MATMUL_VARIANTS, CUBLAS_TF32, CPU, ROWS };
extern const struct lab_row extra_rows[ROWS - MATMUL_VARIANTS];
extern const struct lab_job matmul_job;

/* The driver's size is C's: width n, height m. k, the inner dimension, is the lab's own
 * option; 0: k = n (a square problem by default, and in the size sweep). */
struct options {
    size_t k;
};
extern struct options opt;

#endif
