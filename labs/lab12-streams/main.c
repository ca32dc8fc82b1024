/* lab12's command line (common/driver.h): its rows (rows.c) are the variants of streams.h,
 * then the copy in, the kernel and the copy out alone, whose slowest bounds every pipeline
 * (bench's report: experiments.c). --chunks, --streams and --fmas set the plan; `run
 * --timeline` prints every variant's spans. */
#include <string.h>
#include "cli.h"
#include "host.h"

/* 16 chunks over 4 streams; 512 FMAs an element, which on an H100 make the kernel a few times
 * shorter than the copies (--fmas 2048 makes them about even). */
struct streams_plan opt_plan = {16, 4, 512};

static const char usage[] =
    "  --chunks N     the chunked variants' chunks, 1 to 1024 (default 16)\n"
    "  --streams N    their streams, 1 to 32 (default 4)\n"
    "  --fmas N       the FMAs of the kernel per element, 0 to 65536 (default 512)\n";

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--chunks"))
        opt_plan.chunks = (unsigned)cli_count(c, name, value, 1, STREAMS_MAX_CHUNKS);
    else if (!strcmp(name, "--streams"))
        opt_plan.streams = (unsigned)cli_count(c, name, value, 1, STREAMS_MAX_STREAMS);
    else if (!strcmp(name, "--fmas"))
        opt_plan.fmas = (unsigned)cli_count(c, name, value, 0, STREAMS_MAX_FMAS);
    else
        return 0;
    return 1;
}

static const struct lab_experiment experiments[] = {
    {"--timeline", "every variant's copies and kernels: stream, chunk, start and end (ms)",
     timeline},
};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab12",
        .input = {.dims = 1,
                  /* 256 MiB each way: a few ms on the link, far beyond any L2 */
                  .size = {.n = 1u << 26},
                  .cpu_size = {.n = 1u << 16}, /* 512 FMAs each: seconds on the CPU backend */
                  .min_n = 1,
                  .elem_bytes = sizeof(float)},
        .rows = {streams_variants, STREAMS_VARIANTS, LAB_LIST(extra_rows)},
        .job = &streams_job,
        .cli = {.usage = usage,
                .option = option,
                .experiments = experiments,
                .nexperiments = LAB_COUNT(experiments),
                .report = bound_table},
    };
    return lab_main(&lab, argc, argv);
}
