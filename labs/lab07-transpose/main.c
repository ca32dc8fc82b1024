/* lab07's command line (common/driver.h): the variants of transpose.h, float then 8-bit,
 * and cuBLAS's transpose (rows.c). Every variant moves each element once each way, like a
 * copy: the copy variants are the ceiling, measured in the same run. `run --occupancy`
 * times tiled_padded at each occupancy that unused shared memory leaves it (experiments.c),
 * and with --occupancy-tsv writes it for plots/occupancy.gp. */
#include <string.h>
#include "cli.h"
#include "host.h"

const char *opt_occupancy_tsv;

static const char usage[] = "  a height x width float matrix, and an 8-bit image of the same size\n"
                            "  --occupancy-tsv FILE  with --occupancy: its rows as a TSV\n";

static int option(struct cli *c, const char *name, const char *value)
{
    if (strcmp(name, "--occupancy-tsv"))
        return 0;
    if (!value || !*value)
        cli_fail(c, name, value, "expected a file name");
    opt_occupancy_tsv = value;
    return 1;
}

static const struct lab_experiment experiments[] = {
    {"--occupancy",
     "tiled_padded with unused shared memory a block: blocks per SM, occupancy, time", occupancy},
};

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
        .cli = {.usage = usage,
                .option = option,
                .experiments = experiments,
                .nexperiments = LAB_COUNT(experiments)},
    };
    return lab_main(&lab, argc, argv);
}
