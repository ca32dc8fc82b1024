/* lab11: scan (prefix sums) of n ints: out[i] = in[0] + ... + in[i] (inclusive), or the same
 * without in[i] (exclusive). Each element must be read once and written once, 8 n bytes, as a
 * copy moves; the variants differ in the adds they do (the work), the barriers between them
 * (the steps), and how many SMs take part. Kernels 1-4 are one block that walks the input tile
 * after tile, carrying the running total: four ways to scan inside a block. Kernels 5-6 give
 * each tile a block of its own and join the tiles: in three launches, or in one pass that
 * looks back at the tiles before. Kernels 7-9 are the seed's streaming threshold of an 8-bit
 * image, the copy's pattern with a max in it; kernel 10 compacts an image's bright pixels with
 * kernel 6's single pass. Yours: the kernels; launch.cu checks the arguments and launches
 * them. */
#include <stdint.h>
#include "scan.h"
#include "warp.h"

static const unsigned BANKS = 32; /* shared-memory banks, each one word wide */

/* ------------------------------------------------------------- 1. Hillis and Steele
 * In step d = 1, 2, 4, ... each element adds the one d places before it: after log2(B)
 * steps element t holds the sum of elements 0..t of the tile. Each step reads what the last
 * one wrote, so a step reads one buffer and writes the other (double buffering): in place, a
 * thread could read its neighbour's element after the neighbour has already added into it.
 * Teaches the scan's depth, log2(B) steps; costs B log2(B) adds a tile where the loop on a
 * CPU does B, a barrier a step, and one SM for the whole input. The exclusive scan shifts the
 * input one place to the right on its way in. */
__global__ void scan_hillis_steele(const int *in, int *out, size_t n, int exclusive)
{
    extern __shared__ int buf[]; /* two buffers of blockDim.x ints */
    const unsigned t = threadIdx.x;
    int carry = 0; /* the sum of the tiles before this one, the same in every thread */
    for (size_t base = 0; base < n; base += blockDim.x) {
        const size_t i = base + t;
        int *src = buf, *dst = buf + blockDim.x;
        /* TODO: src[t] = in[j], j = i (inclusive) or i - 1 (exclusive), 0 where j is
         * not below n (i - 1 for i = 0 wraps past n); a barrier. For d = 1, 2, 4, ... below
         * blockDim.x: dst[t] = src[t] + src[t - d] (src[t] alone for t < d), a barrier, swap
         * src and dst. Then out[i] = carry + src[t] (i < n), carry += src[blockDim.x - 1],
         * and a barrier before the next tile's loads overwrite buf. */
    }
}

/* ------------------------------------------------------------- 2-3. Blelloch
 * A balanced tree over the tile of 2B elements, each thread holding two. The up-sweep adds
 * pairs, pairs of pairs..., leaving the tile's sum at its last slot, as a reduction does; the
 * down-sweep clears that slot and walks back down, each node handing its left child the
 * value it got and its right child that value plus the left child's old sum. What is left in
 * each slot is the sum of the elements before it: the exclusive scan. 2 (2B - 1) adds a tile,
 * the loop's order of work, in 2 log2(2B) steps: twice Hillis and Steele's. */

/* Where element k of the tile lives in shared memory. In the deep steps of the sweeps the
 * threads of a warp touch slots 2, 4, ... 32 words apart, all in a few of the 32 banks, and a
 * bank serves one word at a time. A word of padding after every 32 moves slot k to
 * k + k / 32: the same accesses then fall into different banks (variant 3). */
template <bool PADDED>
__device__ unsigned slot(unsigned k)
{
    unsigned s = k;
    /* TODO: when PADDED, add k / BANKS (one word skipped per bank row). */
    return s;
}

/* Blelloch's scan in one block, tile after tile; temp holds a tile, every index through
 * slot<PADDED>. */
template <bool PADDED>
__device__ void blelloch_tiles(const int *in, int *out, size_t n, int exclusive)
{
    extern __shared__ int temp[]; /* 2 blockDim.x ints, and the padding */
    const unsigned t = threadIdx.x, half = blockDim.x, m = 2 * blockDim.x;
    int carry = 0;
    for (size_t base = 0; base < n; base += m) {
        const size_t ia = base + t, ib = base + half + t;
        const int a = ia < n ? in[ia] : 0, b = ib < n ? in[ib] : 0;
        int total = 0;
        temp[slot<PADDED>(t)] = a;
        temp[slot<PADDED>(half + t)] = b;
        /* TODO: the up-sweep: offset = 1; for d = half, half / 2, ..., 1: a
         * barrier, then threads t < d add temp[offset (2t + 1) - 1] into temp[offset (2t + 2)
         * - 1], and offset doubles. A barrier; total = temp[m - 1]; a barrier before thread 0
         * clears temp[m - 1]. The down-sweep: for d = 1, 2, ..., half: offset halves, a
         * barrier, then threads t < d swap their pair's left slot with the right and add the
         * left's old value into the right. A barrier at the end (the reads below). */
        /* The exclusive sums are in temp; a thread reads back only its own two slots, which
         * it alone writes at the next tile's start, so no barrier is needed before that. */
        if (ia < n)
            out[ia] = carry + temp[slot<PADDED>(t)] + (exclusive ? 0 : a);
        if (ib < n)
            out[ib] = carry + temp[slot<PADDED>(half + t)] + (exclusive ? 0 : b);
        carry += total;
    }
}

