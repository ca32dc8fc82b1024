/* lab00's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), and what `run` prints first (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "hello.h"

/* The row after the variants. */
enum { CPU = HELLO_VARIANTS, ROWS };
extern const struct lab_row extra_rows[ROWS - HELLO_VARIANTS];
extern const struct lab_job hello_job;

/* What `run` prints before its checks: hello from a small launch, and the device. */
void intro(struct lab_size size, uint64_t seed);

#endif
