/* lab11: scan (prefix sums) of n ints: out[i] = in[0] + ... + in[i] (inclusive), or the same
 * without in[i] (exclusive). Each element must be read once and written once, 8 n bytes, as a
 * copy moves; the variants differ in the adds they do (the work), the barriers between them
 * (the steps), and how many SMs take part. Kernels 1-4 are one block that walks the input tile
 * after tile, carrying the running total: four ways to scan inside a block. Kernels 5-6 give
 * each tile a block of its own and join the tiles: in three launches, or in one pass that
 * looks back at the tiles before. Kernels 7-9 are the seed's streaming threshold of an 8-bit
 * image, the copy's pattern with a max in it; kernel 10 compacts an image's bright pixels with
 * kernel 6's single pass; kernel 11 is kernel 6 on floats, whose adds round. Yours: the
 * kernels; launch.cu checks the arguments and launches them. */
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
 * warps before it. Three barriers a tile instead of log2(B). Templates of the element's
 * type: kernel 11 runs the same code on floats. */

/* The inclusive scan of x over the 32 lanes of the warp. */
template <typename T>
__device__ T warp_inclusive_scan(T x)
{
    const unsigned lane = threadIdx.x % WARP;
    /* TODO: for d = 1, 2, 4, 8, 16: y = __shfl_up_sync(FULL_MASK, x, d), added to
     * x in the lanes with lane >= d (the lanes below get their own x back). */
    return x;
}

/* The exclusive scan of x over the block (blockDim.x a multiple of 32): the sum of the x of
 * the threads before this one; in *total the block's sum, in every thread. Made of adds
 * alone, no "inclusive less x": for ints the same, for floats a subtraction that does not
 * undo a rounded add (kernel 11). */
template <typename T>
__device__ T block_exclusive_scan(T x, T *total)
{
    __shared__ T warp_sums[WARP];
    const unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP, warps = blockDim.x / WARP;
    T before = 0;
    /* TODO: inclusive = the scan of x in the warp; its last lane stores it in
     * warp_sums[warp]; a barrier; warp 0 scans warp_sums in place (0 past the block's warps);
     * a barrier. before = the inclusive of the lane below (__shfl_up_sync by 1, in every
     * lane; lane 0 keeps 0), plus warp_sums[warp - 1] in warps above 0; *total =
     * warp_sums[warps - 1]; a barrier, so that the next call's stores wait for these reads. */
    return before;
}

/* 4. The block scan by shuffles, one block tile after tile. Costs: one SM still does it all.
 * (Kernel 5 scans its tile sums with it, in one block.) */
__global__ void scan_warp_shuffle(const int *in, int *out, size_t n, int exclusive)
{
    int carry = 0;
    /* TODO: the tile loop of kernel 1, a tile of blockDim.x: x = in[i] (0 past n);
     * before = block_exclusive_scan(x, &total); out[i] = carry + before, plus x when
     * inclusive (i < n); carry += total. */
}

/* ------------------------------------------------------------- tiles of many blocks
 * A block per tile of SCAN_THREADS x SCAN_ITEMS elements (scan.h): every SM at work. Each
 * thread scans SCAN_ITEMS consecutive elements in registers (no barrier, SCAN_ITEMS adds), the
 * threads' sums are scanned across the block, and each thread adds the sum of the threads
 * before it: Brent's bound at work, a sequential scan per thread under a parallel one of B
 * values. A warp's part of the tile is WARP x SCAN_ITEMS consecutive elements. */

static const unsigned WARP_ITEMS = WARP * SCAN_ITEMS;

/* The first element of this warp's part of tile `tile`. */
__device__ size_t warp_first(unsigned tile)
{
    return ((size_t)tile * blockDim.x + threadIdx.x / WARP * WARP) * SCAN_ITEMS;
}

/* Each warp's stage: its part of the tile in shared memory, a word of padding after every 32
 * (kernel 3's idea: word k at k + k / 32). Blocks of SCAN_THREADS threads. */
__device__ int *warp_stage()
{
    __shared__ int stage[SCAN_THREADS / WARP][WARP_ITEMS + WARP_ITEMS / BANKS];
    return stage[threadIdx.x / WARP];
}

