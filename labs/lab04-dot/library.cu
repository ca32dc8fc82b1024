/* lab04 library row: cublasSdot, NVIDIA's tuned dot product, on the same buffers as the
 * lab's kernels, its result left on the device. Compiled for BACKEND=cuda only. */
#include <limits.h>
#include <stdio.h>
#include "check.h"
#include "cublas_handle.h"
#include "dot.h"

extern "C" int dot_cublas(struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf out)
{
    cublasHandle_t handle;
    if (n > INT_MAX || !a.ptr || !b.ptr || n > a.bytes / sizeof(float) ||
        n > b.bytes / sizeof(float) || !out.ptr || out.bytes < sizeof(float))
        return LAB_EINVAL;
    if (lab_cublas(&handle) != LAB_OK)
        return LAB_ECUDA;
    CUBLAS_TRY(
        cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE)); /* the result on the device */
    CUBLAS_TRY(cublasSdot(handle, (int)n, (const float *)a.ptr, 1, (const float *)b.ptr, 1,
                          (float *)out.ptr));
    return LAB_OK;
}
