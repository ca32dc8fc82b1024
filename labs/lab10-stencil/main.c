/* lab10's command line (common/driver.h): the variants of stencil.h, then the CPU loops
 * (rows.c). One size, width x height: the heat rows' grid, and for the line rows its
 * width x height cells as one line. */
#include "driver.h"
#include "host.h"

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab10",
        .input = {.dims = 2,
                  .max_side = HEAT_MAX_SIDE,
                  /* 256 MiB a grid, 512 MiB moved a step: ten times the H100's L2 */
                  .size = {.width = 8192, .height = 8192},
                  /* checked in seconds by the CPU backend */
                  .cpu_size = {.width = 512, .height = 384},
                  .min_n = 1,
                  .max_n = (size_t)1 << 30,
                  .elem_bytes = sizeof(int)},
        .rows = {stencil_variants, STENCIL_VARIANTS, LAB_LIST(extra_rows)},
        .job = &stencil_job,
    };
    return lab_main(&lab, argc, argv);
}