__device__ unsigned staged(unsigned k)
{
    return k + k / BANKS;
}

/* A stage's word holds an int as it is, a float as its bits (kernel 11). */
__device__ int to_word(int x)
{
    return x;
}
__device__ int to_word(float x)
{
    return __float_as_int(x);
}
__device__ void from_word(int word, int &x)
{
    x = word;
}
__device__ void from_word(int word, float &x)
{
    x = __int_as_float(word);
}

/* The warp transpose. A warp's load is fastest striped: its load k has lane l take element
 * k WARP + l of the warp's part, 32 consecutive elements, whole 32-byte sectors. The scan wants
 * the items blocked: lane l's x[k] is element l SCAN_ITEMS + k. So each lane stores its striped
 * items in the warp's stage, a __syncwarp (lanes read what others wrote), and reads back its
 * blocked ones. Blocked, a warp's 32 lanes read words SCAN_ITEMS apart, all in 32 / SCAN_ITEMS
 * banks without the padding (a 16-way conflict for 16 items); with it, in 32. Costs two shared
 * accesses an element, where loading blocked straight from memory makes each load of the warp
 * touch SCAN_ITEMS times the sectors it uses (the L1 cache catches the rest, if it can). */
template <typename T>
__device__ void striped_to_blocked(T x[SCAN_ITEMS])
{
    int *stage = warp_stage();
    const unsigned lane = threadIdx.x % WARP;
    for (unsigned k = 0; k < SCAN_ITEMS; k++)
        stage[staged(k * WARP + lane)] = to_word(x[k]);
    __syncwarp();
    for (unsigned k = 0; k < SCAN_ITEMS; k++)
        from_word(stage[staged(lane * SCAN_ITEMS + k)], x[k]);
    __syncwarp(); /* every lane has read: the stage is free again */
}

/* The other way, for the stores: blocked items in, striped out. */
template <typename T>
__device__ void blocked_to_striped(T x[SCAN_ITEMS])
{
    int *stage = warp_stage();
    const unsigned lane = threadIdx.x % WARP;
    for (unsigned k = 0; k < SCAN_ITEMS; k++)
        stage[staged(lane * SCAN_ITEMS + k)] = to_word(x[k]);
    __syncwarp();
    for (unsigned k = 0; k < SCAN_ITEMS; k++)
        from_word(stage[staged(k * WARP + lane)], x[k]);
    __syncwarp();
}

/* This warp's part of the tile, in[first..first + WARP_ITEMS) (first: warp_first), blocked into
 * x[]: x[k] = in[first + lane SCAN_ITEMS + k], 0 past n. All SCAN_ITEMS loads are issued
 * before the first is needed: that many in flight per thread. */
template <typename T>
__device__ void load_items(const T *in, size_t n, size_t first, T x[SCAN_ITEMS])
{
    const unsigned lane = threadIdx.x % WARP;
    for (unsigned k = 0; k < SCAN_ITEMS; k++) {
        const size_t i = first + k * WARP + lane;
        x[k] = i < n ? in[i] : 0;
    }
    striped_to_blocked(x);
}

/* add + v[k] (blocked as load_items leaves them; left striped) to out[first + lane SCAN_ITEMS
 * + k], below n: striped, so that each store of the warp writes 128 consecutive bytes. */
template <typename T>
__device__ void store_items(T *out, size_t n, size_t first, T v[SCAN_ITEMS], T add)
{
    const unsigned lane = threadIdx.x % WARP;
    blocked_to_striped(v);
    for (unsigned k = 0; k < SCAN_ITEMS; k++) {
        const size_t i = first + k * WARP + lane;
        if (i < n)
            out[i] = add + v[k];
    }
}

/* The scan of a tile whose threads hold SCAN_ITEMS consecutive items each, x[]: v[k] is the
 * scan of item k within the tile; *total: the tile's sum, in every thread. */
