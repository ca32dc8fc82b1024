/* lab05's command line (common/driver.h). Contention is the lesson, so every row is a
 * variant on one input: NAME/uniform, NAME/same, NAME/image for each variant of
 * histogram.h, then CUB and the CPU loop on each (rows.c). `lab05 run --race [INPUT]` first
 * shows the race that the atomics fix (experiments.c). */
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "host.h"

struct options opt = {0, HIST_SAME};

/* --help's lines for the option below. */
static const char usage[] =
    "  --race [INPUT] run: first count with the race kernel, out[x]++ without an\n"
    "                 atomic, on uniform, same (the default) or image bytes\n";

/* --race [INPUT]: the race kernel on the run's size, seed and that input (default same). */
static int option(struct cli *c, const char *name, const char *value)
{
    if (strcmp(name, "--race"))
        return 0;
    (void)c;
    opt.race = 1;
    for (int d = 0; value && d < HIST_DATA; d++)
        if (!strcmp(value, hist_data_names[d])) {
            opt.race_input = (enum hist_data)d;
            return 1;
        }
    return CLI_FLAG; /* no input named: the argument after --race is the next option */
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab05",
        .input = {.dims = 1,
                  .size = {.n = 1u << 30},     /* 1 GiB of bytes: far beyond any L2 */
                  .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
                  .min_n = 1,
                  .max_n = UINT32_MAX,
                  .elem_bytes = 1},
        .rows = {variant_rows, VARIANT_ROWS, LAB_LIST(extra_rows)},
        .job = &histogram_job,
        .cli = {.usage = usage, .option = option, .intro = race},
    };
    name_rows();
    return lab_main(&lab, argc, argv);
}
