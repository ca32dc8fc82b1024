/* lab11's host side, as main.c and rows.c use it: the bench's rows and the job they run on. */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "scan.h"

/* The rows after the variants. */
enum { CUB = SCAN_VARIANTS, SELECT, CPU, ROWS };
extern const struct lab_row extra_rows[ROWS - SCAN_VARIANTS];
extern const struct lab_job scan_job;

#endif
