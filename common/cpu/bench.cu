/* Costs of the CPU backend itself: launches, blocks, thread switches at barriers and warp
 * collectives, and 1M-element reductions. `make bench-cpu-backend`; numbers in README.md. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void empty() {}

__global__ void barriers(int rounds)
{
    for (int r = 0; r < rounds; r++)
        __syncthreads();
}

__global__ void shuffles(int rounds, int *out)
{
    unsigned v = threadIdx.x; /* wraps: the sum only keeps the shuffles from being dropped */
    for (int r = 0; r < rounds; r++)
        v += __shfl_xor_sync(0xffffffffu, v, r & 31);
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)v;
}

__global__ void volatile_steps(int rounds, int *out)
{
    __shared__ int s[256];
    volatile int *v = s;
    v[threadIdx.x] = 0;
    for (int r = 0; r < rounds; r++)
        v[threadIdx.x] = v[threadIdx.x] + 1;
    out[threadIdx.x] = s[threadIdx.x];
}

template <unsigned B>
__global__ void reduce_tree(const int *in, int *out, int n)
{
    __shared__ int s[B];
    unsigned t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned k = B / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

template <unsigned B>
__global__ void reduce_volatile(const int *in, int *out, int n)
{
    __shared__ int s[B];
    unsigned t = threadIdx.x, i = blockIdx.x * B + t;
    s[t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned k = B / 2; k > 32; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32], v[t] += v[t + 16], v[t] += v[t + 8];
        v[t] += v[t + 4], v[t] += v[t + 2], v[t] += v[t + 1];
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

__global__ void reduce_shuffle(const int *in, int *out, int n)
{
    __shared__ int warp_sums[32];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < (unsigned)n ? in[i] : 0;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0)
            atomicAdd(out, v);
    }
}

/* Median of 5 runs of `launch`, in ms. */
template <class F>
static float time_ms(F launch)
{
    cudaEvent_t a, b;
    float t[5];
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = 0; r < 5; r++) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&t[r], a, b);
    }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                float x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    if (cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "bench: a launch failed\n");
        exit(1);
    }
    return t[2];
}

int main(void)
{
    const int n = 1 << 20, rounds = 100;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(in, 0, n * sizeof(int));
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("%s\n%-44s %12s\n", p.name, "what", "cost");
    float ms = time_ms([] {
        for (int k = 0; k < 10000; k++)
            empty<<<1, 1>>>();
    });
    printf("%-44s %9.2f us\n", "launch of <<<1, 1>>>", ms * 1e3f / 10000);
    ms = time_ms([] { empty<<<65536, 32>>>(); });
    printf("%-44s %9.1f ns\n", "block of 32 threads, empty kernel", ms * 1e6f / 65536);
    ms = time_ms([] { empty<<<4096, 256>>>(); });
    printf("%-44s %9.1f ns\n", "thread, empty kernel (256 per block)", ms * 1e6f / (4096 * 256));
    ms = time_ms([&] { barriers<<<64, 256>>>(rounds); });
    printf("%-44s %9.1f ns\n", "__syncthreads, per thread (a switch)",
           ms * 1e6f / (64 * 256 * rounds));
    ms = time_ms([&] { shuffles<<<64, 256>>>(rounds, out); });
    printf("%-44s %9.1f ns\n", "__shfl_xor_sync, per thread", ms * 1e6f / (64 * 256 * rounds));
    ms = time_ms([&] { volatile_steps<<<1, 256>>>(rounds * 64, out); });
    printf("%-44s %9.1f ns\n", "volatile shared access, per thread",
           ms * 1e6f / (256 * rounds * 64 * 2));
    ms = time_ms([&] { reduce_tree<256><<<n / 256, 256>>>(in, out, n); });
    printf("%-44s %9.1f ms\n", "reduce 1M ints, shared tree, 256 threads", ms);
    ms = time_ms([&] { reduce_volatile<256><<<n / 256, 256>>>(in, out, n); });
    printf("%-44s %9.1f ms\n", "reduce 1M ints, volatile last warp", ms);
    ms = time_ms([&] { reduce_shuffle<<<n / 256, 256>>>(in, out, n); });
    printf("%-44s %9.1f ms\n", "reduce 1M ints, __shfl_down_sync", ms);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
