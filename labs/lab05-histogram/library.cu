/* lab05 library row: cub::DeviceHistogram::HistogramEven, NVIDIA's tuned histogram, with
 * 256 bins of width 1 over [0, 256), on the same buffers as the lab's kernels. Compiled for
 * BACKEND=cuda only. */
#include <cub/device/device_histogram.cuh>
#include "check.h"
#include "histogram.h"

extern "C" int histogram_cub(struct gpu_buf in, size_t n, struct gpu_buf temp, size_t *temp_bytes,
                             struct gpu_buf out)
{
    if (!temp_bytes || !in.ptr || n > in.bytes || n > UINT32_MAX || !out.ptr ||
        out.bytes < HIST_BINS * sizeof(unsigned))
        return LAB_EINVAL;
    if (temp.ptr && temp.bytes < *temp_bytes)
        return LAB_EINVAL;
    /* levels: HIST_BINS + 1 boundaries, 0 to 256, as int since the samples are bytes */
    CUDA_TRY(cub::DeviceHistogram::HistogramEven(temp.ptr, *temp_bytes,
                                                 (const unsigned char *)in.ptr, (unsigned *)out.ptr,
                                                 HIST_BINS + 1, 0, (int)HIST_BINS, (int64_t)n));
    return LAB_OK;
}
