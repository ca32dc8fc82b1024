/* Kernels of what only the CPU backend has (tests/test_cpu_backend_features.c): the work
 * counter, CUDA_CPU_WINDOW and sparse memory. */
#include "test_cpu_backend_kernels_util.cuh"

#ifdef CUDA_CPU_BACKEND
#include <cuda_cpu.h>

/* An LCG step per iteration: a loop that the compiler cannot fold away. */
__global__ void spin(int *out, int iterations)
{
    unsigned x = threadIdx.x;
    for (int i = 0; i < iterations; i++)
        x = x * 1664525u + 1013904223u;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)x;
}

static unsigned host_spin(int iterations)
{
    unsigned x = 1;
    for (int i = 0; i < iterations; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}
#endif

/* The work counter (cuda_cpu.h). counts: the basic blocks that spin<<<4, 64>>> executes with
 * `iterations`, the threads it launched, and the basic blocks counted while host code of this
 * file, as instrumented as the kernel, runs as many iterations. */
extern "C" int tk_work(int iterations, unsigned long long counts[3])
{
#ifdef CUDA_CPU_BACKEND
    int *d = NULL;
    TRY(cudaMalloc(&d, 256 * sizeof(int)));
    unsigned long long blocks = cuda_cpu_basic_blocks(), threads = cuda_cpu_threads_launched();
    spin<<<4, 64>>>(d, iterations);
    cudaError_t e = cudaDeviceSynchronize();
    counts[0] = cuda_cpu_basic_blocks() - blocks;
    counts[1] = cuda_cpu_threads_launched() - threads;
    blocks = cuda_cpu_basic_blocks();
    volatile unsigned sink = host_spin(iterations);
    (void)sink;
    counts[2] = cuda_cpu_basic_blocks() - blocks;
    cudaFree(d);
    return (int)e;
#else
    (void)iterations, (void)counts;
    return (int)cudaErrorNotSupported;
#endif
}

/* CUDA_CPU_WINDOW and sparse memory (cuda_cpu.h): each thread of a grid-stride loop over n
 * elements marks those it visits with its block + 1, in memory from cuda_cpu_malloc_zeroed.
 * got: the k elements at `at`, or all n when at is NULL. */
__global__ void mark_blocks(unsigned *out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = blockIdx.x + 1;
}

extern "C" int tk_window(unsigned blocks, size_t n, const size_t *at, int k, unsigned *got)
{
#ifdef CUDA_CPU_BACKEND
    unsigned *d = NULL;
    TRY(cuda_cpu_malloc_zeroed((void **)&d, n * sizeof *d));
    mark_blocks<<<blocks, 256>>>(d, n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e == cudaSuccess && !at)
        e = cudaMemcpy(got, d, n * sizeof *d, cudaMemcpyDeviceToHost);
    for (int j = 0; at && j < k && e == cudaSuccess; j++)
        e = cudaMemcpy(&got[j], d + at[j], sizeof *d, cudaMemcpyDeviceToHost);
    TRY(cudaFree(d));
    return (int)e;
#else
    (void)blocks, (void)n, (void)at, (void)k, (void)got;
    return (int)cudaErrorNotSupported;
#endif
}
