/* What the build is, the reductions and the deliberately wrong kernels: here, as the tests look for
 * this file's name in what the backend reports of them (and of the unrolled reduction's race). */
#include "test_cpu_backend_kernels_util.cuh"

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
