/* lab10's host side, as main.c and rows.c use it: the bench's rows and the job they run on
 * (rows.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "stencil.h"

/* The rows after the variants: the reference of each problem on one core. */
enum { CPU_ADJACENT = STENCIL_VARIANTS, CPU_HEAT, ROWS };
extern const struct lab_row extra_rows[ROWS - STENCIL_VARIANTS];
extern const struct lab_job stencil_job;

#endif
