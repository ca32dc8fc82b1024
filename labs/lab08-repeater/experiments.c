/* lab08's report, after bench's main table: each row beside the seed's figure, and in % of
 * memset's bandwidth. */
#include <stdio.h>
#include "host.h"

/* The seed's figures at 10240 x 10240, R = 100 (RTX 2070, i9-9900k one core), in ms, from
 * the course's lecture notes (seed 000); 0 where it has none. lattice_scatter_atomic's is
 * its 2.4 with atomics (9.8 ms with plain stores, which lose the blend). */
static const double seed_ms[ROWS] = {
    [TILE_MODULO] = 2.03,           [TILE_SHARED_MISTAKE] = 816.0, [TILE_GRID_OVER_REPEATER] = 3.2,
    [LATTICE_SCATTER_ATOMIC] = 6.3, [WITH_COPIES] = 34.0,          [CPU_BASIC] = 870.0,
    [CPU_INDEXED] = 114.0,          [CPU_POINTER] = 99.6,          [CPU_REPEATER_LOOP] = 912.0,
};

/* The % of memset counts the repeater's read too: the goal is the best case-1
 * kernel at 95 %, the best case-2 one at 80 %. */
void seed_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned)
{
    (void)tuned;
    printf("\nbeside the seed (RTX 2070, i9-9900k one core, 10240 x 10240, R = 100), on %s, "
           "%zu x %zu, %u x %u:\n  %-24s %12s %12s %10s\n",
           b->gpu.name, s.width, s.height, opt.rw, opt.rh, "row", "ms", "seed ms", "% memset");
    for (int r = 0; r < ROWS; r++) {
        if (ms[r] <= 0)
            continue;
        printf("  %-24s %12.3f", row_name(r), ms[r]);
        if (seed_ms[r] > 0)
            printf(" %12.3f", seed_ms[r]);
        else
            printf(" %12s", "");
        if (ms[MEMSET] > 0 && r != MEMSET && r < CPU_BASIC)
            printf(" %9.1f%%", 100.0 * ms[MEMSET] / ms[r] * (1.0 + (double)opt.rw * opt.rh / s.n));
        printf("\n");
    }
}