template <typename T>
__device__ void tile_scan(const T x[SCAN_ITEMS], int exclusive, T v[SCAN_ITEMS], T *total)
{
    /* TODO: add up the items into sum; before = block_exclusive_scan(sum, total),
     * the sum of the threads before this one; then for each item k: v[k] = before
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
    const size_t first = warp_first(blockIdx.x);
    int x[SCAN_ITEMS], v[SCAN_ITEMS] = {0}, total = 0;
    load_items(in, n, first, x);
    /* TODO: tile_scan the items; store_items(out, n, first, v, 0); thread 0 stores
     * total in tile_sums[blockIdx.x]. */
}

/* Launch 3: offsets[blockIdx.x] added to the block's tile of out. */
__global__ void scan_add_offsets(int *out, size_t n, const int *offsets)
{
    const size_t base = (size_t)blockIdx.x * blockDim.x * SCAN_ITEMS;
    /* TODO: add offsets[blockIdx.x] to out[base + k blockDim.x + threadIdx.x] for k
     * below SCAN_ITEMS, below n (consecutive threads, consecutive elements; a loop of
     * SCAN_ITEMS trips, which the compiler unrolls: every load in flight at once). */
}

/* ------------------------------------------------------------- 6. decoupled look-back
 * One pass (Merrill and Garland, 2016). Each tile publishes its own sum (the aggregate) as
 * soon as it has it, then looks back: it adds the aggregates of the tiles before until it
 * meets one that has published its inclusive prefix (the sum of everything up to its end);
 * then it publishes its own prefix. A flag per tile says which value is there.
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

/* Lane 0 of a tile's warp 0: value (its aggregate or its inclusive prefix) into *slot, then
 * state (SCAN_FLAG_AGGREGATE or SCAN_FLAG_PREFIX) into *flag. */
template <typename T>
__device__ void publish(T *slot, unsigned *flag, T value, unsigned state)
{
    /* TODO: store value in *slot; __threadfence(), so that every block sees the
     * value before it sees the flag; atomicExch(flag, state). */
}

/* The lanes up to and including the lowest lane set in `lanes` (all 32 where none is):
 * x ^ (x - 1) sets the lowest set bit of x and every bit below it. */
__device__ unsigned through_lowest(unsigned lanes)
{
    return lanes ? lanes ^ (lanes - 1) : FULL_MASK;
}

/* Warp 0 of tile `tile` > 0: the sum of the tiles before it, in every lane. One tile at a time,
 * each step of the walk costs a round trip to memory and a fence, and with a quarter of a
 * million tiles in flight the walks are long. So the warp looks at 32 tiles at once: in a
 * window, lane l polls tile window - l (the nearest first) and the warp waits until every
 * tile up to the nearest that has published its prefix has published something; the lanes
 * up to that one each read their tile's value, and a warp sum adds them. Without a prefix in
 * the window, the window's 32 aggregates are added and the window moves 32 tiles back.
 * A flag is read with an atomic that changes nothing (CUDA C's atomics all write): a plain
 * read in a loop may be done once and kept in a register, and the loop never ends; and only
 * a read that takes part in the memory model's synchronisation (an atomic, then a fence)
 * makes the publisher's value visible: each lane reads the value of the flag it polled. The
 * sums are read through volatile pointers, past this SM's L1 cache, which does not see other
 * SMs' writes. Lanes before tile 0 poll nothing (SCAN_FLAG_NONE): tile 0, which publishes its
 * prefix at once, ends the walk before them. */
template <typename T>
__device__ T look_back(unsigned *flags, const T *aggregates, const T *prefixes, unsigned tile)
{
    const volatile T *vaggregates = aggregates;
    const volatile T *vprefixes = prefixes;
    const int lane = (int)(threadIdx.x % WARP);
    T sum = 0;
    /* TODO: for window = tile - 1, step -32 (ints: the lanes' tiles go below 0): p =
     * window - lane; repeat state = atomicOr(&flags[p], 0) (SCAN_FLAG_NONE for p < 0), with
     * __ballot_sync the lanes whose state is SCAN_FLAG_PREFIX and those whose is
     * SCAN_FLAG_NONE, counted = through_lowest(the prefix lanes), while a counted lane is
     * NONE. __threadfence(), so that the sums are read after the flags; a counted lane takes
     * vprefixes[p] or vaggregates[p] by its state (the others 0), and sum += their warp sum
     * (lane 31 of warp_inclusive_scan, by __shfl_sync). Stop when a lane had a prefix. */
    return sum;
}

