/* lab07's command line (common/driver.h): the variants of transpose.h, float then 8-bit,
 * and cuBLAS's transpose (rows.c). Every variant moves each element once each way, like a
 * copy: the copy variants are the ceiling, measured in the same run. */
#include "driver.h"
#include "host.h"

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab07",
        .input = {.dims = 2,
                  /* 1 GiB of floats: far beyond any L2 */
                  .size = {.width = 16384, .height = 16384},
                  /* checked in seconds by the CPU backend */
                  .cpu_size = {.width = 2048, .height = 2048},
                  .min_n = 1,
                  .max_n = (size_t)1 << 40,
                  .elem_bytes = sizeof(float)},
        .rows = {transpose_variants, TR_VARIANTS, LAB_LIST(extra_rows)},
        .job = &transpose_job,
        .cli = {.usage = "  a height x width float matrix, and an 8-bit image of the same size\n"},
    };
    return lab_main(&lab, argc, argv);
}
