/* lab05: the histogram of n bytes in 256 bins. Every variant reads each byte once and
 * writes 1 KiB of counts, so all of them could run at the memory's speed; what stops them
 * is contention: many threads adding 1 to few counters, which the hardware must serialise.
 * Each variant takes one idea against it. Yours: the kernels; launch.cu checks the
 * arguments, zeroes out and launches them. */
#include <stdint.h>
#include "histogram.h"
#include "warp.h"

/* ------------------------------------------------------------- the race (given)
 * The seed's first kernel: out[x]++ is a load, an add and a store, and two threads that
 * count the same byte both load the old count: one of the two updates is lost. A warp's 32
 * lanes issue the load together and then the store, so equal bytes within a warp always
 * collide; the __syncwarp pins down that interleaving (every lane loads before any lane
 * stores). The CPU backend, whose threads switch only at barriers and warp collectives,
 * would otherwise never lose a count; there every thread of a block reaches the __syncwarp
 * before any stores, so equal bytes anywhere in a block collide. On a GPU, warps and blocks
 * also race with each other. */
__global__ void histogram_race_kernel(const unsigned char *in, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = i < n ? in[i] : 0, count = i < n ? out[x] : 0;
    __syncwarp();
    if (i < n)
        out[x] = count + 1;
}

/* ------------------------------------------------------------- 1. global atomics */

/* One thread per byte, one atomicAdd on its global bin. Teaches atomicAdd: the
 * read-modify-write done by the L2 cache, indivisible. Costs: n atomics on 256 words; those
 * on one word are serialised, so the more equal the bytes, the slower (all-same: one word). */
__global__ void histogram_global_atomic(const unsigned char *in, unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: when i < n, atomicAdd 1 to out[in[i]]. */
}

/* ------------------------------------------------------------- sub-histograms
 * Privatisation: each block (or warp) counts into its own copy of the bins in shared
 * memory, whose atomics the SM does itself, then adds its copy into out once. The copy
 * must start at zero (shared memory holds whatever the last block left there) and every
 * thread must have counted before the merge reads it: two barriers. */

/* The block's `count` shared counters set to zero, the threads taking every blockDim.x-th. */
__device__ void block_zero(unsigned *hist, unsigned count)
{
    /* TODO: for b = threadIdx.x, step blockDim.x, below count: hist[b] = 0. */
}

/* The block's `copies` sub-histograms (HIST_BINS counters each, one after another) added
 * into out: a thread per bin sums the copies, then one global atomic per bin that counted
 * anything, since other blocks merge into out at the same time. */
__device__ void block_merge(const unsigned *hist, unsigned copies, unsigned *out)
{
    /* TODO: for b = threadIdx.x, step blockDim.x, below HIST_BINS: sum
     * hist[c * HIST_BINS + b] over the copies c, and when the sum is not 0 atomicAdd it to
     * out[b]. */
}

/* This thread's first byte of a grid-stride loop, and the loop's step. 64-bit: i + stride
 * must not wrap for n close to 2^32. */
