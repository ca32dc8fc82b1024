/* The bench table and its TSV: every lab reports in the same shape. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "lab.h"

static void print_columns(void)
{
    printf("%-28s %12s %10s %10s %10s %9s %7s %7s\n", "variant", "n", "median ms", "min ms",
           "max ms", "GB/s", "% peak", "% copy");
}

int bench_open(struct bench *b, const char *lab, const char *tsv_path, size_t copy_bytes, int reps)
{
    struct timing copy;
    time_t now = time(NULL);
    int status;
    memset(b, 0, sizeof *b);
    b->lab = lab;
    strftime(b->date, sizeof b->date, "%Y-%m-%d", gmtime(&now));
    if ((status = gpu_query(&b->gpu)) != LAB_OK)
        return status;
    if ((status = time_copy(copy_bytes, reps, &copy)) != LAB_OK)
        return status;
    b->copy_gbs = gbs(2.0 * copy_bytes, copy.median_ms);
    if (!(b->tsv = fopen(tsv_path, "w"))) {
        perror(tsv_path);
        return LAB_EINVAL;
    }
    fprintf(b->tsv, "series\tlab\tvariant\tkind\ttuning\tn\tbytes\tms_median\tms_min\tms_max"
                    "\tgbs\tpct_peak\tpeak_gbs\tcopy_gbs\tdevice\tdate\n");
    printf("%s on %s (sm_%d%d, %d SMs, %.0f MiB L2), %s\n", lab, b->gpu.name, b->gpu.cc_major,
           b->gpu.cc_minor, b->gpu.sms, b->gpu.l2_bytes / 1048576.0, b->date);
    printf("theoretical peak %.0f GB/s (%d MHz x %d bit x 2 / 8); measured copy %.0f GB/s "
           "(%.1f%% of peak)\n",
           b->gpu.peak_gbs, b->gpu.mem_clock_khz / 1000, b->gpu.bus_width_bits, b->copy_gbs,
           100.0 * b->copy_gbs / b->gpu.peak_gbs);
    printf("FP32 ceiling %.1f TFLOP/s (%d SMs x %d lanes x %d MHz x 2)%s\n\n",
           b->gpu.peak_gflops / 1e3, b->gpu.sms, b->gpu.fp32_lanes, b->gpu.sm_clock_khz / 1000,
           b->gpu.nominal ? ", nominal: the CPU backend has no timing model" : "");
    print_columns();
    bench_row(b, "main", "cudaMemcpy D2D", "copy", 0, copy_bytes / 4, 2.0 * copy_bytes, &copy);
    return LAB_OK;
}

void bench_row(struct bench *b, const char *series, const char *variant, const char *kind,
               unsigned tuning, size_t n, double bytes, const struct timing *t)
{
    double rate = gbs(bytes, t->median_ms);
    double pct_peak = 100.0 * rate / b->gpu.peak_gbs;
    printf("%-28s %12zu %10.4f %10.4f %10.4f %9.1f %7.1f %7.1f\n", variant, n, t->median_ms,
           t->min_ms, t->max_ms, rate, pct_peak, 100.0 * rate / b->copy_gbs);
    fprintf(b->tsv,
            "%s\t%s\t%s\t%s\t%u\t%zu\t%.0f\t%.6f\t%.6f\t%.6f\t%.2f\t%.2f\t%.1f\t%.1f\t%s\t%s\n",
            series, b->lab, variant, kind, tuning, n, bytes, t->median_ms, t->min_ms, t->max_ms,
            rate, pct_peak, b->gpu.peak_gbs, b->copy_gbs, b->gpu.name, b->date);
}

void bench_close(struct bench *b)
{
    if (b->tsv)
        fclose(b->tsv);
    b->tsv = NULL;
}
