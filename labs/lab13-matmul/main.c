/* lab13's command line (common/driver.h): the variants of matmul.h, cuBLAS in FP32 and TF32,
 * and the CPU (rows.c). The size is C's, n columns (--width or --n) by m rows (--height or
 * --m), with --k for the inner dimension (default: n). The metric is useful work: 2 m n k
 * flops a run, against the FP32 ceiling. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "host.h"

enum { MAX_SIDE = 1 << 18, MAX_K = 1 << 24 };

struct options opt; /* k = 0: k = n */

static const char usage[] =
    "  --m M, --n N   C's rows and columns (the same as --height, --width)\n"
    "  --k K          the inner dimension: A is m x k, B k x n (default: n)\n";

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--m"))
        c->height = (size_t)cli_count(c, name, value, 1, MAX_SIDE);
    else if (!strcmp(name, "--n"))
        c->width = (size_t)cli_count(c, name, value, 1, MAX_SIDE);
    else if (!strcmp(name, "--k"))
        opt.k = (size_t)cli_count(c, name, value, 1, MAX_K);
    else
        return 0;
    return 1;
}

/* run's first line: the shapes, which the driver's labels (C's) leave k out of. */
static void intro(struct lab_size s, uint64_t seed)
{
    size_t k = opt.k ? opt.k : s.width;
    (void)seed;
    printf("C = A B: A %zu x %zu, B %zu x %zu, C %zu x %zu, %.3g GFLOP\n", s.height, k, k, s.width,
           s.height, s.width, 2e-9 * (double)s.height * (double)s.width * (double)k);
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab13",
        .input = {.dims = 2,
                  .max_side = MAX_SIDE,
                  /* 4096^3: 137 GFLOP, 192 MiB of matrices; on the CPU backend 256^3, checked
                   * in seconds */
                  .size = {.width = 4096, .height = 4096},
                  .cpu_size = {.width = 256, .height = 256},
                  .min_n = 1,
                  .max_n = (size_t)1 << 32,
                  .elem_bytes = sizeof(float)},
        .rows = {matmul_variants, MATMUL_VARIANTS, LAB_LIST(extra_rows)},
        .job = &matmul_job,
        /* An FFMA is two flops: a flop is half an FP32 instruction, so the FP32 ceiling in
         * flops is the device's FP32 peak (SMs x lanes x clock x 2). */
        .measure = {.work_unit = "flop", .fp32_per_work = 0.5},
        .cli = {.usage = usage, .option = option, .intro = intro},
    };
    return lab_main(&lab, argc, argv);
}