/* Warp 0 of tile `tile`, whose sum is total: the tile's place in the chain. Returns the sum of
 * the tiles before it, in every lane, having published its own inclusive prefix for the tiles
 * after (lane 0 publishes). */
template <typename T>
__device__ T chain(unsigned tile, T total, unsigned *flags, T *aggregates, T *prefixes)
{
    const unsigned lane = threadIdx.x % WARP;
    T before = 0;
    /* TODO: a tile above 0: lane 0 publishes total as its aggregate, and the warp
     * looks back into before; then lane 0 of every tile publishes before + total as its
     * prefix. */
    return before;
}

/* The single pass over tiles of T (int: kernel 6; float: kernel 11). */
template <typename T>
__device__ void lookback_tiles(const T *in, T *out, size_t n, int exclusive, unsigned *ticket,
                               unsigned *flags, T *aggregates, T *prefixes)
{
    __shared__ T before_tile;
    /* TODO: tile = draw_tile(ticket); first = warp_first(tile); load_items and
     * tile_scan; warp 0: chain(tile, total, ...), which its lane 0 stores in before_tile; a
     * barrier; store_items(out, n, first, v, before_tile). */
}

/* 6. Single pass: read n, write n, and every SM at work. Costs: the chain through the tiles'
 * flags (a window of 32 tiles a step), scratch of three words a tile, and each block's wait
 * for its warp 0's look-back (other blocks on the SM use the time). */
