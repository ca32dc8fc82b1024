/* lab04 library row: cublasSdot, NVIDIA's tuned dot product, on the same buffers as the
 * lab's kernels, its result left on the device. Compiled for BACKEND=cuda only. */
#include <limits.h>
#include <stdio.h>
#include <cublas_v2.h>
#include "check.h"
#include "dot.h"

/* A cuBLAS call's status, checked like a CUDA call's. */
static int cublas_try(cublasStatus_t status, const char *call, int line)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return LAB_OK;
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, line, call, cublasGetStatusString(status));
    return LAB_ECUDA;
}
#define CUBLAS_TRY(call)                                   \
    do {                                                   \
        if (cublas_try((call), #call, __LINE__) != LAB_OK) \
            return LAB_ECUDA;                              \
    } while (0)

/* The handle lives as long as the process: cuBLAS allocates its workspace once, at the first
 * call, outside the timed runs (the bench warms up each row before timing it). */
extern "C" int dot_cublas(struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf out)
{
    static cublasHandle_t handle;
    if (n > INT_MAX || !a.ptr || !b.ptr || n > a.bytes / sizeof(float) ||
        n > b.bytes / sizeof(float) || !out.ptr || out.bytes < sizeof(float))
        return LAB_EINVAL;
    if (!handle) {
        CUBLAS_TRY(cublasCreate(&handle));
        CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    }
    CUBLAS_TRY(cublasSdot(handle, (int)n, (const float *)a.ptr, 1, (const float *)b.ptr, 1,
                          (float *)out.ptr));
    return LAB_OK;
}
