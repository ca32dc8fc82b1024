/* The bench's judge (bench_labNN): the lab's bench with its calls served by the worker,
 * but timed on the judge's own clock, against a copy ceiling the judge measures itself, on
 * host memory of its own. Host code only (nvcc builds it for the judge: no kernels here).
 * A time is the wall clock of reps runs back to back and a sync after them, over reps: a
 * worker cannot report a number, only take the time it takes. Each request's round trip
 * overlaps the kernels queued before it, so only the last sync's is paid, once. The copy
 * is timed the same way, on the judge's own buffers, so the ratio is fair. Every row's
 * min, median and max are that one mean. */
#include <stdlib.h>
#include "check.h"
#include "gpu.h"
#include "timing.h"

static int time_batch(timed_fn fn, void *ctx, void (*sync)(void), int reps, struct timing *t)
{
    double start;
    int status;
    if (reps < 1)
        return LAB_EINVAL;
    status = timing_warm_up(fn, ctx);
    sync();
    start = timing_now_ms();
    for (int i = 0; i < reps && status == LAB_OK; i++)
        status = fn(ctx);
    sync();
    t->reps = reps;
    t->median_ms = t->min_ms = t->max_ms = (timing_now_ms() - start) / reps;
    return status;
}

int time_gpu(timed_fn fn, void *ctx, int reps, struct timing *t)
{
    return time_batch(fn, ctx, gpu_sync, reps, t);
}

struct own_copy {
    void *src, *dst;
    size_t bytes;
};

static int copy_once(void *p)
{
    struct own_copy *c = (struct own_copy *)p;
    CUDA_TRY(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice));
    return LAB_OK;
}

static void own_sync(void)
{
    CUDA_CHECK(cudaDeviceSynchronize());
}

int time_copy(size_t bytes, int reps, struct timing *t)
{
    struct own_copy c = {NULL, NULL, bytes};
    int status;
    CUDA_CHECK(cudaMalloc(&c.src, bytes));
    CUDA_CHECK(cudaMalloc(&c.dst, bytes));
    status = time_batch(copy_once, &c, own_sync, reps, t);
    CUDA_CHECK(cudaFree(c.src));
    CUDA_CHECK(cudaFree(c.dst));
    return status;
}

/* The judge's host arrays only cross the pipe: plain memory does. */
void *gpu_host_alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench judge: out of host memory (%zu bytes)\n", bytes);
        exit(EXIT_FAILURE);
    }
    return p;
}

void gpu_host_free(void *p)
{
    free(p);
}
