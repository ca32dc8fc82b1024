/* lab04: the dot product. Yours: the kernels; launch.cu checks the arguments, chooses the
 * grids and launches them. Every block has DOT_THREADS threads, a power of two. */
#include "dot.h"
#include "warp.h"

/* The sum of cache[0..blockDim.x), left in cache[0] and returned to every thread: halve the
 * active range at each step. Every thread of the block must call it, since it waits at
 * barriers: the first so that every slot is written before any is read, then one per step
 * so that a step reads only what the last one finished writing. */
__device__ float block_sum(float *cache)
{
    /* SOLUTION BEGIN: __syncthreads(); then for s from blockDim.x / 2 down to 1 (halving),
     * threads below s add cache[tid + s] into cache[tid], and every thread (not only those
     * below s) waits at __syncthreads() after each step. Return cache[0]. */
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    /* SOLUTION END */
    return cache[0];
}

/* This thread's product, or 0 past the end: the tree adds every slot of the block, so a
 * partial block's unused slots must hold 0, not whatever the memory held. */
__device__ float product_or_zero(const float *a, const float *b, unsigned n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float p = 0.0f;
    /* SOLUTION BEGIN: p = a[i] * b[i] when i < n. */
    if (i < n)
        p = a[i] * b[i];
    /* SOLUTION END */
    return p;
}

/* 1. One product per thread, a tree per block in shared memory; the blocks' sums go to
 * partials, and the host adds them. Teaches shared memory and the barrier; costs a copy to
 * the host and a serial loop there, and the result must travel back to the device. */
__global__ void dot_block_sums(const float *a, const float *b, float *partials, unsigned n)
{
    __shared__ float cache[DOT_THREADS];
    /* SOLUTION BEGIN: cache[threadIdx.x] = product_or_zero(...); sum = block_sum(cache);
     * thread 0 writes it to partials[blockIdx.x]. */
    cache[threadIdx.x] = product_or_zero(a, b, n);
    float sum = block_sum(cache);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = sum;
    /* SOLUTION END */
}

/* The sum of partials[0..count) by one block: each thread adds a strided share, then the
 * tree. The same code finishes variants 2 and 4. */
__device__ float block_sum_of(const volatile float *partials, unsigned count, float *cache)
{
    float sum = 0.0f;
    /* SOLUTION BEGIN: for i from threadIdx.x below count, step blockDim.x, add
     * partials[i]. */
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
        sum += partials[i];
    /* SOLUTION END */
    cache[threadIdx.x] = sum;
    return block_sum(cache);
}

/* 2. The second launch of two: one block adds the count sums that dot_block_sums left.
 * Teaches that the end of a kernel is the only barrier between all blocks; costs a second
 * launch, and one block alone at work while it runs. */
__global__ void dot_sum_partials(const float *partials, float *out, unsigned count)
{
    __shared__ float cache[DOT_THREADS];
    /* SOLUTION BEGIN: sum = block_sum_of(partials, count, cache); thread 0 writes *out. */
    float sum = block_sum_of(partials, count, cache);
    if (threadIdx.x == 0)
        *out = sum;
    /* SOLUTION END */
}

/* 3. Each block's sum added to *out (zeroed by the launcher) with atomicAdd: one launch,
 * but float addition is not associative, and the blocks finish in an order that changes
 * from run to run, so the last bits of the result do too. */
__global__ void dot_atomic_add(const float *a, const float *b, float *out, unsigned n)
{
    __shared__ float cache[DOT_THREADS];
    /* SOLUTION BEGIN: as dot_block_sums, but thread 0 atomicAdds the sum into *out. */
    cache[threadIdx.x] = product_or_zero(a, b, n);
    float sum = block_sum(cache);
    if (threadIdx.x == 0)
        atomicAdd(out, sum);
    /* SOLUTION END */
}

/* Thread 0 publishes the block's sum and counts the block done; returns, to every thread,
 * whether this block was the last. The fence makes the sum visible to every block before
 * the count says it is there; the last block fences too before it reads the sums. */
template <typename T>
__device__ int publish_and_count(volatile T *partial, T sum, unsigned *done)
{
    __shared__ int last;
    /* SOLUTION BEGIN: thread 0: *partial = sum; __threadfence(); last = (atomicAdd(done, 1)
     * == gridDim.x - 1); then if last, __threadfence(). Then a barrier. */
    if (threadIdx.x == 0) {
        *partial = sum;
        __threadfence();
        last = atomicAdd(done, 1u) == gridDim.x - 1;
        if (last)
            __threadfence();
    }
    __syncthreads();
    /* SOLUTION END */
    return last;
}

/* 4. Last block done: every block writes its sum and counts itself done; the block that
 * counts last adds the sums in index order. One launch, and the same bits on every run. */