/* 2. Blelloch's work-efficient scan. Costs: bank conflicts of up to 16 ways in the deep
 * steps, and twice the barriers of kernel 1. */
__global__ void scan_blelloch(const int *in, int *out, size_t n, int exclusive)
{
    blelloch_tiles<false>(in, out, n, exclusive);
}

/* 3. The same with padded indices: no conflicts, for 2B / 32 words more shared memory. */
__global__ void scan_blelloch_padded(const int *in, int *out, size_t n, int exclusive)
{
    blelloch_tiles<true>(in, out, n, exclusive);
}

/* ------------------------------------------------------------- 4. warp shuffles
 * A warp scans 32 values in registers: __shfl_up_sync(mask, x, d) hands each lane the x of
 * the lane d below, so kernel 1's five steps need no shared memory and no barrier. The warps'
 * totals go through shared memory, where warp 0 scans them; each warp adds the total of the
 * warps before it. Three barriers a tile instead of log2(B). */

/* The inclusive scan of x over the 32 lanes of the warp. */
__device__ int warp_inclusive_scan(int x)
{
    const unsigned lane = threadIdx.x % WARP;
    /* TODO: for d = 1, 2, 4, 8, 16: y = __shfl_up_sync(FULL_MASK, x, d), added to
     * x in the lanes with lane >= d (the lanes below get their own x back). */
    return x;
}

/* The inclusive scan of x over the block (blockDim.x a multiple of 32), and in *total the
 * block's sum, in every thread. */
__device__ int block_inclusive_scan(int x, int *total)
{
    __shared__ int warp_sums[WARP];
    const unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP, warps = blockDim.x / WARP;
    /* TODO: scan x in the warp; its last lane stores the result in
     * warp_sums[warp]; a barrier; warp 0 scans warp_sums in place (0 past the block's warps);
     * a barrier; warps above 0 add warp_sums[warp - 1]; *total = warp_sums[warps - 1]; a
     * barrier, so that the next call's stores wait for these reads. */
    return x;
}

/* 4. The block scan by shuffles, one block tile after tile. Costs: one SM still does it all.
 * (Kernel 5 scans its tile sums with it, in one block.) */
__global__ void scan_warp_shuffle(const int *in, int *out, size_t n, int exclusive)
{
    int carry = 0;
    /* TODO: the tile loop of kernel 1, a tile of blockDim.x: x = in[i] (0 past n);
     * inclusive = block_inclusive_scan(x, &total); out[i] = carry + inclusive, less x when
     * exclusive (i < n); carry += total. */
}

/* ------------------------------------------------------------- tiles of many blocks
 * A block per tile of blockDim.x x SCAN_ITEMS elements: every SM at work. Each thread scans
 * SCAN_ITEMS consecutive elements in registers (no barrier, SCAN_ITEMS adds), the threads'
 * sums are scanned across the block, and each thread adds the sum of the threads before it:
 * Brent's bound at work, a sequential scan per thread under a parallel one of B values. */

/* This thread's items: in[first + k] for k < SCAN_ITEMS, 0 past n. */
__device__ void load_items(const int *in, size_t n, size_t first, int x[SCAN_ITEMS])
{
    for (unsigned k = 0; k < SCAN_ITEMS; k++)
        x[k] = first + k < n ? in[first + k] : 0;
}

/* The scan of a tile whose threads hold SCAN_ITEMS consecutive items each, x[]: v[k] is the
 * scan of item k within the tile; *total: the tile's sum, in every thread. */
__device__ void tile_scan(const int x[SCAN_ITEMS], int exclusive, int v[SCAN_ITEMS], int *total)
{
    /* TODO: add up the items into sum; before = block_inclusive_scan(sum, total) -
     * sum, the sum of the threads before this one; then for each item k: v[k] = before
     * (exclusive) or before + x[k] (inclusive), and before += x[k]. */
}

