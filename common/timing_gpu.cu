/* Event timing on the GPU, and the copy ceiling (timing.c: the rest of timing.h). */
#include <stdlib.h>
#include "check.h"
#include "gpu.h"
#include "timing.h"

struct events {
    cudaEvent_t start, stop;
};

static int event_clock(timed_fn fn, void *ctx, void *clk, double *ms)
{
    struct events *e = (struct events *)clk;
    float elapsed;
    int status;
    CUDA_CHECK(cudaEventRecord(e->start));
    status = fn(ctx);
    CUDA_CHECK(cudaEventRecord(e->stop));
    CUDA_CHECK(cudaEventSynchronize(e->stop));
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, e->start, e->stop));
    *ms = elapsed;
    return status;
}

int time_gpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    struct events e;
    int status;
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventCreate(&e.start));
    CUDA_CHECK(cudaEventCreate(&e.stop));
    status = timing_runs(fn, ctx, event_clock, &e, reps, t);
    CUDA_CHECK(cudaEventDestroy(e.start));
    CUDA_CHECK(cudaEventDestroy(e.stop));
    return status;
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