__global__ void dot_last_block(const float *a, const float *b, float *partials, unsigned *done,
                               float *out, unsigned n)
{
    __shared__ float cache[DOT_THREADS];
    /* SOLUTION BEGIN: the block's sum as in dot_block_sums; if publish_and_count(
     * &partials[blockIdx.x], sum, done), sum = block_sum_of(partials, gridDim.x, cache) and
     * thread 0 writes *out. (block_sum_of's first barrier keeps the tree's last reads of
     * cache before its new writes.) */
    cache[threadIdx.x] = product_or_zero(a, b, n);
    float sum = block_sum(cache);
    if (publish_and_count<float>(&partials[blockIdx.x], sum, done)) {
        sum = block_sum_of(partials, gridDim.x, cache);
        if (threadIdx.x == 0)
            *out = sum;
    }
    /* SOLUTION END */
}

/* The sum of x over the warp, in lane 0: five shuffles, no shared memory, no barrier. */
template <typename T>
__device__ T warp_sum(T x)
{
    /* SOLUTION BEGIN: for offset 16, 8, 4, 2, 1: x += __shfl_down_sync(0xffffffff, x,
     * offset). */
    for (int offset = WARP / 2; offset > 0; offset /= 2)
        x += __shfl_down_sync(0xffffffffu, x, offset);
    /* SOLUTION END */
    return x;
}

/* The sum of x over the block, in thread 0: each warp's sum through warp_sums, then warp 0
 * adds those. One barrier instead of the tree's eight. */
template <typename T>
__device__ T block_sum_shuffle(T x, T *warp_sums)
{
    unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    /* SOLUTION BEGIN: x = warp_sum(x); lane 0 stores it in warp_sums[warp]; __syncthreads();
     * warp 0 loads warp_sums[lane] (0 beyond blockDim.x / 32 warps) and returns its
     * warp_sum. */
    x = warp_sum(x);
    if (lane == 0)
        warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0)
        x = warp_sum(lane < blockDim.x / WARP ? warp_sums[lane] : (T)0);
    /* SOLUTION END */
    return x;
}

/* The products of one float4 pair added into sum, one at a time. */
template <typename T>
__device__ T add_products(T sum, float4 x, float4 y)
{
    sum += (T)x.x * y.x;
    sum += (T)x.y * y.y;
    sum += (T)x.z * y.z;
    sum += (T)x.w * y.w;
    return sum;
}

/* This thread's share of a . b, accumulated in T: the grid-stride loop over whole float4s,
 * four of each vector per trip so that eight 16-byte loads are in flight before the first
 * multiply needs one; the float4s left over, one per trip; then the last n % 4 floats, one
 * per thread of block 0. Products of floats are exact in double, so with T = double only
 * the additions round. */
template <typename T>
__device__ T thread_dot_vec4(const float4 *__restrict__ a, const float4 *__restrict__ b, unsigned n)
{
    size_t n4 = n / 4, stride = (size_t)blockDim.x * gridDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T sum = 0;
    /* SOLUTION BEGIN: while i + 3 * stride < n4: load a[i + k * stride] and b[i + k * stride]
     * for k = 0..3 (all eight loads before any multiply), then add_products of each pair;
     * i += 4 * stride. Then while i < n4, add_products(sum, a[i], b[i]), i += stride. Then in
     * block 0, thread t below n % 4 adds the product of element 4 * n4 + t of the float
     * arrays. */
    for (; i + 3 * stride < n4; i += 4 * stride) {
        float4 x[4], y[4];
        for (int k = 0; k < 4; k++) {
            x[k] = a[i + k * stride];
            y[k] = b[i + k * stride];
        }
        for (int k = 0; k < 4; k++)
            sum = add_products(sum, x[k], y[k]);
    }
    for (; i < n4; i += stride)
        sum = add_products(sum, a[i], b[i]);
    if (blockIdx.x == 0 && threadIdx.x < n % 4) {
        size_t j = 4 * n4 + threadIdx.x;
        sum += (T)((const float *)a)[j] * ((const float *)b)[j];
    }
    /* SOLUTION END */
    return sum;
}

/* The sum of partials[0..gridDim.x) in thread 0, by the last block: a strided share per
 * thread, then block_sum_shuffle. Volatile: the sums come from other blocks, and must be
 * read from memory, not from anything cached before the count said they were there. */
template <typename T>
__device__ T grid_sum_shuffle(const volatile T *partials, T *warp_sums)
{
    T sum = 0;
    /* SOLUTION BEGIN: for k from threadIdx.x below gridDim.x, step blockDim.x, add
     * partials[k]. */
    for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x)
        sum += partials[k];
    /* SOLUTION END */
    return block_sum_shuffle(sum, warp_sums);
}

/* 5. The fast one: 16-byte loads, a grid that fills the GPU once and strides, warp
 * shuffles for the block's sum, and the last block done for the grid's: one launch, a few
 * hundred sums to finish (a block per SM slot) instead of n / 256, the same bits on every
 * run. */
