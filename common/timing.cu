/* Event and wall-clock timing with warm-up and the median of repeated runs. */
#include <stdlib.h>
#include <time.h>
#include "check.h"
#include "gpu.h"
#include "timing.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarize(double *ms, int reps, struct timing *t)
{
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    t->reps = reps;
    t->min_ms = ms[0];
    t->max_ms = ms[reps - 1];
    t->median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
}

static int warm_up(timed_fn fn, void *ctx)
{
    for (int i = 0; i < TIMING_WARMUP; i++) {
        int status = fn(ctx);
        if (status != LAB_OK)
            return status;
    }
    return LAB_OK;
}

int time_gpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    cudaEvent_t start, stop;
    double *ms;
    int status;
    if (reps < 1 || !(ms = (double *)malloc(sizeof *ms * (size_t)reps)))
        return LAB_EINVAL;
    status = warm_up(fn, ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < reps && status == LAB_OK; i++) {
        float elapsed;
        CUDA_CHECK(cudaEventRecord(start));
        status = fn(ctx);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
        ms[i] = elapsed;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    if (status == LAB_OK)
        summarize(ms, reps, t);
    free(ms);
    return status;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int time_cpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    double *ms;
    int status;
    if (reps < 1 || !(ms = (double *)malloc(sizeof *ms * (size_t)reps)))
        return LAB_EINVAL;
    status = warm_up(fn, ctx);
    for (int i = 0; i < reps && status == LAB_OK; i++) {
        double t0 = now_ms();
        status = fn(ctx);
        ms[i] = now_ms() - t0;
    }
    if (status == LAB_OK)
        summarize(ms, reps, t);
    free(ms);
    return status;
}

double gbs(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

struct copy_ctx {
    struct gpu_buf src, dst;
};

static int copy_once(void *p)
{
    struct copy_ctx *c = (struct copy_ctx *)p;
    CUDA_TRY(cudaMemcpyAsync(c->dst.ptr, c->src.ptr, c->src.bytes, cudaMemcpyDeviceToDevice));
    return LAB_OK;
}

int time_copy(size_t bytes, int reps, struct timing *t)
{
    struct copy_ctx c = {gpu_alloc(bytes), gpu_alloc(bytes)};
    int status = time_gpu(copy_once, &c, reps, t);
    gpu_free(&c.src);
    gpu_free(&c.dst);
    return status;
}
