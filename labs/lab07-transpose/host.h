/* lab07's host side, as main.c and rows.c use it: the bench's rows and the job they run on
 * (rows.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "transpose.h"

/* The row after the variants. */
enum { CUBLAS = TR_VARIANTS, ROWS };
extern const struct lab_row extra_rows[ROWS - TR_VARIANTS];
extern const struct lab_job transpose_job;

#endif