/* ------------------------------------------------------------- 5. three phases
 * Launch 1 scans each tile on its own and stores the tile's sum; launch 2 (one block of
 * kernel 4) scans the sums, exclusive: each tile's offset; launch 3 adds each tile's offset to
 * its elements. The end of a launch is the barrier between all blocks. Costs: out is written,
 * read and written again: 4n ints moved where 2n would do, and three launches. */

/* Launch 1: the block's tile scanned into out, its sum into tile_sums[blockIdx.x]. */
__global__ void scan_tiles(const int *in, int *out, size_t n, int exclusive, int *tile_sums)
{
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * SCAN_ITEMS;
    int x[SCAN_ITEMS], v[SCAN_ITEMS] = {0}, total = 0;
    load_items(in, n, first, x);
    /* TODO: tile_scan the items; out[first + k] = v[k] below n; thread 0 stores
     * total in tile_sums[blockIdx.x]. */
}

/* Launch 3: offsets[blockIdx.x] added to the block's tile of out. */
__global__ void scan_add_offsets(int *out, size_t n, const int *offsets)
{
    const size_t base = (size_t)blockIdx.x * blockDim.x * SCAN_ITEMS;
    /* TODO: add offsets[blockIdx.x] to out[base + k] for k = threadIdx.x, step
     * blockDim.x, below the tile's size and base + k below n (consecutive threads,
     * consecutive elements). */
}

/* ------------------------------------------------------------- 6. decoupled look-back
 * One pass (Merrill and Garland, 2016). Each tile publishes its own sum (the aggregate) as
 * soon as it has it, then looks back: tile by tile it adds the aggregates of the tiles before
 * until it meets one that has published its inclusive prefix (the sum of everything up to
 * its end); then it publishes its own prefix. A flag per tile says which value is there.
 * Two orders make it correct on a GPU. Memory: a value must reach the other blocks before
 * its flag does, and be read after the flag: a fence on either side. Scheduling: a block may
 * only wait for blocks that are running or done, so tiles are numbered in the order blocks
 * start (an atomic ticket), not by blockIdx.x, which a GPU may start in any order. */

/* The block's tile, drawn by thread 0 from the ticket (launch.cu zeroes it), for every
 * thread: the blocks that drew the numbers before it have started. */
__device__ unsigned draw_tile(unsigned *ticket)
{
    __shared__ unsigned tile;
    /* TODO: thread 0: tile = atomicAdd(ticket, 1); a barrier. */
    return tile;
}

/* Thread 0 of a tile: value (its aggregate or its inclusive prefix) into *slot, then state
 * (SCAN_FLAG_AGGREGATE or SCAN_FLAG_PREFIX) into *flag. */
__device__ void publish(int *slot, unsigned *flag, int value, unsigned state)
{
    /* TODO: store value in *slot; __threadfence(), so that every block sees the
     * value before it sees the flag; atomicExch(flag, state). */
}

/* Thread 0 of tile `tile` > 0: the sum of the tiles before it. A flag is read with an atomic
 * that changes nothing (CUDA C's atomics all write): a plain read in a loop may be done
 * once and kept in a register, and the loop never ends; and only a read that takes part in
 * the memory model's synchronisation (an atomic, then a fence) makes the publisher's value
 * visible. The sums are read through volatile pointers, past this SM's L1 cache, which does
 * not see other SMs' writes. */
__device__ int look_back(unsigned *flags, const int *aggregates, const int *prefixes, unsigned tile)
{
    const volatile int *vaggregates = aggregates;
    const volatile int *vprefixes = prefixes;
    int sum = 0;
    /* TODO: for p = tile - 1, tile - 2, ...: wait while atomicOr(&flags[p], 0) is
     * SCAN_FLAG_NONE; __threadfence(), so that the sum is read after the flag; add
     * vprefixes[p] and stop when the flag is SCAN_FLAG_PREFIX, else add vaggregates[p] and
     * go on. */
    return sum;
}

/* Thread 0 of tile `tile`, whose sum is total: the tile's place in the chain. Returns the sum
 * of the tiles before it, having published its own inclusive prefix for the tiles after. */
__device__ int chain(unsigned tile, int total, unsigned *flags, int *aggregates, int *prefixes)
{
    int before = 0;
    /* TODO: a tile above 0 publishes total as its aggregate and looks back into
     * before; every tile then publishes before + total as its prefix. */
    return before;
}

/* 6. Single pass: read n, write n, and every SM at work. Costs: a serial chain through the
 * tiles' flags, short while blocks start in order, and scratch of three words a tile. */
