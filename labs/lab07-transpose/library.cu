/* lab07 library row: cuBLAS's transpose, measured in the same run as the kernels. cuBLAS
 * is column-major: our row-major in (height x width) is its width x height matrix with
 * leading dimension width, and out = in^T is its height x width matrix with leading
 * dimension height. cublasSgeam computes C = alpha op(A) + beta op(B); with alpha = 1,
 * beta = 0 and op(A) = A^T it is a transpose. B is passed as C (cuBLAS's documented
 * in-place form), and with beta = 0 it is not read. */
#include <limits.h>
#include <stdint.h>
#include <cublas_v2.h>
#include "check.h"
#include "transpose.h"

static cublasHandle_t handle; /* created on first use, destroyed at exit */

/* At exit, before the CUDA runtime's own teardown (registered earlier, so run later): the
 * workspace cuBLAS allocated goes back, and compute-sanitizer's leak check stays clean. */
static void destroy_handle(void)
{
    cublasDestroy(handle);
}

extern "C" int transpose_cublas(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height)
{
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = width * height * sizeof(float);
    uintptr_t i = (uintptr_t)in.ptr, o = (uintptr_t)out.ptr;
    cublasStatus_t status;
    if (width > INT_MAX || height > INT_MAX ||
        (height > 0 && width > SIZE_MAX / sizeof(float) / height))
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if (!in.ptr || !out.ptr || bytes > in.bytes || bytes > out.bytes ||
        (i < o + bytes && o < i + bytes))
        return LAB_EINVAL;
    if (!handle) {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "%s:%d: cublasCreate failed\n", __FILE__, __LINE__);
            return LAB_ECUDA;
        }
        atexit(destroy_handle);
    }
    status = cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)height, (int)width, &one,
                         (const float *)in.ptr, (int)width, &zero, (const float *)out.ptr,
                         (int)height, (float *)out.ptr, (int)height);
    if (status != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "%s:%d: cublasSgeam: %s\n", __FILE__, __LINE__,
                cublasGetStatusString(status));
        return LAB_ECUDA;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
