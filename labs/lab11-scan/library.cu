/* lab11 library rows: cub::DeviceScan, the single-pass scan NVIDIA keeps tuned for every GPU
 * (a decoupled look-back, as kernel 6), and cub::DeviceSelect::FlaggedIf, its compaction, on
 * the same buffers as the lab's kernels. Compiled for BACKEND=cuda only. */
#include <limits.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include "check.h"
#include "scan.h"

extern "C" int scan_cub(enum scan_mode mode, struct gpu_buf in, struct gpu_buf out, size_t n,
                        struct gpu_buf temp, size_t *temp_bytes)
{
    if (!temp_bytes || (mode != SCAN_INCLUSIVE && mode != SCAN_EXCLUSIVE) || !in.ptr ||
        n > in.bytes / sizeof(int) || !out.ptr || n > out.bytes / sizeof(int))
        return LAB_EINVAL;
    if (temp.ptr && temp.bytes < *temp_bytes)
        return LAB_EINVAL;
    if (mode == SCAN_INCLUSIVE)
        CUDA_TRY(cub::DeviceScan::InclusiveSum(temp.ptr, *temp_bytes, (const int *)in.ptr,
                                               (int *)out.ptr, n));
    else
        CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.ptr, *temp_bytes, (const int *)in.ptr,
                                               (int *)out.ptr, n));
    return LAB_OK;
}

/* The flag of pixel i is src[i]; FlaggedIf keeps index i where the flag passes. */
struct at_least {
    unsigned char thr;
    __device__ bool operator()(unsigned char pixel) const { return pixel >= thr; }
};

extern "C" int compact_cub(struct gpu_buf src, size_t n, unsigned char thr, struct gpu_buf out,
                           struct gpu_buf count, struct gpu_buf temp, size_t *temp_bytes)
{
    if (!temp_bytes || n == 0 || n > INT_MAX || !src.ptr || src.bytes < n || !out.ptr ||
        n > out.bytes / sizeof(unsigned) || !count.ptr || count.bytes < sizeof(unsigned))
        return LAB_EINVAL;
    if (temp.ptr && temp.bytes < *temp_bytes)
        return LAB_EINVAL;
    CUDA_TRY(cub::DeviceSelect::FlaggedIf(temp.ptr, *temp_bytes,
                                          thrust::counting_iterator<unsigned>(0),
                                          (const unsigned char *)src.ptr, (unsigned *)out.ptr,
                                          (unsigned *)count.ptr, (long long)n, at_least{thr}));
    return LAB_OK;
}
