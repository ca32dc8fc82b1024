/* lab09's host API: the arguments checked, then the kernels of distance.cu launched. */
#include "check.h"
#include "distance.h"

static const unsigned THREADS = 256;

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* Blocks that fill every SM at full occupancy, and no more than n needs. */
static int device_grid(size_t n, unsigned *blocks)
{
    int dev, sms, per_sm;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, distance_grid_stride, THREADS, 0));
    *blocks = (unsigned)sms * (unsigned)per_sm;
    if (*blocks > div_up(n, THREADS))
        *blocks = (unsigned)div_up(n, THREADS);
    return LAB_OK;
}

static int fits(struct gpu_buf buf, size_t n)
{
    return buf.ptr && n <= buf.bytes / sizeof(float);
}

extern "C" int distance(enum distance_variant v, struct gpu_buf in, struct gpu_buf out, size_t n)
{
    const float *x = (const float *)in.ptr;
    float *y = (float *)out.ptr;
    unsigned blocks;
    if ((unsigned)v >= DISTANCE_VARIANTS)
        return LAB_EINVAL;
    if (n == 0)
        return LAB_OK;
    if (!fits(in, n) || !fits(out, n) || div_up(n, THREADS) > 0x7fffffffu)
        return LAB_EINVAL;
    if (distance_facts[v].grid_stride) {
        if (device_grid(n, &blocks) != LAB_OK)
            return LAB_ECUDA;
    } else {
        blocks = (unsigned)div_up(n, THREADS);
    }
    switch (v) {
    case DISTANCE_THREAD_PER_ELEMENT:
        distance_thread_per_element<<<blocks, THREADS>>>(x, y, n);
        break;
    case DISTANCE_GRID_STRIDE:
        distance_grid_stride<<<blocks, THREADS>>>(x, y, n);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
