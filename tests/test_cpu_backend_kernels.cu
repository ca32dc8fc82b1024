/* Kernels for the CPU backend's own tests (tests/test_cpu_backend.c), behind extern "C"
 * launchers that return a cudaError_t. The portable ones build with nvcc too and must give
 * the GPU's integer results; the deliberately wrong ones are run on the CPU backend only. */
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "test_cpu_backend_kernels.cuh"

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

extern "C" int tk_is_cpu(void)
{
#ifdef CUDA_CPU_BACKEND
    return 1;
#else
    return 0;
#endif
}

extern "C" int tk_sanitized(void)
{
#ifdef __SANITIZE_ADDRESS__
    return 1;
#else
    return 0;
#endif
}

extern "C" int tk_racecheck(void)
{
#ifdef __SANITIZE_THREAD__
    return 1;
#else
    return 0;
#endif
}

/* ------------------------------------------------------------------ indices and shapes */
__global__ void indices(int *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned i = b * blockDim.x * blockDim.y * blockDim.z + t;
    out[4 * i] = (int)(blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16);
    out[4 * i + 1] = (int)(threadIdx.x | threadIdx.y << 11 | threadIdx.z << 22);
    out[4 * i + 2] = (int)(blockDim.x * blockDim.y * blockDim.z);
    out[4 * i + 3] = (int)(gridDim.x * gridDim.y * gridDim.z + warpSize);
}

extern "C" int tk_indices(const unsigned grid[3], const unsigned block[3], int *out)
{
    size_t n = 4ul * grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
    return on_device(out, n, [&](int *d) {
        indices<<<dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2])>>>(d);
    });
}

/* ------------------------------------------------------------------ shared memory */
__global__ void reverse_static(int *data, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    data[t] = s[n - 1 - t];
}

__global__ void reverse_dynamic(int *data, int n)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    dyn[t] = data[t];
    __syncthreads();
    data[t] = dyn[n - 1 - t];
}

extern "C" int tk_reverse(int dynamic, int *data, int n)
{
    return on_device(data, n, [&](int *d) {
        if (dynamic)
            reverse_dynamic<<<1, n, n * sizeof(int)>>>(d, n);
        else
            reverse_static<<<1, n>>>(d, n);
    });
}

/* Threads past n leave before the barrier: the others still meet at it. */
__global__ void early_return(int *data, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    if (t >= n)
        return;
    s[t] = data[t] * 2;
    __syncthreads();
    data[t] = s[(t + 1) % n];
}

extern "C" int tk_early_return(int *data, int n, int threads)
{
    return on_device(data, n, [&](int *d) { early_return<<<1, threads>>>(d, n); });
}

/* Dynamic shared memory as the kernel finds it: the poison pattern on the CPU backend. */
__global__ void read_dynamic(int *out)
{
    extern __shared__ int dyn[];
    out[threadIdx.x] = dyn[threadIdx.x];
}

extern "C" int tk_read_dynamic(int *out, int n)
{
    return on_device(out, n, [&](int *d) { read_dynamic<<<1, n, n * sizeof(int)>>>(d); });
}

/* A 33 x 70 matrix through 32 x 33 tiles (padded: no bank conflicts on a GPU). */
__global__ void transpose(const int *in, int *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += blockDim.y)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = (float)in[(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += blockDim.y)
        if (x < rows && y + k < cols)
            out[(y + k) * rows + x] = (int)tile[threadIdx.x][threadIdx.y + k];
}

extern "C" int tk_transpose(int *m, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    int *t = NULL;
    TRY(cudaMalloc(&t, n * sizeof(int)));
    int e = on_device(m, n, [&](int *d) {
        transpose<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(d, t, rows, cols);
        cudaMemcpy(d, t, n * sizeof(int), cudaMemcpyDeviceToDevice);
    });
    cudaFree(t);
    return e;
}

/* ------------------------------------------------------------------ reductions */
/* Sequential addressing in shared memory (Harris's kernel 3), a template kernel. */
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
        out[blockIdx.x] = s[0];
}

/* Harris's kernel 6: the last warp unrolled through a volatile pointer, no __syncwarp. */
template <unsigned B>
__device__ void warp_reduce(volatile int *s, unsigned t)
{
    if (B >= 64)
        s[t] += s[t + 32];
    if (B >= 32)
        s[t] += s[t + 16];
    if (B >= 16)
        s[t] += s[t + 8];
    if (B >= 8)
        s[t] += s[t + 4];
    if (B >= 4)
        s[t] += s[t + 2];
    if (B >= 2)
        s[t] += s[t + 1];
}

template <unsigned B>
__global__ void reduce_unrolled(const int *in, int *out, int n)
{
    extern __shared__ int sdata[];
    unsigned t = threadIdx.x, i = blockIdx.x * B * 2 + t;
    int sum = 0;
    if (i < (unsigned)n)
        sum += in[i];
    if (i + B < (unsigned)n)
        sum += in[i + B];
    sdata[t] = sum;
    __syncthreads();
    if (B >= 512) {
        if (t < 256)
            sdata[t] += sdata[t + 256];
        __syncthreads();
    }
    if (B >= 256) {
        if (t < 128)
            sdata[t] += sdata[t + 128];
        __syncthreads();
    }
    if (B >= 128) {
        if (t < 64)
            sdata[t] += sdata[t + 64];
        __syncthreads();
    }
    if (t < 32)
        warp_reduce<B>(sdata, t);
    if (t == 0)
        out[blockIdx.x] = sdata[0];
}

/* Shuffles, then one atomic per warp; int4 loads where the buffer allows. */
__global__ void reduce_shuffle(const int *in, int *out, int n)
{
    int sum = 0;
    unsigned stride = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    const int4 *in4 = reinterpret_cast<const int4 *>(in);
    for (unsigned k = i; k < (unsigned)n / 4; k += stride) {
        int4 v = in4[k];
        sum += v.x + v.y + v.z + v.w;
    }
    for (unsigned k = (unsigned)n / 4 * 4 + i; k < (unsigned)n; k += stride)
        sum += in[k];
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_down_sync(FULL, sum, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, sum);
}

