/* lab07's host side, as main.c, rows.c and experiments.c use it: the bench's rows and the job
 * they run on (rows.c), and the occupancy experiment (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include <stdint.h>
#include "driver.h"
#include "transpose.h"

/* The row after the variants. */
enum { CUBLAS = TR_VARIANTS, ROWS };
extern const struct lab_row extra_rows[ROWS - TR_VARIANTS];
extern const struct lab_job transpose_job;

/* `run --occupancy`: tiled_padded timed at each occupancy that dynamic shared memory leaves
 * it, printed, and written to opt_occupancy_tsv (--occupancy-tsv) when set. */
extern const char *opt_occupancy_tsv;
void occupancy(struct lab_size size, uint64_t seed);

#endif
