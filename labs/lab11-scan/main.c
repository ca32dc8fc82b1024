/* lab11's command line (common/driver.h): the variants of scan.h, then CUB and the CPU loop
 * (rows.c). */
#include <limits.h>
#include "driver.h"
#include "host.h"

/* The block heights bench tries for threshold_pixel: the seed's sweep, blocks of 32 x 16 down
 * to 32 x 1 (a row each in the TSV's series "block_rows", which plots/lab11-blocks.gp draws
 * beside the seed's GPUs); its fastest makes its row of the table. */
static const unsigned block_rows[] = {16, 8, 6, 4, 2, 1};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab11",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 1.07 GB read, as much written: past any L2 */
                  .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
                  .min_n = 1,
                  .elem_bytes = sizeof(int)},
        .rows = {scan_variants, SCAN_VARIANTS, LAB_LIST(extra_rows)},
        .job = &scan_job,
        .measure = {.tunings = block_rows,
                    .ntunings = LAB_COUNT(block_rows),
                    .tuning = "block_rows"},
    };
    return lab_main(&lab, argc, argv);
}