/* Privatised: a shared atomic per element, one global atomic per block. */
__global__ void reduce_shared_atomic(const int *in, int *out, int n)
{
    __shared__ int block_sum;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        block_sum = 0;
    __syncthreads();
    if (i < (unsigned)n)
        atomicAdd(&block_sum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(out, block_sum);
}

/* variant: 0 tree, 1 unrolled last warp, 2 shuffle + int4, 3 shared atomics. */
extern "C" int tk_reduce(int variant, const int *in, int n, long long *sum)
{
    const unsigned B = 256;
    unsigned blocks = variant == 1 ? (n + 2 * B - 1) / (2 * B) : (n + B - 1) / B;
    if (variant == 2)
        blocks = blocks < 64 ? blocks : 64;
    blocks = blocks ? blocks : 1;
    int *d_in = NULL, *d_out = NULL;
    TRY(cudaMalloc(&d_in, (n ? n : 1) * sizeof(int)));
    TRY(cudaMalloc(&d_out, blocks * sizeof(int)));
    TRY(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    TRY(cudaMemset(d_out, 0, blocks * sizeof(int)));
    if (variant == 0)
        reduce_tree<B><<<blocks, B>>>(d_in, d_out, n);
    if (variant == 1)
        reduce_unrolled<B><<<blocks, B, B * sizeof(int)>>>(d_in, d_out, n);
    if (variant == 2)
        reduce_shuffle<<<blocks, B>>>(d_in, d_out, n);
    if (variant == 3)
        reduce_shared_atomic<<<blocks, B>>>(d_in, d_out, n);
    int partial[4096];
    unsigned parts = variant >= 2 ? 1 : blocks;
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(partial, d_out, parts * sizeof(int), cudaMemcpyDeviceToHost);
    *sum = 0;
    for (unsigned b = 0; e == cudaSuccess && b < parts; b++)
        *sum += partial[b];
    cudaFree(d_in);
    cudaFree(d_out);
    return (int)e;
}

/* ------------------------------------------------------------------ warps */
/* Only warp 1 (threads 32-63) enters the branch: its collectives involve its lanes only
 * (and only when it is a whole warp: a block of 48 has a warp of 16 lanes). */
__global__ void warp_ops(int *out)
{
    int lane = threadIdx.x & 31, w = threadIdx.x / 32, v = lane * 3 + 1;
    int *o = out + 20 * threadIdx.x;
    if (w == 1 && blockDim.x % 32 == 0) {
        o[0] = __shfl_sync(FULL, v, 31 - lane);
        o[1] = __shfl_up_sync(FULL, v, 3);
        o[2] = __shfl_down_sync(FULL, v, 7);
        o[3] = __shfl_xor_sync(FULL, v, 5);
        o[4] = __shfl_down_sync(FULL, v, 3, 8);
        o[5] = __shfl_xor_sync(FULL, v, 9, 16);
        o[6] = (int)__ballot_sync(FULL, lane % 3 == 0);
        o[7] = __any_sync(FULL, lane == 17);
        o[8] = __all_sync(FULL, lane < 31);
        o[9] = (int)__activemask();
        double d = __shfl_sync(FULL, lane * 0.5, lane ^ 1);
        o[10] = (int)(d * 2);
        __syncwarp();
        o[11] = __shfl_sync(FULL, v, 40);
        o[17] = (int)__match_any_sync(FULL, lane / 4);
        o[18] = __shfl_sync(FULL, v, 3, 16);
        o[19] = __popc(__ballot_sync(FULL, 1));
    }
    if (lane < 10) /* the lanes that take a branch are the active ones */
        o[16] = (int)__activemask();
    if (lane < 16) /* half a warp, with the matching mask */
        o[12] = (int)__ballot_sync(0x0000ffffu, lane & 1) + __shfl_sync(0x0000ffffu, v, 15 - lane);
    unsigned short_warp = __ballot_sync(__activemask(), 1); /* block of 48: a warp of 16 lanes */
    o[13] = (int)short_warp;
    o[14] = __syncthreads_count(lane & 1);
    o[15] = __syncthreads_and(threadIdx.x < 1000) * 2 + __syncthreads_or(threadIdx.x == 47);
}

extern "C" int tk_warp_ops(int *out, int threads)
{
    return on_device(out, 20 * threads, [&](int *d) { warp_ops<<<1, threads>>>(d); });
}

/* ------------------------------------------------------------------ atomics */
struct counters {
    int i_add, i_sub, i_min, i_max, i_and, i_or, i_xor, i_cas, i_exch_sum;
    unsigned u_add, u_min, u_max, u_inc, u_dec, u_cas;
    unsigned long long ull_add, ull_min, ull_max, ull_and, ull_or, ull_cas;
    float f_add, f_exch_sum;
    double d_add;
};

__device__ void count(counters *c, int id, int *exch_slot)
{
    atomicAdd(&c->i_add, id);
    atomicSub(&c->i_sub, id);
    atomicMin(&c->i_min, 1000 - id);
    atomicMax(&c->i_max, id * 7 % 1013);
    atomicAnd(&c->i_and, ~(1 << (id % 31)));
    atomicOr(&c->i_or, 1 << (id % 29));
    atomicXor(&c->i_xor, id);
    int old = c->i_cas, seen;
    while ((seen = atomicCAS(&c->i_cas, old, old + 2)) != old)
        old = seen;
    atomicAdd(&c->i_exch_sum, atomicExch(exch_slot, id));
    atomicAdd(&c->u_add, (unsigned)id);
    atomicMin(&c->u_min, (unsigned)id + 5);
    atomicMax(&c->u_max, (unsigned)id * 3);
    atomicInc(&c->u_inc, 16u);
    atomicDec(&c->u_dec, 9u);
    unsigned uold = c->u_cas, useen;
    while ((useen = atomicCAS(&c->u_cas, uold, uold + 1)) != uold)
        uold = useen;
    atomicAdd(&c->ull_add, 1ull << 40 | (unsigned)id);
    atomicMin(&c->ull_min, (unsigned long long)id << 33);
    atomicMax(&c->ull_max, (unsigned long long)id << 33);
    atomicAnd(&c->ull_and, ~(1ull << (id % 63)));
    atomicOr(&c->ull_or, 1ull << (id % 61));
    unsigned long long lold = c->ull_cas, lseen;
    while ((lseen = atomicCAS(&c->ull_cas, lold, lold + 3)) != lold)
        lold = lseen;
    atomicAdd(&c->f_add, (float)id); /* integers below 2^24: exact in any order */
    atomicAdd(&c->f_exch_sum, atomicExch((float *)(exch_slot + 1), (float)id));
    atomicAdd(&c->d_add, id * 0.5);
}

__global__ void atomics_global(counters *c, int *slots)
{
    count(c, blockIdx.x * blockDim.x + threadIdx.x, slots);
}

/* The same on a shared copy, folded into the global one by thread 0. */
__global__ void atomics_shared(counters *c, int *slots)
{
    __shared__ counters s;
    __shared__ int sslots[2];
    if (threadIdx.x == 0) {
        s = *c;
        sslots[0] = slots[0], sslots[1] = slots[1];
    }
    __syncthreads();
    count(&s, blockIdx.x * blockDim.x + threadIdx.x, sslots);
    __syncthreads();
    if (threadIdx.x == 0) {
        *c = s;
        slots[0] = sslots[0], slots[1] = sslots[1];
    }
}

/* Fills out[] with the counters as ints (floats exact), from `blocks` x `threads` ids. */
extern "C" int tk_atomics(int shared, int blocks, int threads, long long *out)
{
    counters h = {0, 0, 1 << 30, -1, -1,    0, 0,     0, 0, 0,    ~0u,  0,
                  0, 0, 0,       0,  ~0ull, 0, ~0ull, 0, 0, 0.0f, 0.0f, 0.0};
    int hslots[2] = {-1, 0};
    counters *d = NULL;
    int *slots = NULL;
    TRY(cudaMalloc(&d, sizeof h));
    TRY(cudaMalloc(&slots, sizeof hslots));
    TRY(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(slots, hslots, sizeof hslots, cudaMemcpyHostToDevice));
    if (shared)
        atomics_shared<<<1, threads>>>(d, slots);
    else
        atomics_global<<<blocks, threads>>>(d, slots);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    TRY(cudaMemcpy(hslots, slots, sizeof hslots, cudaMemcpyDeviceToHost));
    float last_f;
    memcpy(&last_f, &hslots[1], sizeof last_f);
    long long v[] = {h.i_add,
                     h.i_sub,
                     h.i_min,
                     h.i_max,
                     h.i_and,
                     h.i_or,
                     h.i_xor,
                     h.i_cas,
                     h.i_exch_sum + (long long)hslots[0],
                     h.u_add,
                     h.u_min,
                     h.u_max,
                     h.u_inc,
                     h.u_dec,
                     h.u_cas,
                     (long long)h.ull_add,
                     (long long)h.ull_min,
                     (long long)h.ull_max,
                     (long long)h.ull_and,
                     (long long)h.ull_or,
                     (long long)h.ull_cas,
                     (long long)h.f_add,
                     (long long)(h.f_exch_sum + last_f),
                     (long long)(h.d_add * 2)};
    memcpy(out, v, sizeof v);
    cudaFree(d);
    cudaFree(slots);
    return 0;
}

/* 256-bin histogram with shared atomics. */
__global__ void histogram(const unsigned char *in, int n, unsigned *bins)
{
    __shared__ unsigned s[256];
    for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n;
         i += gridDim.x * blockDim.x)
        atomicAdd(&s[in[i]], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&bins[b], s[b]);
}

extern "C" int tk_histogram(const unsigned char *in, int n, unsigned *bins)
{
    unsigned char *d_in = NULL;
    unsigned *d_bins = NULL;
    TRY(cudaMalloc(&d_in, n));
    TRY(cudaMalloc(&d_bins, 256 * sizeof(unsigned)));
    TRY(cudaMemcpy(d_in, in, n, cudaMemcpyHostToDevice));
    TRY(cudaMemset(d_bins, 0, 256 * sizeof(unsigned)));
    histogram<<<13, 96>>>(d_in, n, d_bins);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(bins, d_bins, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    cudaFree(d_in);
    cudaFree(d_bins);
    return 0;
}

/* ------------------------------------------------------------------ constant memory, runtime API */
__constant__ int coeffs[16];
__device__ int device_total;

__global__ void use_constants(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = data[i] * coeffs[i % 16] + __popc(i) + __clz(i + 1) + min(i, 7) + max(i, 3);
        atomicAdd(&device_total, 1);
    }
}

extern "C" int tk_constants(int *data, int n, const int *c16, int *total)
{
    int zero = 0;
    TRY(cudaMemcpyToSymbol(coeffs, c16, 16 * sizeof(int)));
    TRY(cudaMemcpyToSymbol(device_total, &zero, sizeof zero));
    int e = on_device(data, n, [&](int *d) { use_constants<<<(n + 63) / 64, 64>>>(d, n); });
    if (e)
        return e;
    int back[16];
    TRY(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
    TRY(cudaMemcpyFromSymbol(total, device_total, sizeof *total));
    return memcmp(back, c16, sizeof back) ? -1 : 0;
}

__global__ void add_one(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

/* A stream runs its work in order: memset, kernel, kernel, copy back; timed by events. */
extern "C" int tk_stream(int *host, int n, float *ms)
{
    cudaStream_t s;
    cudaEvent_t a, b;
    int *d = NULL;
    TRY(cudaStreamCreate(&s));
    TRY(cudaEventCreate(&a));
    TRY(cudaEventCreate(&b));
    TRY(cudaMalloc(&d, n * sizeof(int)));
    TRY(cudaEventRecord(a, s));
    TRY(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    add_one<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    add_one<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    TRY(cudaMemcpyAsync(host, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    TRY(cudaEventRecord(b, s));
    TRY(cudaStreamSynchronize(s));
    TRY(cudaEventSynchronize(b));
    TRY(cudaEventElapsedTime(ms, a, b));
    cudaFree(d);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s);
    return 0;
}

/* What a GPU rejects at launch: returns cudaGetLastError's code, then whether it was cleared. */
extern "C" int tk_bad_launch(int which, int *cleared)
{
    int *d = NULL;
    TRY(cudaMalloc(&d, 64 * sizeof(int)));
    if (which == 0)
        add_one<<<1, 1025>>>(d, 64);
    if (which == 1)
        add_one<<<1, dim3(1, 1, 65)>>>(d, 64);
    if (which == 2)
        add_one<<<dim3(1, 65536), 32>>>(d, 64);
    if (which == 3)
        add_one<<<0, 32>>>(d, 64);
    if (which == 4)
        read_dynamic<<<1, 32, 200 * 1024>>>(d);
    int e = (int)cudaGetLastError();
    *cleared = cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
    cudaFree(d);
    return e;
}

/* Device facts, as integers: see the test for the order. */
extern "C" int tk_sms(void)
{
    int sms = 0;
    return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) ? -1 : sms;
}

extern "C" int tk_device(long long *out)
{
    cudaDeviceProp p;
    int count, v[9];
    TRY(cudaGetDeviceCount(&count));
    TRY(cudaGetDeviceProperties(&p, 0));
    cudaDeviceAttr attrs[9] = {cudaDevAttrMultiProcessorCount,
                               cudaDevAttrL2CacheSize,
                               cudaDevAttrMaxGridDimX,
                               cudaDevAttrMaxGridDimY,
                               cudaDevAttrMaxGridDimZ,
                               cudaDevAttrMaxThreadsPerBlock,
                               cudaDevAttrMaxSharedMemoryPerBlock,
                               cudaDevAttrMemoryClockRate,
                               cudaDevAttrGlobalMemoryBusWidth};
    for (int i = 0; i < 9; i++)
        TRY(cudaDeviceGetAttribute(&v[i], attrs[i], 0));
    int occupancy;
    TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, add_one, 256, 0));
    TRY(cudaFuncSetAttribute(read_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    long long r[] = {count,
                     p.warpSize,
                     p.maxThreadsPerBlock,
                     p.maxThreadsDim[0],
                     p.maxThreadsDim[2],
                     p.maxGridSize[0],
                     p.maxGridSize[1],
                     p.maxGridSize[2],
                     (long long)p.sharedMemPerBlock,
                     p.multiProcessorCount == v[0],
                     p.l2CacheSize == v[1],
                     p.maxGridSize[0] == v[2],
                     p.maxGridSize[1] == v[3],
                     p.maxGridSize[2] == v[4],
                     p.maxThreadsPerBlock == v[5],
                     (long long)p.sharedMemPerBlock == v[6],
                     v[7] > 0,
                     v[8] > 0,
                     occupancy > 0,
                     p.totalGlobalMem > 0,
                     p.major};
    memcpy(out, r, sizeof r);
    return 0;
}

/* ------------------------------------------------------------------ cooperative groups */
extern "C" int tk_cg(int *out, int blocks)
{
    return on_device(out, (size_t)blocks * 128 * CG_OUT, [&](int *d) { run_cg(d, blocks); });
}

/* ------------------------------------------------------------------ more of the runtime API */
/* Pitched rows, with a few intrinsics whose results are exact on a GPU too. */
__global__ void pitched(int *p, size_t pitch, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w)
        ((int *)((char *)p + y * pitch))[x] += (int)umin(x, 5u) + (int)umax(y, 2u) * 100 +
                                               (int)__expf(0.0f) * 10000 + (int)__logf(1.0f);
}

/* host[h][w] through cudaMallocPitch, cudaMemset2D and cudaMemcpy2D both ways. */
extern "C" int tk_pitched(int *host, int w, int h, size_t *pitch)
{
    int *d = NULL;
    TRY(cudaMallocPitch(&d, pitch, w * sizeof(int), h));
    TRY(cudaMemset2D(d, *pitch, 0xff, w * sizeof(int), h));
    TRY(cudaMemcpy2D(d, *pitch, host, w * sizeof(int), (w - 1) * sizeof(int), h,
                     cudaMemcpyHostToDevice));
    pitched<<<dim3((w + 31) / 32, h), 32>>>(d, *pitch, w);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy2D(host, w * sizeof(int), d, *pitch, w * sizeof(int), h, cudaMemcpyDeviceToHost));
    return (int)cudaFree(d);
}

struct seen {
    int *managed;
    int callback, status, host_fn;
};
static void CUDART_CB on_callback(cudaStream_t, cudaError_t status, void *data)
{
    seen *s = (seen *)data;
    s->callback = s->managed[10], s->status = (int)status;
}
static void CUDART_CB on_host_fn(void *data)
{
    seen *s = (seen *)data;
    s->host_fn = s->managed[20];
}

/* Managed memory written by the host, a kernel, then a stream callback and a host function that
 * read it after the kernel; mapped host memory; the occupancy API. out: 8 ints. */
extern "C" int tk_host_side(int *out)
{
    enum { N = 1024 };
    seen s = {NULL, -1, -1, -1};
    cudaStream_t stream;
    TRY(cudaStreamCreate(&stream));
    TRY(cudaMallocManaged(&s.managed, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        s.managed[i] = i;
    add_one<<<N / 128, 128, 0, stream>>>(s.managed, N);
    TRY(cudaStreamAddCallback(stream, on_callback, &s, 0));
    TRY(cudaLaunchHostFunc(stream, on_host_fn, &s));
    TRY(cudaStreamSynchronize(stream));
    int *host = NULL, *mapped = NULL;
    if (posix_memalign((void **)&host, 4096, N * sizeof(int)))
        return -1;
    for (int i = 0; i < N; i++)
        host[i] = 2 * i;
    TRY(cudaHostRegister(host, N * sizeof(int), cudaHostRegisterMapped));
    TRY(cudaHostGetDevicePointer(&mapped, host, 0));
    add_one<<<N / 128, 128>>>(mapped, N);
    TRY(cudaDeviceSynchronize());
    int min_grid = 0, block = 0;
    TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_one, 0, 0));
    int r[8] = {s.callback, s.status,    s.host_fn, s.managed[N - 1],
                host[0],    host[N - 1], block,     min_grid};
    memcpy(out, r, sizeof r);
    TRY(cudaHostUnregister(host));
    free(host);
    TRY(cudaFree(s.managed));
    return (int)cudaStreamDestroy(stream);
}

/* ------------------------------------------------------------------ textures */
/* One fetch a thread, as `mode` says: 0 tex1Dfetch<float>, 1 tex1D<float>, 2 tex2D<float>,
 * 3 tex2D<float4>, 4 tex2D<int> (its bits), 5 tex2D<uchar4>. */
__global__ void fetch(cudaTextureObject_t t, int mode, const float *x, const float *y, float4 *out,
                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 r = make_float4(0, 0, 0, 0);
    if (mode == 0)
        r.x = tex1Dfetch<float>(t, (int)x[i]);
    if (mode == 1)
        r.x = tex1D<float>(t, x[i]);
    if (mode == 2)
        r.x = tex2D<float>(t, x[i], y[i]);
    if (mode == 3)
        r = tex2D<float4>(t, x[i], y[i]);
    if (mode == 4)
        r.x = __int_as_float(tex2D<int>(t, x[i], y[i]));
    if (mode == 5) {
        uchar4 v = tex2D<uchar4>(t, x[i], y[i]);
        r = make_float4(v.x, v.y, v.z, v.w);
    }
    out[i] = r;
}

/* A texture over w x h texels (h = 1 for 1D), fetched at n points into out (4 floats each).
 * cfg: resource (0 2D array, 1 1D array, 2 pitched memory, 3 linear memory), bits and channels
 * of a texel, cudaChannelFormatKind, address mode, filter mode, normalised coordinates, read
 * mode, fetch mode. Arrays are also read back: -2 if they do not hold the texels. */
extern "C" int tk_texture(const int cfg[9], float border, const void *texels, int w, int h,
                          const float *x, const float *y, int n, float *out)
{
    int bits = cfg[1], ch = cfg[2];
    size_t row = (size_t)w * bits / 8 * ch, pitch = row;
    cudaChannelFormatDesc f =
        cudaCreateChannelDesc(bits, ch > 1 ? bits : 0, ch > 2 ? bits : 0, ch > 3 ? bits : 0,
                              (cudaChannelFormatKind)cfg[3]);
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    cudaArray_t array = NULL;
    void *mem = NULL;
    if (cfg[0] <= 1) {
        TRY(cudaMallocArray(&array, &f, w, cfg[0] == 0 ? h : 0));
        TRY(cudaMemcpy2DToArray(array, 0, 0, texels, row, row, h, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
    } else if (cfg[0] == 2) {
        TRY(cudaMallocPitch(&mem, &pitch, row, h));
        TRY(cudaMemcpy2D(mem, pitch, texels, row, row, h, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = mem;
        res.res.pitch2D.desc = f;
        res.res.pitch2D.width = w, res.res.pitch2D.height = h;
        res.res.pitch2D.pitchInBytes = pitch;
    } else {
        TRY(cudaMalloc(&mem, row));
        TRY(cudaMemcpy(mem, texels, row, cudaMemcpyHostToDevice));
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = mem;
        res.res.linear.desc = f;
        res.res.linear.sizeInBytes = row;
    }
    cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.addressMode[0] = desc.addressMode[1] = (cudaTextureAddressMode)cfg[4];
    desc.filterMode = (cudaTextureFilterMode)cfg[5];
    desc.normalizedCoords = cfg[6];
    desc.readMode = (cudaTextureReadMode)cfg[7];
    for (int c = 0; c < 4; c++)
        desc.borderColor[c] = border;
    cudaTextureObject_t t = 0;
    TRY(cudaCreateTextureObject(&t, &res, &desc, NULL));
    float *d_x = NULL, *d_y = NULL;
    float4 *d_out = NULL;
    TRY(cudaMalloc(&d_x, n * sizeof(float)));
    TRY(cudaMalloc(&d_y, n * sizeof(float)));
    TRY(cudaMalloc(&d_out, n * sizeof(float4)));
    TRY(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d_y, y, n * sizeof(float), cudaMemcpyHostToDevice));
    fetch<<<(n + 127) / 128, 128>>>(t, cfg[8], d_x, d_y, d_out, n);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(out, d_out, n * sizeof(float4), cudaMemcpyDeviceToHost));
    int e = 0;
    if (array) {
        cudaChannelFormatDesc g;
        char *back = (char *)malloc(row * h);
        TRY(cudaGetChannelDesc(&g, array));
        TRY(cudaMemcpy2DFromArray(back, row, array, 0, 0, row, h, cudaMemcpyDeviceToHost));
        if (memcmp(&g, &f, sizeof f) || memcmp(back, texels, row * h))
            e = -2;
        free(back);
    }
    TRY(cudaDestroyTextureObject(t));
    if (array)
        TRY(cudaFreeArray(array));
    if (mem)
        TRY(cudaFree(mem));
    TRY(cudaFree(d_x));
    TRY(cudaFree(d_y));
    TRY(cudaFree(d_out));
    return e;
}

/* What cudaCreateChannelDesc<T>() gives: x, y, z, w and kind of uchar4, short2, float, int1. */
extern "C" void tk_channel_descs(int out[20])
{
    cudaChannelFormatDesc d[4] = {cudaCreateChannelDesc<uchar4>(), cudaCreateChannelDesc<short2>(),
                                  cudaCreateChannelDesc<float>(), cudaCreateChannelDesc<int1>()};
    for (int k = 0; k < 4; k++) {
        int v[5] = {d[k].x, d[k].y, d[k].z, d[k].w, (int)d[k].f};
        memcpy(out + 5 * k, v, sizeof v);
    }
}

/* What cudaCreateTextureObject refuses: linear filtering of integers read as such, and 32-bit
 * integers read as normalised floats. */
extern "C" int tk_texture_refused(int which)
{
    cudaArray_t a = NULL;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
    TRY(cudaMallocArray(&a, &f, 4));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.filterMode = which == 0 ? cudaFilterModeLinear : cudaFilterModePoint;
    desc.readMode = which == 0 ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    cudaTextureObject_t t = 0;
    int e = (int)cudaCreateTextureObject(&t, &res, &desc, NULL);
    cudaGetLastError();
    cudaFreeArray(a);
    return e;
}

/* ------------------------------------------------------------------ deliberately wrong kernels */
/* No barrier between the writes and the reads of a neighbour's slot. */
__global__ void missing_barrier(int *data, int n)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = data[t];
    data[t] = t > 0 ? s[t - 1] : s[n - 1] * 0;
}

extern "C" int tk_missing_barrier(int *data, int n)
{
    return on_device(data, n, [&](int *d) { missing_barrier<<<1, n>>>(d, n); });
}

enum { DIVERGENT_LINE = __LINE__ + 4 };
__global__ void divergent_barrier(int *data)
{
    if (threadIdx.x < 16)
        __syncthreads(); /* DIVERGENT_LINE */
    else
        __syncthreads(); /* DIVERGENT_LINE + 2 */
    data[threadIdx.x] = 1;
}

enum { DEADLOCK_LINE = __LINE__ + 4 };
__global__ void deadlock(int *data)
{
    if (threadIdx.x < 16)
        data[threadIdx.x] = __shfl_sync(FULL, 1, 0); /* waits for lanes 16-31 */
    __syncthreads();                                 /* DEADLOCK_LINE + 1: where they wait */
}

enum { OOB_LINE = __LINE__ + 3 };
__global__ void out_of_bounds(int *data, int n)
{
    data[blockIdx.x * blockDim.x + threadIdx.x + n] = 1;
}

extern "C" int tk_oob_line(void)
{
    return OOB_LINE;
}

__global__ void read_after_free(const int *data, int *out)
{
    out[threadIdx.x] = data[threadIdx.x];
}

enum { PARTIAL_LINE = __LINE__ + 12 };
/* Seed 002's "optimised" dot product: the barrier moved into the if. The threads that skip
 * it loop on and return while the others wait: undefined in CUDA (older GPUs hang). */
__global__ void barrier_in_branch(int *data)
{
    __shared__ int cache[64];
    int t = threadIdx.x;
    cache[t] = data[t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2)
        if (t < s) {
            cache[t] += cache[t + s];
            __syncthreads(); /* PARTIAL_LINE */
        }
    if (t == 0)
        data[0] = cache[0];
}

enum { MASK_LINE = __LINE__ + 4 };
/* A full mask in a block of 16 threads: lanes 16-31 do not exist. */
__global__ void mask_past_block(int *data)
{
    data[threadIdx.x] = __shfl_sync(FULL, (int)threadIdx.x, 0); /* MASK_LINE */
}

enum { MISALIGNED_LINE = __LINE__ + 4 };
/* A float4 load 4 bytes past a 16-byte boundary: "misaligned address" on a GPU. */
__global__ void misaligned_float4(const float *in, float *out, int offset)
{
    float4 v = *(const float4 *)(in + offset); /* MISALIGNED_LINE */
    out[0] = v.x + v.y + v.z + v.w;
}

extern "C" int tk_misaligned(int offset, float *sum)
{
    float *in = NULL, *out = NULL, host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    TRY(cudaMalloc(&in, sizeof host));
    TRY(cudaMalloc(&out, sizeof(float)));
    TRY(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
    misaligned_float4<<<1, 1>>>(in, out, offset);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(sum, out, sizeof *sum, cudaMemcpyDeviceToHost));
    cudaFree(in);
    cudaFree(out);
    return MISALIGNED_LINE;
}

/* Each block moves its slice one place left, in place: its last thread reads the first
 * element of the next block's slice, which that block overwrites. Right only when the
 * blocks run in index order, which CUDA does not promise. */
__global__ void shift_in_place(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i + 1 < n ? data[i + 1] : 0;
    __syncthreads();
    if (i < n)
        data[i] = v;
}

/* Its correct twin: out of place. */
__global__ void shift(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i + 1 < n ? in[i + 1] : 0;
}

extern "C" int tk_shift(int in_place, int *data, int n)
{
    int *d = NULL, *out = NULL;
    TRY(cudaMalloc(&d, n * sizeof(int)));
    TRY(cudaMalloc(&out, n * sizeof(int)));
    TRY(cudaMemcpy(d, data, n * sizeof(int), cudaMemcpyHostToDevice));
    if (in_place)
        shift_in_place<<<(n + 31) / 32, 32>>>(d, n);
    else
        shift<<<(n + 31) / 32, 32>>>(d, out, n);
    TRY(cudaGetLastError());
    TRY(cudaMemcpy(data, in_place ? d : out, n * sizeof(int), cudaMemcpyDeviceToHost));
    cudaFree(d);
    cudaFree(out);
    return 0;
}

/* A total every thread adds to: `+=` is a read, an add and a write, and another thread's
 * write in between is lost. On the CPU the threads take turns only at barriers, so the total
 * comes out right: only the race checker sees the race. Its twin adds atomically. */
__global__ void total_plain(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        *total += in[i];
}

__global__ void total_atomic(const int *in, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, in[i]);
}

extern "C" int tk_total(int atomic, const int *in, int n, int *total)
{
    int *d_in = NULL, *d_total = NULL;
    TRY(cudaMalloc(&d_in, n * sizeof(int)));
    TRY(cudaMalloc(&d_total, sizeof(int)));
    TRY(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    TRY(cudaMemset(d_total, 0, sizeof(int)));
    if (atomic)
        total_atomic<<<(n + 63) / 64, 64>>>(d_in, d_total, n);
    else
        total_plain<<<(n + 63) / 64, 64>>>(d_in, d_total, n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_total);
    return (int)e;
}

/* The last block to finish sums the blocks' partial results (the threadfence reduction).
 * fence & 1: the writer's fence, which makes a block's partial visible before its ticket is
 * taken; fence & 2: the reader's, after the ticket, before the last block reads the
 * partials. Without either, the last block may read a partial still on its way. */
__device__ unsigned blocks_done;
__global__ void last_block_sum(const int *in, int *partial, int *out, int fence)
{
    __shared__ int last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        if (fence & 1)
            __threadfence();
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int s = 0;
        if (fence & 2)
            __threadfence();
        for (unsigned b = 0; b < gridDim.x; b++)
            s += ((volatile int *)partial)[b];
        *out = s;
    }
}

extern "C" int tk_last_block(int fence, const int *in, int blocks, int *sum)
{
    int *d_in = NULL, *partial = NULL, *out = NULL;
    TRY(cudaMalloc(&d_in, blocks * sizeof(int)));
    TRY(cudaMalloc(&partial, blocks * sizeof(int)));
    TRY(cudaMalloc(&out, sizeof(int)));
    TRY(cudaMemcpy(d_in, in, blocks * sizeof(int), cudaMemcpyHostToDevice));
    last_block_sum<<<blocks, 32>>>(d_in, partial, out, fence);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(sum, out, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(partial);
    cudaFree(out);
    return (int)e;
}

/* ------------------------------------------------------------------ races inside a block
 * Each comes after a barrier or a warp's sync, between threads that are not ordered by the
 * next one. On the CPU the threads take turns only at barriers and collectives, so the
 * answers come out right (or wrong) by the schedule; on a GPU they are races. */

/* A block's total and bins in static shared memory: zeroed, a barrier, counted, a barrier,
 * read out. Mode 0 counts with atomics; 1 adds to the total with `+=` (lab06's block_sum), 2
 * to a bin with `++` (lab05's hist[x]++): a read, an add and a write, and another thread's
 * write in between is lost. */
enum { LOST_LINE = __LINE__ + 12 };
__global__ void shared_counts(const int *in, int *out, int mode)
{
    __shared__ int total;
    __shared__ int bins[8];
    int t = threadIdx.x, x = in[t], *o = out + blockIdx.x * 16;
    if (t < 8)
        bins[t] = 0;
    if (t == 0)
        total = 0;
    __syncthreads();
    if (mode == 1)
        total += x; /* LOST_LINE */
    else if (mode == 2)
        bins[x % 8]++; /* LOST_LINE + 2 */
    else
        atomicAdd(&total, x), atomicAdd(&bins[x % 8], 1);
    __syncthreads();
    if (t < 8)
        o[t] = bins[t];
    if (t == 0)
        o[8] = total;
}

/* The bins counted with shared atomics and read out by a thread each: without the barrier
 * between (lab05's privatised histogram without its second __syncthreads), a thread reads
 * its bin while others still count into it. */
enum { MERGE_LINE = __LINE__ + 8 };
__global__ void shared_merge(const int *in, int *out, int barrier)
{
    __shared__ int bins[8];
    int t = threadIdx.x;
    if (t < 8)
        bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[in[t] % 8], 1); /* MERGE_LINE */
    if (barrier)
        __syncthreads();
    if (t < 8)
        out[blockIdx.x * 16 + t] = bins[t]; /* MERGE_LINE + 4 */
}

/* Two passes of a warp over shared memory: each lane writes its word, then reads its
 * neighbour's. omit 1: no __syncwarp between the writes and the reads of the second pass
 * (lab09's row pass without it); 2: none after the reads of the first pass, before the second
 * pass overwrites what they read (a fold without its trailing __syncwarp); 3: a vote instead
 * of the second pass's __syncwarp, which orders no memory (CUDA: the vote, shuffle and match
 * intrinsics "do not imply a memory barrier"). */
enum { PASS_LINE = __LINE__ + 6 };
__global__ void warp_passes(int *data, int omit)
{
    __shared__ int s[32];
    int lane = threadIdx.x, v = data[lane];
    for (int pass = 0; pass < 2; pass++) {
        s[lane] = v + pass; /* PASS_LINE */
        if (omit == 3 && pass == 1)
            v += (int)__ballot_sync(FULL, v < -1000); /* 0 */
        else if (omit != 1 || pass == 0)
            __syncwarp();
        v = s[(lane + 1) % 32]; /* PASS_LINE + 5 */
        if (omit != 2 || pass == 1)
            __syncwarp();
    }
    data[lane] = v;
}

/* Runs race `kernel` (0 shared_counts, 1 shared_merge, 2 warp_passes) in `mode` (0: the right
 * twin) on in[64], into out[64]; lines[] gets the two lines a report must name. */
extern "C" int tk_block_race(int kernel, int mode, const int *in, int *out, int lines[2])
{
    static const int line[3][4][2] = {
        {{0, 0}, {LOST_LINE, LOST_LINE}, {LOST_LINE + 2, LOST_LINE + 2}},
        {{0, 0}, {MERGE_LINE, MERGE_LINE + 4}},
        {{0, 0},
         {PASS_LINE, PASS_LINE + 5},
         {PASS_LINE, PASS_LINE + 5},
         {PASS_LINE, PASS_LINE + 5}}};
    int *d_in = NULL, *d_out = NULL;
    TRY(cudaMalloc(&d_in, 64 * sizeof(int)));
    TRY(cudaMalloc(&d_out, 64 * sizeof(int)));
    TRY(cudaMemcpy(d_in, in, 64 * sizeof(int), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d_out, in, 64 * sizeof(int), cudaMemcpyHostToDevice));
    if (kernel == 0)
        shared_counts<<<2, 64>>>(d_in, d_out, mode);
    else if (kernel == 1)
        shared_merge<<<2, 64>>>(d_in, d_out, !mode);
    else
        warp_passes<<<1, 32>>>(d_out, mode);
    lines[0] = line[kernel][mode][0], lines[1] = line[kernel][mode][1];
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(out, d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    return (int)e;
}

/* Copies whose kind contradicts their pointers, which CUDA leaves undefined (GPUs with unified
 * addressing usually let them pass): `which` 0-5, on lines KIND_LINE + 2 * which. 6 runs right
 * twins of them all: the right kinds, cudaMemcpyDefault, managed and pinned memory. */
__constant__ int kind_symbol[4];
enum { KIND_LINE = __LINE__ + 16 };
extern "C" int tk_copy_kind(int which, int *line)
{
    int host[4] = {1, 2, 3, 4}, back[4] = {0}, *d = NULL, *d2 = NULL, *managed = NULL;
    int *pinned = NULL;
    cudaArray_t array = NULL;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    TRY(cudaMalloc(&d, sizeof host));
    TRY(cudaMalloc(&d2, sizeof host));
    TRY(cudaMallocManaged(&managed, sizeof host));
    TRY(cudaMallocHost(&pinned, sizeof host));
    TRY(cudaMallocArray(&array, &desc, 4, 1));
    TRY(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
    cudaError_t e = cudaSuccess;
    *line = KIND_LINE + 2 * which;
    if (which == 0)
        e = cudaMemcpy(back, d, sizeof host, cudaMemcpyHostToDevice);
    else if (which == 1)
        e = cudaMemcpyToSymbol(kind_symbol, d, sizeof host, 0, cudaMemcpyHostToDevice);
    else if (which == 2)
        e = cudaMemcpyAsync(d2, host, sizeof host, cudaMemcpyDeviceToDevice, 0);
    else if (which == 3)
        e = cudaMemcpy2D(back, 16, d, 16, 16, 1, cudaMemcpyHostToHost);
    else if (which == 4)
        e = cudaMemcpyFromSymbol(d2, kind_symbol, sizeof host, 0, cudaMemcpyDeviceToHost);
    else if (which == 5)
        e = cudaMemcpy2DToArray(array, 0, 0, d, 16, 16, 1, cudaMemcpyHostToDevice);
    else {
        e = cudaMemcpy(back, d, sizeof host, cudaMemcpyDefault);
        TRY(cudaMemcpyToSymbol(kind_symbol, d, sizeof host, 0, cudaMemcpyDeviceToDevice));
        TRY(cudaMemcpyAsync(d2, host, sizeof host, cudaMemcpyHostToDevice, 0));
        TRY(cudaMemcpy2D(back, 16, d, 16, 16, 1, cudaMemcpyDeviceToHost));
        TRY(cudaMemcpyFromSymbol(d2, kind_symbol, sizeof host, 0, cudaMemcpyDeviceToDevice));
        TRY(cudaMemcpy2DToArray(array, 0, 0, d, 16, 16, 1, cudaMemcpyDeviceToDevice));
        TRY(cudaMemcpy(managed, d2, sizeof host, cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(pinned, managed, sizeof host, cudaMemcpyDeviceToDevice));
        TRY(cudaMemcpy(d2, pinned, sizeof host, cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(back, d2, sizeof host, cudaMemcpyDeviceToHost));
        if (!e && memcmp(back, host, sizeof host))
            e = cudaErrorUnknown;
    }
    cudaFreeArray(array);
    cudaFreeHost(pinned);
    cudaFree(managed);
    cudaFree(d2);
    cudaFree(d);
    cudaGetLastError(); /* the refused copy's error, which it also left there */
    return (int)e;
}

enum { ASSERT_LINE = __LINE__ + 3 };
__global__ void asserting(unsigned n)
{
    assert(blockIdx.x * blockDim.x + threadIdx.x < n);
}

/* Runs wrong kernel `which` and returns its error; lines[] gets the source lines to name. */
extern "C" int tk_wrong(int which, int lines[2])
{
    int *d = NULL, *out = NULL;
    TRY(cudaMalloc(&d, 64 * sizeof(int)));
    TRY(cudaMalloc(&out, 64 * sizeof(int)));
    lines[0] = lines[1] = 0;
    if (which == 0) {
        divergent_barrier<<<2, 32>>>(d);
        lines[0] = DIVERGENT_LINE, lines[1] = DIVERGENT_LINE + 2;
    }
    if (which == 1) {
        deadlock<<<1, 32>>>(d);
        lines[0] = DEADLOCK_LINE, lines[1] = DEADLOCK_LINE + 1;
    }
    if (which == 2) {
        lines[0] = OOB_LINE;
        out_of_bounds<<<1, 1>>>(d, 64);
    }
    if (which == 3) {
        cudaFree(d);
        read_after_free<<<1, 32>>>(d, out);
        d = NULL;
    }
    if (which == 4) {
        int ones[64];
        for (int i = 0; i < 64; i++)
            ones[i] = 1;
        TRY(cudaMemcpy(d, ones, sizeof ones, cudaMemcpyHostToDevice));
        barrier_in_branch<<<1, 64>>>(d);
        lines[0] = lines[1] = PARTIAL_LINE;
    }
    if (which == 5) {
        mask_past_block<<<1, 16>>>(d);
        lines[0] = lines[1] = MASK_LINE;
    }
    if (which == 6) {
        asserting<<<2, 32>>>(40);
        lines[0] = lines[1] = ASSERT_LINE;
    }
    int e = (int)cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (!e)
        e = (int)sync;
    cudaFree(d);
    cudaFree(out);
    return e;
}

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