__global__ void dot_shuffle_vec4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                 float *partials, unsigned *done, float *out, unsigned n)
{
    __shared__ float warp_sums[WARP];
    /* SOLUTION BEGIN: sum = block_sum_shuffle(thread_dot_vec4<float>(a, b, n), warp_sums);
     * if publish_and_count(&partials[blockIdx.x], sum, done), thread 0 writes
     * grid_sum_shuffle(partials, warp_sums) to *out. */
    float sum = block_sum_shuffle(thread_dot_vec4<float>(a, b, n), warp_sums);
    if (publish_and_count<float>(&partials[blockIdx.x], sum, done)) {
        sum = grid_sum_shuffle<float>(partials, warp_sums);
        if (threadIdx.x == 0)
            *out = sum;
    }
    /* SOLUTION END */
}

/* 6. Variant 5 adding in double: each product exact, each addition rounded to 53 bits
 * instead of 24, and the result rounded to float once. The cost: twice the registers and
 * shuffles for the sums, double-precision adds (on the H100 half the rate of float's, on
 * a gaming GPU 1/64), and no extra byte of memory traffic. */
__global__ void dot_double_acc(const float4 *__restrict__ a, const float4 *__restrict__ b,
                               double *partials, unsigned *done, float *out, unsigned n)
{
    __shared__ double warp_sums[WARP];
    /* SOLUTION BEGIN: dot_shuffle_vec4 with double for float: thread_dot_vec4<double>,
     * publish_and_count<double>, grid_sum_shuffle<double>, and *out = (float)sum. */
    double sum = block_sum_shuffle(thread_dot_vec4<double>(a, b, n), warp_sums);
    if (publish_and_count<double>(&partials[blockIdx.x], sum, done)) {
        sum = grid_sum_shuffle<double>(partials, warp_sums);
        if (threadIdx.x == 0)
            *out = (float)sum;
    }
    /* SOLUTION END */
}

/* GIVEN BEGIN: the student's copy says that the kernel is wrong */
/* 7. Find the bug, fixed (the student's copy has the three bugs of the GIVEN blocks below). */
//| /* 7. Find the bug (README, step 7): given complete, and wrong in three places. */
/* GIVEN END */
/* Variant 4's plan in one kernel of its own (it calls none of the functions above), with two
 * pairs per thread: thread t of block k multiplies the pairs at 2 k blockDim.x + t and
 * blockDim.x further on, and adds the two before the tree, so that the launcher starts half
 * as many blocks. A tree in shared memory, where each step halves the slots in use: slot t
 * takes the sum of slots 2t and 2t + 1. Thread 0 publishes the block's sum and counts the
 * block done; the last block adds the sums in index order, a strided share per thread, then
 * the same tree. */
__device__ float pairwise_sum(float *slots)
{
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        /* GIVEN BEGIN: the race: in one step, thread t reads slots 2t and 2t + 1 while
         * threads 2t and 2t + 1 write them (a WAR the barrier after the step does not
         * order). Fixed: each thread reads into a register, then a barrier, then the writes
         * (or the sequential addressing of block_sum, which reads no slot that the step
         * writes). */
        float pair = 0.0f;
        if (threadIdx.x < half)
            pair = slots[2 * threadIdx.x] + slots[2 * threadIdx.x + 1];
        __syncthreads();
        if (threadIdx.x < half)
            slots[threadIdx.x] = pair;
        //| if (threadIdx.x < half)
        //|     slots[threadIdx.x] = slots[2 * threadIdx.x] + slots[2 * threadIdx.x + 1];
        /* GIVEN END */
        __syncthreads();
    }
    return slots[0];
}

__global__ void dot_find_the_bug(const float *a, const float *b, float *sums, unsigned *count,
                                 float *out, unsigned n)
{
    __shared__ float slots[DOT_THREADS];
    __shared__ int finisher;
    size_t first = (size_t)blockIdx.x * 2 * blockDim.x + threadIdx.x;
    size_t second = first + blockDim.x;
    float mine = 0.0f;
    if (first < n)
        mine = a[first] * b[first];
    /* GIVEN BEGIN: the off-by-one: reads a[n] and b[n] where second == n (n % 512 from 256
     * to 511), past the end of both. */
    if (second < n)
        mine += a[second] * b[second];
    //| if (second <= n)
    //|     mine += a[second] * b[second];
    /* GIVEN END */
    slots[threadIdx.x] = mine;
    __syncthreads();
    float total = pairwise_sum(slots);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = total;
        /* GIVEN BEGIN: the missing fence: without it the count may say that the sum is
         * there before the sum itself is visible to the last block. */
        __threadfence();
        /* GIVEN END */
        finisher = atomicAdd(count, 1u) + 1 == gridDim.x;
        if (finisher)
            __threadfence();
    }
    __syncthreads();
    if (!finisher)
        return;
    const volatile float *published = sums;
    mine = 0.0f;
    for (unsigned block = threadIdx.x; block < gridDim.x; block += blockDim.x)
        mine += published[block];
    slots[threadIdx.x] = mine;
    __syncthreads();
    total = pairwise_sum(slots);
    if (threadIdx.x == 0)
        *out = total;
}
