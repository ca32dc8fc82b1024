/* lab07 library row: cuBLAS's transpose, measured in the same run as the kernels. cuBLAS
 * is column-major: our row-major in (height x width) is its width x height matrix with
 * leading dimension width, and out = in^T is its height x width matrix with leading
 * dimension height. cublasSgeam computes C = alpha op(A) + beta op(B); with alpha = 1,
 * beta = 0 and op(A) = A^T it is a transpose. B is passed as C (cuBLAS's documented
 * in-place form), and with beta = 0 it is not read. */
#include <limits.h>
#include <stdint.h>
#include "check.h"
#include "cublas_handle.h"
#include "transpose.h"

extern "C" int transpose_cublas(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height)
{
    const float one = 1.0f, zero = 0.0f;
    size_t bytes = width * height * sizeof(float);
    uintptr_t i = (uintptr_t)in.ptr, o = (uintptr_t)out.ptr;
    cublasHandle_t handle;
    if (width > INT_MAX || height > INT_MAX ||
        (height > 0 && width > SIZE_MAX / sizeof(float) / height))
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if (!in.ptr || !out.ptr || bytes > in.bytes || bytes > out.bytes ||
        (i < o + bytes && o < i + bytes))
        return LAB_EINVAL;
    if (lab_cublas(&handle) != LAB_OK)
        return LAB_ECUDA;
    CUBLAS_TRY(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)height, (int)width, &one,
                           (const float *)in.ptr, (int)width, &zero, (const float *)out.ptr,
                           (int)height, (float *)out.ptr, (int)height));
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
