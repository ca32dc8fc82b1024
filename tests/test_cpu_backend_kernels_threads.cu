/* Kernels of the portable tests of threads (tests/test_cpu_backend_threads.c): indices, warps,
 * atomics and cooperative groups (those in test_cpu_backend_kernels.cuh); not the reductions. */
#include "test_cpu_backend_kernels_util.cuh"
#include "test_cpu_backend_kernels.cuh"

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

/* ------------------------------------------------------------------ cooperative groups */
extern "C" int tk_cg(int *out, int blocks)
{
    return on_device(out, (size_t)blocks * 128 * CG_OUT, [&](int *d) { run_cg(d, blocks); });
}
