/* lab08's host side, as main.c and its two halves use it: the bench's rows and the job they
 * run on (rows.c), the options they read (main.c), and the seed's table (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "repeater.h"

/* The rows after the variants. */
enum {
    MEMCPY2D = REPEATER_VARIANTS,
    MEMSET,
    WITH_COPIES,
    CPU_BASIC,
    CPU_INDEXED,
    CPU_POINTER,
    CPU_REPEATER_LOOP,
    CPU_LATTICE_TARGET,
    CPU_LATTICE_COPIES,
    ROWS
};
extern const struct lab_row extra_rows[ROWS - REPEATER_VARIANTS];
extern const struct lab_job repeater_job;
const char *row_name(int row);

/* The repeater's side and the lattice's vectors, as the command line sets them;
 * default_lattice() scales u and v to the repeater where --u and --v did not set them. */
struct options {
    unsigned rw, rh;
    int uv_given, ux, uy, vx, vy;
};
extern struct options opt;
void default_lattice(void);

/* After bench's main table: each row beside the seed's figure. */
void seed_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned);

#endif
