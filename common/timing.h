/* Timing a region: warm-up runs first (module load, first-touch, clocks; one is enough for
 * a run of TIMING_SLOW_MS or more), then up to `reps` timed runs, but none that would end
 * past TIMING_BUDGET_MS spent on the row, warm-ups included (the last run says how long the
 * next takes), so that a slow row (a CPU reference, a lesson in what not to do) costs a second
 * or two, not a minute; and a warm-up of half the budget or more is itself a timed run, so
 * that such a row costs one run, not two or three (what a first run pays more, module loads
 * and first touches, is a millisecond or two: less than the spread of a slow row between
 * runs, lab09's CPU row 3.8 to 5.3 s over four runs on the H100 machine). We keep the median
 * (robust to the odd slow run) with the min and max, and the number of runs.
 * time_gpu brackets each run with CUDA events, so it measures device time only;
 * time_cpu uses the monotonic wall clock, for CPU rows and synchronous round trips. */
#ifndef TIMING_H
#define TIMING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TIMING_WARMUP = 3, TIMING_SLOW_MS = 100, TIMING_BUDGET_MS = 1000 };

struct timing {
    double median_ms, min_ms, max_ms;
    int reps;
};

/* The region to time: returns LAB_OK, or an error that stops the measurement. */
typedef int (*timed_fn)(void *ctx);

int time_gpu(timed_fn fn, void *ctx, int reps, struct timing *t);
int time_cpu(timed_fn fn, void *ctx, int reps, struct timing *t);

/* Effective bandwidth of `bytes` moved in `ms` milliseconds, in decimal GB/s. */
double gbs(double bytes, double ms);

/* One call of fn timed by a timer's clock (ctx: fn's, clk: the clock's), in *ms. */
typedef int (*timing_clock)(timed_fn fn, void *ctx, void *clk, double *ms);

/* What the timers share: the warm-ups and budgeted runs above on `clock`; TIMING_WARMUP
 * calls of fn (stopping at an error; the judge's clock); the summary of reps times in ms[]
 * (sorted in place). */
int timing_runs(timed_fn fn, void *ctx, timing_clock clock, void *clk, int reps, struct timing *t);
int timing_warm_up(timed_fn fn, void *ctx);
double timing_now_ms(void); /* the monotonic wall clock */
void timing_summarize(double *ms, int reps, struct timing *t);

/* Device-to-device cudaMemcpy of `bytes`, counted as read + written: the copy ceiling. */
int time_copy(size_t bytes, int reps, struct timing *t);

#ifdef __cplusplus
}
#endif
#endif
