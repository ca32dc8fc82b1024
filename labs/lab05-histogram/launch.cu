/* lab05's host API: the arguments checked, out zeroed, then the kernels of histogram.cu
 * launched: a thread per byte, or a grid that fills the GPU once. */
#include "check.h"
#include "histogram.h"

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* The dynamic shared memory of variant v: a sub-histogram per warp, or none. */
static size_t shared_bytes(enum hist_variant v)
{
    return HIST_THREADS / 32 * hist_facts[v].per_warp * HIST_BINS * sizeof(unsigned);
}

/* Blocks that fill every SM at the kernel's occupancy, and no more than n bytes need. The
 * merge costs a block 256 atomics, so a larger grid would only add merges. */
static int device_grid(enum hist_variant v, size_t n, unsigned *blocks)
{
    static const void *const kernels[HIST_VARIANTS] = {
        (const void *)histogram_global_atomic, (const void *)histogram_shared_privatized,
        (const void *)histogram_per_warp,      (const void *)histogram_wide_loads,
        (const void *)histogram_register_runs, (const void *)histogram_best};
    int dev, sms, per_sm;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels[v], HIST_THREADS,
                                                           shared_bytes(v)));
    *blocks = (unsigned)sms * (unsigned)per_sm;
    if (*blocks > div_up(n, HIST_THREADS))
        *blocks = (unsigned)div_up(n, HIST_THREADS);
    return LAB_OK;
}

/* The checks every entry point makes: counts are 32-bit, so are the kernels' byte indices. */
static int args_ok(struct gpu_buf in, size_t n, struct gpu_buf out)
{
    return in.ptr && n <= in.bytes && n <= UINT32_MAX && out.ptr &&
           out.bytes >= HIST_BINS * sizeof(unsigned);
}

static int launch(enum hist_variant v, const unsigned char *in, unsigned n, unsigned *out)
{
    unsigned blocks = (unsigned)div_up(n, HIST_THREADS);
    size_t shared = shared_bytes(v);
    if (hist_facts[v].grid_stride && device_grid(v, n, &blocks) != LAB_OK)
        return LAB_ECUDA;
    switch (v) {
    case HIST_GLOBAL_ATOMIC:
        histogram_global_atomic<<<blocks, HIST_THREADS>>>(in, out, n);
        break;
    case HIST_SHARED_PRIVATIZED:
        histogram_shared_privatized<<<blocks, HIST_THREADS>>>(in, out, n);
        break;
    case HIST_PER_WARP:
        histogram_per_warp<<<blocks, HIST_THREADS, shared>>>(in, out, n);
        break;
    case HIST_WIDE_LOADS:
        histogram_wide_loads<<<blocks, HIST_THREADS, shared>>>(in, out, n);
        break;
    case HIST_REGISTER_RUNS:
        histogram_register_runs<<<blocks, HIST_THREADS, shared>>>(in, out, n);
        break;
    case HIST_BEST:
        histogram_best<<<blocks, HIST_THREADS, shared>>>(in, out, n);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int histogram(enum hist_variant v, struct gpu_buf in, size_t n, struct gpu_buf out)
{
    if ((unsigned)v >= HIST_VARIANTS || !args_ok(in, n, out))
        return LAB_EINVAL;
    CUDA_TRY(cudaMemsetAsync(out.ptr, 0, HIST_BINS * sizeof(unsigned)));
    if (n == 0)
        return LAB_OK;
    return launch(v, (const unsigned char *)in.ptr, (unsigned)n, (unsigned *)out.ptr);
}

extern "C" int histogram_race(struct gpu_buf in, size_t n, struct gpu_buf out)
{
    if (!args_ok(in, n, out))
        return LAB_EINVAL;
    CUDA_TRY(cudaMemsetAsync(out.ptr, 0, HIST_BINS * sizeof(unsigned)));
    if (n == 0)
        return LAB_OK;
    histogram_race_kernel<<<(unsigned)div_up(n, HIST_THREADS), HIST_THREADS>>>(
        (const unsigned char *)in.ptr, (unsigned *)out.ptr, (unsigned)n);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaDeviceSynchronize());
    return LAB_OK;
}
