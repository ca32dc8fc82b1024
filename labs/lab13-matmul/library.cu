/* lab13 library rows: cuBLAS's matrix multiply on the same buffers as the lab's kernels, in FP32
 * (cublasSgemm) and on TF32 tensor cores (cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32).
 * cuBLAS is column-major: our row-major C = A B is, read column-major, C^T = B^T A^T, the
 * product of B (n x k column-major, leading dimension n) and A (k x m, leading dimension k)
 * into C (n x m, leading dimension n). Compiled for BACKEND=cuda only. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include "check.h"
#include "cublas_handle.h"
#include "matmul.h"

static int fits(struct gpu_buf buf, size_t rows, size_t cols)
{
    size_t count = rows * cols;
    return count == 0 || (buf.ptr && count <= buf.bytes / sizeof(float));
}

static int overlap(const void *p, size_t x, const void *q, size_t y)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return x && y && a < b + y * sizeof(float) && b < a + x * sizeof(float);
}

extern "C" int matmul_cublas(enum matmul_library lib, struct gpu_buf a, struct gpu_buf b,
                             struct gpu_buf c, size_t m, size_t n, size_t k)
{
    const float one = 1.0f, zero = 0.0f;
    cublasHandle_t handle;
    int lda = k ? (int)k : 1; /* cuBLAS wants a leading dimension of 1 at least */
    if ((lib != MM_CUBLAS_SGEMM && lib != MM_CUBLAS_TF32) || m > INT_MAX || n > INT_MAX ||
        k > INT_MAX)
        return LAB_EINVAL;
    if (m == 0 || n == 0)
        return LAB_OK;
    if (!fits(a, m, k) || !fits(b, k, n) || !fits(c, m, n) || overlap(c.ptr, m * n, a.ptr, m * k) ||
        overlap(c.ptr, m * n, b.ptr, k * n))
        return LAB_EINVAL;
    if (lab_cublas(&handle) != LAB_OK)
        return LAB_ECUDA;
    if (lib == MM_CUBLAS_SGEMM)
        CUBLAS_TRY(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
                               (const float *)b.ptr, (int)n, (const float *)a.ptr, lda, &zero,
                               (float *)c.ptr, (int)n));
    else
        CUBLAS_TRY(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
                                b.ptr, CUDA_R_32F, (int)n, a.ptr, CUDA_R_32F, lda, &zero, c.ptr,
                                CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                CUBLAS_GEMM_DEFAULT));
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
