/* Event timing on the GPU, and the copy ceiling (timing.c: the rest of timing.h). */
#include <stdlib.h>
#include "check.h"
#include "gpu.h"
#include "timing.h"

int time_gpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    cudaEvent_t start, stop;
    double *ms;
    int status;
    if (reps < 1 || !(ms = (double *)malloc(sizeof *ms * (size_t)reps)))
        return LAB_EINVAL;
    status = timing_warm_up(fn, ctx);
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
        timing_summarize(ms, reps, t);
    free(ms);
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