__global__ void scan_decoupled_lookback(const int *in, int *out, size_t n, int exclusive,
                                        unsigned *ticket, unsigned *flags, int *aggregates,
                                        int *prefixes)
{
    lookback_tiles(in, out, n, exclusive, ticket, flags, aggregates, prefixes);
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
 * last tile's prefix is the count. Reads n bytes, writes 4 bytes per pixel kept.
 * An item is SCAN_PIXELS = 4 pixels, a uchar4: a byte is a quarter of an int, so a tile of
 * kernel 6's items holds four times the pixels, and the chain has a quarter of the tiles. An
 * item's predicate is a mask, bit b for its pixel b; what the tile scans is its count of
 * kept pixels, __popc(mask). */

/* The mask of pixels i..i + 3, whose bytes are p: bit b set where i + b < n and byte b of p
 * is at or above thr. */
__device__ int keep_mask(uchar4 p, size_t i, size_t n, unsigned char thr)
{
    return (i < n && p.x >= thr) | (i + 1 < n && p.y >= thr) << 1 | (i + 2 < n && p.z >= thr) << 2 |
           (i + 3 < n && p.w >= thr) << 3;
}

__device__ unsigned char byte_at(const unsigned char *src, size_t n, size_t i)
{
    return i < n ? src[i] : 0;
}

/* The masks of this warp's part of the tile, SCAN_PIXELS x WARP_ITEMS pixels from first on,
 * blocked into keep[]: keep[k] covers pixels first + SCAN_PIXELS (lane SCAN_ITEMS + k) on.
 * Loaded striped, an item a lane in each load: one uchar4 load (each load of the warp 128
 * consecutive bytes) where src is 4-byte aligned and the warp's part lies below n, else four
 * byte loads, which the L1 cache serves from the same sectors. */
__device__ void load_masks(const unsigned char *src, size_t n, unsigned char thr, size_t first,
                           int keep[SCAN_ITEMS])
{
    const unsigned lane = threadIdx.x % WARP;
    if ((uintptr_t)src % 4 == 0 && first + SCAN_PIXELS * WARP_ITEMS <= n)
        for (unsigned k = 0; k < SCAN_ITEMS; k++) {
            const size_t i = first + SCAN_PIXELS * (k * WARP + lane);
            keep[k] = keep_mask(*(const uchar4 *)(src + i), i, n, thr);
        }
    else
        for (unsigned k = 0; k < SCAN_ITEMS; k++) {
            const size_t i = first + SCAN_PIXELS * (k * WARP + lane);
            const uchar4 p = make_uchar4(byte_at(src, n, i), byte_at(src, n, i + 1),
                                         byte_at(src, n, i + 2), byte_at(src, n, i + 3));
            keep[k] = keep_mask(p, i, n, thr);
        }
    striped_to_blocked(keep);
}

/* The scatter: the indices of this warp's kept pixels (blocked masks keep[], the items'
 * places in the tile's output place[], first as for load_masks) to out[place...]. The warp's
 * places are consecutive, from lane 0's first to lane 31's last: the warp gathers its indices
 * in its stage and stores them from there, a lane a word, so that each store of the warp
 * writes consecutive words, where stored from the items each lane's would lie 32 places
 * from its neighbour's, a sector a word. A stage holds WARP_ITEMS words and a warp may keep
 * SCAN_PIXELS times that: rounds of WARP_ITEMS places, each lane staging the indices whose
 * places fall in the round. */
__device__ void scatter_kept(unsigned *out, size_t first, const int keep[SCAN_ITEMS],
                             const int place[SCAN_ITEMS])
{
    int *stage = warp_stage();
    const unsigned lane = threadIdx.x % WARP;
    const int last = place[SCAN_ITEMS - 1] + __popc(keep[SCAN_ITEMS - 1]);
    const int from = __shfl_sync(FULL_MASK, place[0], 0),
              to = __shfl_sync(FULL_MASK, last, WARP - 1);
    for (int round = from; round < to; round += (int)WARP_ITEMS) {
        const int end = to < round + (int)WARP_ITEMS ? to : round + (int)WARP_ITEMS;
        for (unsigned k = 0; k < SCAN_ITEMS; k++) {
            const size_t pixel = first + SCAN_PIXELS * (lane * SCAN_ITEMS + k);
            int q = place[k]; /* the place of the item's next kept pixel */
            for (unsigned m = keep[k]; m && q < end; m &= m - 1, q++)
                if (q >= round)
                    stage[staged(q - round)] = (int)(pixel + __ffs(m) - 1);
        }
        __syncwarp();
        for (int j = round + (int)lane; j < end; j += (int)WARP)
            out[j] = (unsigned)stage[staged(j - round)];
        __syncwarp();
    }
}

/* 10. The compaction: kernel 6's chain between a predicate and a scatter. Costs: the
 * scatter's rounds, and 4 bytes written per kept pixel. */
__global__ void compact_lookback(const unsigned char *src, size_t n, unsigned char thr,
                                 unsigned *out, unsigned *count, unsigned *ticket, unsigned *flags,
                                 int *aggregates, int *prefixes)
{
    __shared__ int before_tile;
    /* TODO: tile = draw_tile(ticket) as in kernel 6, first = SCAN_PIXELS
     * warp_first(tile) (in pixels); load_masks into keep[]; each item's count = __popc of
     * its mask; tile_scan(count, 1, place, &total), exclusive: each item's first place; warp
     * 0: chain(...), which its lane 0 stores in before_tile, and in the last tile (gridDim.x -
     * 1) before + total in *count; a barrier; scatter_kept(out + before_tile, first, keep,
     * place). */
}

/* ------------------------------------------------------------- 11. floats
 * Kernel 6 on floats: the same tiles, the same chain, the same adds in the same order. An int
 * add is exact, so any order gives the same sums; a float add rounds, so the order is part of
 * the answer, and no test can ask for the CPU's bits. What holds is a bound: every term of
 * out[i] goes through at most d adds on its way there (the depth of the tree of adds), and
 * |out[i] - the exact sum| <= gamma_d (|x_0| + ... + |x_i|), gamma_d = d u / (1 - d u), u =
 * 2^-24. The handout counts d for this order: 2 SCAN_ITEMS + 11 inside a tile (the items, the
 * warp, the warps, the items again), then at most 7 more for each tile of the chain before
 * (reference.c: scan_float_depth). Which prefix a tile finds in its look-back depends on the
 * schedule, so the bits of out may change from run to run, inside the bound. */
__global__ void scan_lookback_float(const float *in, float *out, size_t n, int exclusive,
                                    unsigned *ticket, unsigned *flags, float *aggregates,
                                    float *prefixes)
{
    lookback_tiles(in, out, n, exclusive, ticket, flags, aggregates, prefixes);
}