__device__ size_t grid_start(void)
{
    return (size_t)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ size_t grid_stride(void)
{
    return (size_t)gridDim.x * blockDim.x;
}

/* 2. A sub-histogram per block in shared memory (the seed's remedy), grid-stride over the
 * bytes, merged with global atomics. The L2 sees 256 atomics per block instead of one per
 * byte. Costs: two barriers, and the block's threads still contend for 256 shared words. */
__global__ void histogram_shared_privatized(const unsigned char *in, unsigned *out, unsigned n)
{
    __shared__ unsigned hist[HIST_BINS];
    /* TODO: block_zero the HIST_BINS counters; barrier; grid-stride over
     * in[0..n) with a shared atomicAdd of 1 to hist[in[i]]; barrier; block_merge the one
     * copy into out. */
}

/* 3. A sub-histogram per warp (dynamic shared memory: blockDim.x / 32 copies). Equal bytes
 * now collide only within a warp, not across the block's 8 warps. Costs: 8 times the shared
 * memory, and a merge that sums 8 copies. */
__global__ void histogram_per_warp(const unsigned char *in, unsigned *out, unsigned n)
{
    extern __shared__ unsigned warp_hists[];
    unsigned copies = blockDim.x / WARP, *mine = warp_hists + threadIdx.x / WARP * HIST_BINS;
    /* TODO: kernel 2 with copies sub-histograms: zero them all, count into
     * mine, merge the copies. */
}

/* ------------------------------------------------------------- 16-byte loads
 * A byte load moves one byte per lane: 32 bytes per warp instruction. A uint4 load moves
 * 16 per lane, but only from a 16-byte-aligned address, and the caller's pointer may have
 * any alignment: the bytes before the first 16-byte boundary (the head) and after the last
 * whole vector (the tail), fewer than 16 each, are counted one by one. */

/* The head's length: the bytes before in's first 16-byte boundary, at most n. */
__device__ unsigned head_bytes(const unsigned char *in, unsigned n)
{
    unsigned head = (unsigned)((16 - (uintptr_t)in % 16) % 16);
    return head < n ? head : n;
}

/* in[first..last) counted into hist one byte at a time, over the whole grid. */
__device__ void count_bytes(unsigned *hist, const unsigned char *in, size_t first, size_t last)
{
    /* TODO: for i = first + grid_start(), step grid_stride(), below last: a
     * shared atomicAdd of 1 to hist[in[i]]. */
}

/* The four bytes of w counted into hist, an atomic each. */
__device__ void count_word(unsigned *hist, unsigned w)
{
    /* TODO: atomicAdd 1 to hist[byte] for each of the four bytes of w
     * (w & 0xff, w >> 8 & 0xff, ...). */
}

/* 4. Wide loads: kernel 3 reading a uint4 per step, grid-stride over the whole vectors,
 * the head and the tail byte by byte. A sixteenth of the load instructions and more bytes
 * in flight per thread. Costs: the same atomics as kernel 3, and the head and tail. */
__global__ void histogram_wide_loads(const unsigned char *in, unsigned *out, unsigned n)
{
    extern __shared__ unsigned warp_hists[];
    unsigned copies = blockDim.x / WARP, *mine = warp_hists + threadIdx.x / WARP * HIST_BINS;
    unsigned head = head_bytes(in, n), vectors = (n - head) / 16;
    const uint4 *body = (const uint4 *)(in + head);
    block_zero(warp_hists, copies * HIST_BINS);
    __syncthreads();
    /* TODO: count_bytes of the head in[0..head); grid-stride over the vectors
     * v < vectors: load body[v] and count_word its x, y, z and w; count_bytes of the tail
     * in[head + 16 vectors..n). */
    __syncthreads();
    block_merge(warp_hists, copies, out);
}

/* ------------------------------------------------------------- 5. runs in registers
 * Equal bytes tend to come in runs (an image's flat regions, a file's padding, all of the
 * all-same input), and a run is one count: the thread keeps its current run in registers,
 * (byte, count), and adds it to the sub-histogram with one atomic when the byte changes. A
 * word of four equal bytes extends the run in one comparison. */

struct run {
    unsigned byte, count;
};

/* The run flushed into hist (one atomic), if it counted anything. */
__device__ void run_flush(unsigned *hist, const struct run *r)
{
    if (r->count)
        atomicAdd(&hist[r->byte], r->count);
}

/* The four bytes of w added to the run r, flushing it at each change of byte. */
__device__ void run_word(unsigned *hist, struct run *r, unsigned w)
{
    /* TODO: when w is r->byte four times (r->byte * 0x01010101u), add 4 to
     * r->count; else for each byte b of w: when b differs from r->byte, run_flush and
     * start a run of b at 0; then count it. */
}

/* The 16 bytes of q added to the run. */
__device__ void run_vector(unsigned *hist, struct run *r, uint4 q)
{
    run_word(hist, r, q.x);
    run_word(hist, r, q.y);
    run_word(hist, r, q.z);
    run_word(hist, r, q.w);
}

/* 5. Kernel 4 with runs counted in registers, and two uint4 loads in flight before the
 * first is counted. All-same bytes: one shared atomic per thread instead of one per byte,
 * so nothing is left to contend. Costs: a comparison per word, and per byte where the bytes
 * change (uniform bytes: every byte, no atomic saved). */
__global__ void histogram_register_runs(const unsigned char *__restrict__ in, unsigned *out,
                                        unsigned n)
{
    extern __shared__ unsigned warp_hists[];
    unsigned copies = blockDim.x / WARP, *mine = warp_hists + threadIdx.x / WARP * HIST_BINS;
    unsigned head = head_bytes(in, n), vectors = (n - head) / 16;
    const uint4 *body = (const uint4 *)(in + head);
    size_t v = grid_start(), stride = grid_stride();
    struct run r = {0, 0};
    block_zero(warp_hists, copies * HIST_BINS);
    __syncthreads();
    count_bytes(mine, in, 0, head);
    /* TODO: while v + stride < vectors, load body[v] and body[v + stride] before
     * counting either (run_vector), v += 2 stride; then the vector left, if v < vectors;
     * run_flush the last run. */
    count_bytes(mine, in, head + (size_t)vectors * 16, n);
    __syncthreads();
    block_merge(warp_hists, copies, out);
}

/* ------------------------------------------------------------- 6. the best
 * On an H100 a shared atomic per byte is the wall: kernel 4 counts uniform bytes at 2.3 TB/s
 * whatever the layout of its sub-histograms (1 to 8 copies a warp, 256 or 512 threads: 0.45
 * to 0.49 ms a GiB, measured), and lane counters of their own without atomics (8 or 16 bits)
 * are slower, 0.67 to 0.89 ms: each byte becomes a dependent load, add and store. Counting
 * a word of four equal bytes with one atomic of 4 was slower still on one repeated byte
 * (1.07 ms against 0.35): an atomic of 1 on one address is counted for the whole warp at
 * once, an atomic of 4 is not. What is left to win: more loads in flight. */

/* The 16 bytes of q counted into hist, an atomic each. */
__device__ void count_vector(unsigned *hist, uint4 q)
{
    count_word(hist, q.x);
    count_word(hist, q.y);
    count_word(hist, q.z);
    count_word(hist, q.w);
}

/* 6. The best: kernel 4 with two vectors loaded before the first is counted, so that each
 * thread has 32 bytes in flight. Costs: registers for the second vector. */
__global__ void histogram_best(const unsigned char *__restrict__ in, unsigned *out, unsigned n)
{
    extern __shared__ unsigned warp_hists[];
    unsigned copies = blockDim.x / WARP, *mine = warp_hists + threadIdx.x / WARP * HIST_BINS;
    unsigned head = head_bytes(in, n), vectors = (n - head) / 16;
    const uint4 *body = (const uint4 *)(in + head);
    size_t v = grid_start(), stride = grid_stride();
    block_zero(warp_hists, copies * HIST_BINS);
    __syncthreads();
    count_bytes(mine, in, 0, head);
    /* TODO: while v + stride < vectors, load body[v] and body[v + stride] before
     * counting either (count_vector), v += 2 stride; then the vector left, if v < vectors. */
    count_bytes(mine, in, head + (size_t)vectors * 16, n);
    __syncthreads();
    block_merge(warp_hists, copies, out);
}
