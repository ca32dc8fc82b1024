/* Timing a region: warm-up runs first (module load, first-touch, clocks), then `reps`
 * timed runs; we keep the median (robust to the odd slow run) with the min and max.
 * time_gpu brackets each run with CUDA events, so it measures device time only;
 * time_cpu uses the monotonic wall clock, for CPU rows and synchronous round trips. */
#ifndef TIMING_H
#define TIMING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TIMING_WARMUP = 3 };

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

/* What the timers share: TIMING_WARMUP calls of fn (stopping at an error), and the
 * summary of reps times in ms[] (sorted in place). */
int timing_warm_up(timed_fn fn, void *ctx);
double timing_now_ms(void); /* the monotonic wall clock */
void timing_summarize(double *ms, int reps, struct timing *t);

/* Device-to-device cudaMemcpy of `bytes`, counted as read + written: the copy ceiling. */
int time_copy(size_t bytes, int reps, struct timing *t);

#ifdef __cplusplus
}
#endif
#endif
