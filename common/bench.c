/* The bench table and its TSV: every lab reports in the same shape. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "lab.h"

static void print_columns(const struct bench *b)
{
    if (b->work_unit)
        printf("%-28s %12s %10s %10s %10s %9s %7s\n", "variant", "n", "median ms", "min ms",
               "max ms", "G/s", "% FP32");
    else
        printf("%-28s %12s %10s %10s %10s %9s %7s %7s\n", "variant", "n", "median ms", "min ms",
               "max ms", "GB/s", "% peak", "% copy");
}

/* The FP32 ceiling in units of work a second: instructions a second over those of a unit. */
static double work_ceiling(const struct bench *b)
{
    return b->fp32_per_work > 0 ? b->gpu.peak_gflops * 1e9 / 2 / b->fp32_per_work : 0.0;
}

int bench_open(struct bench *b, const char *lab, const char *tsv_path, size_t copy_bytes, int reps,
               const char *work_unit, double fp32_per_work)
{
    struct timing copy;
    time_t now = time(NULL);
    int status;
    memset(b, 0, sizeof *b);
    b->lab = lab;
    b->work_unit = work_unit;
    b->fp32_per_work = fp32_per_work;
    strftime(b->date, sizeof b->date, "%Y-%m-%d", gmtime(&now));
    if (!(b->tsv = fopen(tsv_path, "w"))) { /* before anything is timed */
        fprintf(stderr,
                "%s bench: cannot write %s (%s): run it from the repository's root, as make "
                "%s bench does, or give --tsv PATH\n",
                lab, tsv_path, strerror(errno), lab);
        return LAB_EINVAL;
    }
    if ((status = gpu_query(&b->gpu)) != LAB_OK ||
        (status = time_copy(copy_bytes, reps, &copy)) != LAB_OK) {
        fclose(b->tsv);
        return status;
    }
    b->copy_gbs = gbs(2.0 * copy_bytes, copy.median_ms);
    fprintf(b->tsv, "series\tlab\tvariant\tkind\ttuning\tn\tbytes\tms_median\tms_min\tms_max"
                    "\tgbs\tpct_peak\tpeak_gbs\tcopy_gbs\tdevice\tdate"
                    "\twork\twork_unit\twork_per_s\tpct_fp32\twork_ceiling\tfp32_per_work\n");
    printf("%s on %s (sm_%d%d, %d SMs, %.0f MiB L2), %s\n", lab, b->gpu.name, b->gpu.cc_major,
           b->gpu.cc_minor, b->gpu.sms, b->gpu.l2_bytes / 1048576.0, b->date);
    printf("theoretical peak %.0f GB/s (%d MHz x %d bit x 2 / 8); measured copy %.0f GB/s "
           "(%.1f%% of peak)\n",
           b->gpu.peak_gbs, b->gpu.mem_clock_khz / 1000, b->gpu.bus_width_bits, b->copy_gbs,
           100.0 * b->copy_gbs / b->gpu.peak_gbs);
    printf("FP32 ceiling %.1f TFLOP/s (%d SMs x %d lanes x %d MHz x 2)%s\n",
           b->gpu.peak_gflops / 1e3, b->gpu.sms, b->gpu.fp32_lanes, b->gpu.sm_clock_khz / 1000,
           b->gpu.nominal ? ", nominal: the CPU backend has no timing model" : "");
    if (work_unit && fp32_per_work > 0)
        printf("G/s: G %s a second; %% FP32: of the ceiling's %.1f G %s a second at %g FP32 "
               "instructions each\n",
               work_unit, work_ceiling(b) / 1e9, work_unit, fp32_per_work);
    else if (work_unit) /* integer work (lab14's stages): no FP32 ceiling to hold it to */
        printf("G/s: G %s a second\n", work_unit);
    printf("\n");
    print_columns(b);
    bench_row(b, "main", "cudaMemcpy D2D", "copy", 0, copy_bytes / 4, 2.0 * copy_bytes, 0.0, &copy);
    return LAB_OK;
}

void bench_row(struct bench *b, const char *series, const char *variant, const char *kind,
               unsigned tuning, size_t n, double bytes, double work, const struct timing *t)
{
    double rate = gbs(bytes, t->median_ms);
    double pct_peak = 100.0 * rate / b->gpu.peak_gbs;
    double work_per_s = t->median_ms > 0 ? work / (t->median_ms * 1e-3) : 0.0;
    double ceiling = work_ceiling(b), pct_fp32 = ceiling > 0 ? 100.0 * work_per_s / ceiling : 0.0;
    if (b->work_unit && ceiling > 0)
        printf("%-28s %12zu %10.4f %10.4f %10.4f %9.4g %7.1f\n", variant, n, t->median_ms,
               t->min_ms, t->max_ms, work_per_s / 1e9, pct_fp32);
    else if (b->work_unit)
        printf("%-28s %12zu %10.4f %10.4f %10.4f %9.4g %7s\n", variant, n, t->median_ms, t->min_ms,
               t->max_ms, work_per_s / 1e9, "-");
    else
        printf("%-28s %12zu %10.4f %10.4f %10.4f %9.1f %7.1f %7.1f\n", variant, n, t->median_ms,
               t->min_ms, t->max_ms, rate, pct_peak, 100.0 * rate / b->copy_gbs);
    fprintf(b->tsv,
            "%s\t%s\t%s\t%s\t%u\t%zu\t%.0f\t%.6f\t%.6f\t%.6f\t%.2f\t%.2f\t%.1f\t%.1f\t%s\t%s"
            "\t%.0f\t%s\t%.6g\t%.2f\t%.6g\t%g\n",
            series, b->lab, variant, kind, tuning, n, bytes, t->median_ms, t->min_ms, t->max_ms,
            rate, pct_peak, b->gpu.peak_gbs, b->copy_gbs, b->gpu.name, b->date, work,
            b->work_unit ? b->work_unit : "-", work_per_s, pct_fp32, ceiling, b->fp32_per_work);
}

void bench_close(struct bench *b)
{
    if (b->tsv)
        fclose(b->tsv);
    b->tsv = NULL;
}