__global__ void scan_decoupled_lookback(const int *in, int *out, size_t n, int exclusive,
                                        unsigned *ticket, unsigned *flags, int *aggregates,
                                        int *prefixes)
{
    __shared__ int before_tile;
    /* TODO: tile = draw_tile(ticket); first = (tile blockDim.x + threadIdx.x)
     * SCAN_ITEMS; load and tile_scan the items; thread 0: before_tile = chain(tile, total,
     * ...); a barrier; out[first + k] = before_tile + v[k] below n. */
}

/* ------------------------------------------------------------- 7-9. the streaming threshold
 * dst = max(src, t) on an 8-bit image, the seed's example of a streaming kernel: a byte read
 * and a byte written per pixel, nothing else. What is left to teach is how many bytes each
 * load moves and how many are in flight: a warp's load of a byte a lane moves 32 bytes, of a
 * word a lane 128, of a uint4 a lane 512, for the same instruction. */

/* 7. A pixel a thread, blocks of 32 x blockDim.y: a warp is 32 pixels of a row. The grid's
 * rows stride down the image (gridDim.y is at most 65535). Costs: one byte a load. */
__global__ void threshold_pixel(const unsigned char *src, unsigned char *dst, size_t width,
                                size_t height, size_t pitch, unsigned char thr)
{
    const size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: for y = blockIdx.y blockDim.y + threadIdx.y, step gridDim.y
     * blockDim.y, below height: when x < width, dst[y pitch + x] = the larger of
     * src[y pitch + x] and thr. */
}

/* 8. A warp a row (the seed's "warpwise"): lane l takes pixels l, l + 32, ... of row y, so a
 * row of any width keeps its warp busy and no block straddles rows. Costs: still a byte a
 * load, and a short row leaves lanes idle. */
__global__ void threshold_warp_row(const unsigned char *src, unsigned char *dst, size_t width,
                                   size_t height, size_t pitch, unsigned char thr)
{
    const size_t y = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    const unsigned lane = threadIdx.x % WARP;
    /* TODO: when y < height: for x = lane, step WARP, below width: dst[y pitch + x]
     * = the larger of src[y pitch + x] and thr. */
}

/* 9. Sixteen pixels a lane: the row read and written as uint4s (four 32-bit words, one load
 * of 16 bytes), __vmaxu4 taking the larger of each word's four bytes and thr's at once (the
 * seed's vmax4). A uint4 must start on a 16-byte boundary, and a row starts anywhere: its
 * bytes up to the first boundary, and those after its last whole uint4, go one a lane (src
 * and dst sit at the same offset from a boundary: launch.cu checks). __restrict__ promises
 * that src and dst do not overlap, so that the compiler may issue a lane's next load before
 * its store (lab07). Costs: the two byte-wise ends of every row. */
__global__ void threshold_simd(const unsigned char *__restrict__ src,
                               unsigned char *__restrict__ dst, size_t width, size_t height,
                               size_t pitch, unsigned char thr)
{
    const size_t y = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    const unsigned lane = threadIdx.x % WARP, thr4 = thr * 0x01010101u;
    if (y >= height)
        return;
    const unsigned char *s = src + y * pitch;
    unsigned char *d = dst + y * pitch;
    const size_t to_16 = (16 - (uintptr_t)s % 16) % 16, head = to_16 < width ? to_16 : width;
    const size_t quads = (width - head) / 16;
    /* TODO: the lanes below head do byte lane; then for k = lane, step WARP, below
     * quads: uint4 q = ((const uint4 *)(s + head))[k], each of its words x, y, z, w replaced
     * by __vmaxu4(word, thr4), stored at ((uint4 *)(d + head))[k]; then the bytes from head +
     * 16 quads to width, byte head + 16 quads + lane and every WARP-th after it. */
}

/* ------------------------------------------------------------- 10. compaction
 * The indices of the pixels at or above thr, in order, in one pass: a 1 for each kept pixel
 * (the predicate), the exclusive scan of those (each kept pixel's place among the kept:
 * kernel 6's tile scan and chain) and a store of its index at its place (the scatter); the
 * last tile's prefix is the count. Reads n bytes, writes 4 bytes per pixel kept. */
__global__ void compact_lookback(const unsigned char *src, size_t n, unsigned char thr,
                                 unsigned *out, unsigned *count, unsigned *ticket, unsigned *flags,
                                 int *aggregates, int *prefixes)
{
    __shared__ int before_tile;
    /* TODO: tile = draw_tile(ticket) and first as in kernel 6; keep[k] = 1 where
     * first + k < n and src[first + k] >= thr, else 0; tile_scan(keep, 1, place, &total),
     * exclusive: each kept item's place; thread 0: before_tile = chain(...), and the last tile (gridDim.x - 1) stores
     * before_tile + total in *count; a barrier; each kept item's index first + k goes to
     * out[before_tile + place[k]]. */
}
