/* Wall-clock timing, and what every timer shares: warm-up runs, then the median of the
 * timed ones (timing_gpu.cu times with CUDA events; the grader's judge has its own clock). */
#include <stdlib.h>
#include <time.h>
#include "lab.h"
#include "timing.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void timing_summarize(double *ms, int reps, struct timing *t)
{
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    t->reps = reps;
    t->min_ms = ms[0];
    t->max_ms = ms[reps - 1];
    t->median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
}

int timing_warm_up(timed_fn fn, void *ctx)
{
    for (int i = 0; i < TIMING_WARMUP; i++) {
        int status = fn(ctx);
        if (status != LAB_OK)
            return status;
    }
    return LAB_OK;
}

double timing_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int timing_runs(timed_fn fn, void *ctx, timing_clock clock, void *clk, int reps, struct timing *t)
{
    double *ms, last = 0, spent = 0;
    int status = LAB_OK, n = 0;
    if (reps < 1 || !(ms = malloc(sizeof *ms * (size_t)reps)))
        return LAB_EINVAL;
    for (int i = 0; i < TIMING_WARMUP && last < TIMING_SLOW_MS && status == LAB_OK; i++) {
        status = clock(fn, ctx, clk, &last);
        spent += last;
    }
    if (status == LAB_OK && last >= TIMING_BUDGET_MS / 2)
        ms[n++] = last;
    while (status == LAB_OK && n < reps && (n < 1 || spent + last <= TIMING_BUDGET_MS)) {
        status = clock(fn, ctx, clk, &ms[n]);
        last = ms[n];
        spent += ms[n++];
    }
    if (status == LAB_OK)
        timing_summarize(ms, n, t);
    free(ms);
    return status;
}

static int wall_clock(timed_fn fn, void *ctx, void *clk, double *ms)
{
    double t0 = timing_now_ms();
    int status = fn(ctx);
    (void)clk;
    *ms = timing_now_ms() - t0;
    return status;
}

int time_cpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    return timing_runs(fn, ctx, wall_clock, NULL, reps, t);
}

double gbs(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}
