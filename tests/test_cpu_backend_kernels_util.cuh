/* What the kernel files of the CPU backend's tests (tests/test_cpu_backend_kernels*.cu) share.
 * Their kernels are behind extern "C" launchers that return a cudaError_t. The portable ones
 * build with nvcc too and must give the GPU's integer results; the deliberately wrong ones are
 * run on the CPU backend only. */
#ifndef TEST_CPU_BACKEND_KERNELS_UTIL_CUH
#define TEST_CPU_BACKEND_KERNELS_UTIL_CUH
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define FULL 0xffffffffu
#define TRY(call)                \
    do {                         \
        cudaError_t e_ = (call); \
        if (e_ != cudaSuccess)   \
            return (int)e_;      \
    } while (0)

/* Upload n ints, run `launch`, download n ints back into the same host array. */
template <class F>
static int on_device(int *host, size_t n, F launch)
{
    int *d = NULL;
    TRY(cudaMalloc(&d, n * sizeof(int) + 1));
    TRY(cudaMemcpy(d, host, n * sizeof(int), cudaMemcpyHostToDevice));
    launch(d);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return (int)e;
}

#endif
