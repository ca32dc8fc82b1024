/* lab06's command line (common/driver.h): the variants of reduction.h, each benched at every
 * block size it takes, then CUB and the CPU loop (rows.c); after the bench, Harris's table
 * for this GPU (experiments.c). */
#include <limits.h>
#include "driver.h"
#include "host.h"

/* The block sizes bench tries; each variant's fastest makes its row and its sweep. */
static const unsigned block_sizes[] = {64, 128, 256, 512, 1024};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab06",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 1.07 GB of ints: far beyond any L2 */
                  .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
                  .min_n = 1,
                  .max_n = INT_MAX,
                  .elem_bytes = sizeof(int)},
        .rows = {reduce_variants, REDUCE_VARIANTS, LAB_LIST(extra_rows)},
        .job = &reduce_job,
        .measure = {.tunings = block_sizes,
                    .ntunings = LAB_COUNT(block_sizes),
                    .tuning = "threads"},
        .cli = {.report = harris_table},
    };
    return lab_main(&lab, argc, argv);
}
