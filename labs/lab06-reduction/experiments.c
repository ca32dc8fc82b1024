/* lab06's report, what bench prints after its table: Harris's table for this GPU (time, GB/s,
 * step and cumulative speedup, % of peak). */
#include <stdio.h>
#include "host.h"

static void table_row(const struct bench *b, const char *name, const char *threads, double ms,
                      double first_ms, double previous_ms, size_t n)
{
    double rate = gbs((double)n * sizeof(int), ms);
    char step[16] = "", cumulative[16] = "";
    if (previous_ms > 0)
        snprintf(step, sizeof step, "%.2fx", previous_ms / ms);
    if (first_ms > 0)
        snprintf(cumulative, sizeof cumulative, "%.2fx", first_ms / ms);
    printf("%-26s %7s %10.4f %9.1f %8s %8s %7.1f\n", name, threads, ms, rate, step, cumulative,
           100.0 * rate / b->gpu.peak_gbs);
}

/* Harris's table for this GPU: the ten steps (each at its best block size), the baselines,
 * minmax, CUB and the CPU, with each step's speedup over the last and over the first. */
void harris_table(const struct bench *b, struct lab_size s, const double *ms,
                  const unsigned *threads)
{
    printf("\nHarris's table on %s: %zu ints (%.1f MB), each kernel at its best block size\n",
           b->gpu.name, s.n, s.n * sizeof(int) / 1e6);
    printf("%-26s %7s %10s %9s %8s %8s %7s\n", "kernel", "threads", "time ms", "GB/s", "step",
           "cumul.", "% peak");
    for (int r = 0; r <= CPU; r++) {
        int step = r < REDUCE_VARIANTS && !reduce_facts[r].atomic && reduce_facts[r].op == OP_SUM;
        char name[40], t[16] = "";
        const char *row = r < REDUCE_VARIANTS ? reduce_variants[r].name : extra_rows[r - CUB].name;
        if (ms[r] <= 0)
            continue;
        if (step)
            snprintf(name, sizeof name, "%d %s", r + 1, row);
        else
            snprintf(name, sizeof name, "  %s", row);
        if (threads[r])
            snprintf(t, sizeof t, "%u", threads[r]);
        table_row(b, name, t, ms[r], ms[0], step && r > 0 ? ms[r - 1] : 0, s.n);
    }
    printf("%-26s %7s %10s %9.1f %8s %8s %7.1f\n", "  cudaMemcpy D2D (ceiling)", "", "",
           b->copy_gbs, "", "", 100.0 * b->copy_gbs / b->gpu.peak_gbs);
}
