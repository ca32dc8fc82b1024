/* lab11: scan (prefix sums) of n ints: out[i] = in[0] + ... + in[i] (inclusive), or the same
 * without in[i] (exclusive). Each element must be read once and written once, 8 n bytes, as a
 * copy moves; the variants differ in the adds they do (the work), the barriers between them
 * (the steps), and how many SMs take part. Kernels 1-4 are one block that walks the input tile
 * after tile, carrying the running total: four ways to scan inside a block. Kernels 5-6 give
 * each tile a block of its own and join the tiles: in three launches, or in one pass that
 * looks back at the tiles before. Kernels 7-9 are the seed's streaming threshold of an 8-bit
 * image, the copy's pattern with a max in it; kernel 10 (compact.cu) compacts an image's
 * bright pixels with kernel 6's single pass; kernel 11 is kernel 6 on floats, whose adds round.
 * Yours: the kernels; launch.cu checks the arguments and launches them. */
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
        /* SOLUTION BEGIN: src[t] = in[j], j = i (inclusive) or i - 1 (exclusive), 0 where j is
         * not below n (i - 1 for i = 0 wraps past n); a barrier. For d = 1, 2, 4, ... below
         * blockDim.x: dst[t] = src[t] + src[t - d] (src[t] alone for t < d), a barrier, swap
         * src and dst. Then out[i] = carry + src[t] (i < n), carry += src[blockDim.x - 1],
         * and a barrier before the next tile's loads overwrite buf. */
        const size_t j = exclusive ? i - 1 : i;
        src[t] = j < n ? in[j] : 0;
        __syncthreads();
        for (unsigned d = 1; d < blockDim.x; d *= 2) {
            dst[t] = t >= d ? src[t] + src[t - d] : src[t];
            __syncthreads();
            int *swap = src;
            src = dst;
            dst = swap;
        }
        if (i < n)
            out[i] = carry + src[t];
        carry += src[blockDim.x - 1];
        __syncthreads();
        /* SOLUTION END */
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
    /* SOLUTION BEGIN: when PADDED, add k / BANKS (one word skipped per bank row). */
    if (PADDED)
        s += k / BANKS;
    /* SOLUTION END */
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
        /* SOLUTION BEGIN: the up-sweep: offset = 1; for d = half, half / 2, ..., 1: a
         * barrier, then threads t < d add temp[offset (2t + 1) - 1] into temp[offset (2t + 2)
         * - 1], and offset doubles. A barrier; total = temp[m - 1]; a barrier before thread 0
         * clears temp[m - 1]. The down-sweep: for d = 1, 2, ..., half: offset halves, a
         * barrier, then threads t < d swap their pair's left slot with the right and add the
         * left's old value into the right. A barrier at the end (the reads below). */
        unsigned offset = 1;
        for (unsigned d = half; d > 0; d >>= 1) {
            __syncthreads();
            if (t < d)
                temp[slot<PADDED>(offset * (2 * t + 2) - 1)] +=
                    temp[slot<PADDED>(offset * (2 * t + 1) - 1)];
            offset *= 2;
        }
        __syncthreads();
        total = temp[slot<PADDED>(m - 1)];
        __syncthreads();
        if (t == 0)
            temp[slot<PADDED>(m - 1)] = 0;
        for (unsigned d = 1; d < m; d *= 2) {
            offset >>= 1;
            __syncthreads();
            if (t < d) {
                unsigned left = slot<PADDED>(offset * (2 * t + 1) - 1);
                unsigned right = slot<PADDED>(offset * (2 * t + 2) - 1);
                int v = temp[left];
                temp[left] = temp[right];
                temp[right] += v;
            }
        }
        __syncthreads();
        /* SOLUTION END */
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
    /* SOLUTION BEGIN: for d = 1, 2, 4, 8, 16: y = __shfl_up_sync(FULL_MASK, x, d), added to
     * x in the lanes with lane >= d (the lanes below get their own x back). */
    for (unsigned d = 1; d < WARP; d *= 2) {
        T y = __shfl_up_sync(FULL_MASK, x, d);
        if (lane >= d)
            x += y;
    }
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: inclusive = the scan of x in the warp; its last lane stores it in
     * warp_sums[warp]; a barrier; warp 0 scans warp_sums in place (0 past the block's warps);
     * a barrier. before = the inclusive of the lane below (__shfl_up_sync by 1, in every
     * lane; lane 0 keeps 0), plus warp_sums[warp - 1] in warps above 0; *total =
     * warp_sums[warps - 1]; a barrier, so that the next call's stores wait for these reads. */
    const T inclusive = warp_inclusive_scan(x);
    if (lane == WARP - 1)
        warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0)
        warp_sums[lane] = warp_inclusive_scan(lane < warps ? warp_sums[lane] : (T)0);
    __syncthreads();
    const T below = __shfl_up_sync(FULL_MASK, inclusive, 1);
    if (lane > 0)
        before = below;
    if (warp > 0)
        before += warp_sums[warp - 1];
    *total = warp_sums[warps - 1];
    __syncthreads();
    /* SOLUTION END */
    return before;
}

/* 4. The block scan by shuffles, one block tile after tile. Costs: one SM still does it all.
 * (Kernel 5 scans its tile sums with it, in one block.) */
__global__ void scan_warp_shuffle(const int *in, int *out, size_t n, int exclusive)
{
    int carry = 0;
    /* SOLUTION BEGIN: the tile loop of kernel 1, a tile of blockDim.x: x = in[i] (0 past n);
     * before = block_exclusive_scan(x, &total); out[i] = carry + before, plus x when
     * inclusive (i < n); carry += total. */
    for (size_t base = 0; base < n; base += blockDim.x) {
        const size_t i = base + threadIdx.x;
        const int x = i < n ? in[i] : 0;
        int total = 0, before = block_exclusive_scan(x, &total);
        if (i < n)
            out[i] = carry + (exclusive ? before : before + x);
        carry += total;
    }
    /* SOLUTION END */
}

/* ------------------------------------------------------------- tiles of many blocks A block per
 * tile of THREADS x ITEMS elements (scan.h: kernel 5 SCAN_THREADS x SCAN_ITEMS, 6 and 11
 * SCAN_LB_THREADS x SCAN_LB_ITEMS; kernel 10 tiles of its own): every SM at work. Each thread
 * scans ITEMS consecutive elements in registers (no barrier), the threads' sums are scanned across
 * the block, and each thread adds the sum of the threads before it: Brent's bound at work. A
 * warp's part of the tile, WARP x ITEMS elements, moves in groups of GROUP = 4: an int4, one
 * 16-byte load or store where four of 4 bytes would cost four instructions. */

static const unsigned GROUP = 4;

/* The first element of this warp's part of tile `tile`. */
template <unsigned ITEMS>
__device__ size_t warp_first(unsigned tile)
{
    return ((size_t)tile * blockDim.x + threadIdx.x / WARP * WARP) * ITEMS;
}

/* Each warp's stage: its part of the tile in shared memory, in groups of four words, and a
 * group of padding per eight (staged). Blocks of THREADS threads. */
template <unsigned THREADS, unsigned ITEMS>
__device__ int4 *warp_stage()
{
    __shared__ int4 stage[THREADS / WARP][WARP * ITEMS / GROUP + WARP * ITEMS / GROUP / 8];
    return stage[threadIdx.x / WARP];
}

/* Where group s of a stage lives. A warp's 16-byte access goes in four phases of 8 lanes, each
 * free of conflicts when its lanes' groups fall in 8 places of a 128-byte row of the banks.
 * Striped, lanes take consecutive groups: they do; blocked, groups ITEMS / 4 apart: for an odd
 * ITEMS / 4 too, for an even one after kernel 3's padding, a group every 8 (but 2 ways at 24). */
template <unsigned ITEMS>
__device__ unsigned staged(unsigned s)
{
    return ITEMS / GROUP % 2 ? s : s + s / 8;
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

/* Four items x[0..3] as the words of an int4, and back. */
template <typename T>
__device__ int4 group_of(const T *x)
{
    return make_int4(to_word(x[0]), to_word(x[1]), to_word(x[2]), to_word(x[3]));
}
template <typename T>
__device__ void ungroup(int4 q, T *x)
{
    from_word(q.x, x[0]);
    from_word(q.y, x[1]);
    from_word(q.z, x[2]);
    from_word(q.w, x[3]);
}

/* The warp transpose. A warp's load is fastest striped: its load k has lane l take group
 * k WARP + l of the warp's part, 512 consecutive bytes. The scan wants the items blocked: lane
 * l's x[k] is element l ITEMS + k. So each lane stores its striped groups in the warp's stage,
 * a __syncwarp (lanes read what others wrote), and reads back its ITEMS / 4 blocked ones
 * (to_blocked; for the stores, the other way). Costs two shared accesses a group, where blocked
 * loads from memory would touch ITEMS / 4 times the sectors they use. */
template <unsigned THREADS, unsigned ITEMS, typename T>
__device__ void transpose(T x[ITEMS], bool to_blocked)
{
    int4 *stage = warp_stage<THREADS, ITEMS>();
    const unsigned lane = threadIdx.x % WARP, groups = ITEMS / GROUP;
    for (unsigned k = 0; k < groups; k++)
        stage[staged<ITEMS>(to_blocked ? k * WARP + lane : lane * groups + k)] =
            group_of(x + GROUP * k);
    __syncwarp();
    for (unsigned k = 0; k < groups; k++)
        ungroup(stage[staged<ITEMS>(to_blocked ? lane * groups + k : k * WARP + lane)],
                x + GROUP * k);
    __syncwarp(); /* every lane has read: the stage is free again */
}

/* Whether this warp's part, first..first + WARP ITEMS of p, moves in int4s: p 16-byte aligned
 * and all of it below n (all but the last part, in aligned buffers); else element by element. */
template <unsigned ITEMS>
__device__ bool in_groups(const void *p, size_t first, size_t n)
{
    return (uintptr_t)p % sizeof(int4) == 0 && first + WARP * ITEMS <= n;
}

/* The element that item k of this lane holds striped, in the warp's part from first on. */
__device__ size_t striped(size_t first, unsigned k)
{
    return first + (k / GROUP * WARP + threadIdx.x % WARP) * GROUP + k % GROUP;
}

/* This warp's part of the tile, in[first..first + WARP ITEMS) (first: warp_first), blocked into
 * x[]: x[k] = in[first + lane ITEMS + k], 0 past n. Loaded striped, a group a lane: all ITEMS / 4
 * loads are issued before the first is needed, that many 16-byte loads in flight a thread. */
template <unsigned THREADS, unsigned ITEMS, typename T>
__device__ void load_items(const T *in, size_t n, size_t first, T x[ITEMS])
{
    const unsigned lane = threadIdx.x % WARP;
    if (in_groups<ITEMS>(in, first, n))
        for (unsigned k = 0; k < ITEMS / GROUP; k++)
            ungroup(((const int4 *)(in + first))[k * WARP + lane], x + GROUP * k);
    else
        for (unsigned k = 0; k < ITEMS; k++) {
            const size_t i = striped(first, k);
            x[k] = i < n ? in[i] : 0;
        }
    transpose<THREADS, ITEMS>(x, true);
}

/* add + v[k] (blocked as load_items leaves them; left striped) to out[first + lane ITEMS + k],
 * below n: striped, so that each store of the warp writes 512 consecutive bytes. */
template <unsigned THREADS, unsigned ITEMS, typename T>
__device__ void store_items(T *out, size_t n, size_t first, T v[ITEMS], T add)
{
    const unsigned lane = threadIdx.x % WARP;
    for (unsigned k = 0; k < ITEMS; k++)
        v[k] = add + v[k];
    transpose<THREADS, ITEMS>(v, false);
    if (in_groups<ITEMS>(out, first, n))
        for (unsigned k = 0; k < ITEMS / GROUP; k++)
            ((int4 *)(out + first))[k * WARP + lane] = group_of(v + GROUP * k);
    else
        for (unsigned k = 0; k < ITEMS; k++) {
            const size_t i = striped(first, k);
            if (i < n)
                out[i] = v[k];
        }
}

/* The scan of a tile whose threads hold ITEMS consecutive items each, x[]: v[k] is the scan of
 * item k within the tile; *total: the tile's sum, in every thread. */
template <unsigned ITEMS, typename T>
__device__ void tile_scan(const T x[ITEMS], int exclusive, T v[ITEMS], T *total)
{
    /* SOLUTION BEGIN: add up the items into sum; before = block_exclusive_scan(sum, total),
     * the sum of the threads before this one; then for each item k: v[k] = before
     * (exclusive) or before + x[k] (inclusive), and before += x[k]. */
    T sum = 0;
    for (unsigned k = 0; k < ITEMS; k++)
        sum += x[k];
    T before = block_exclusive_scan(sum, total);
    for (unsigned k = 0; k < ITEMS; k++) {
        v[k] = exclusive ? before : before + x[k];
        before += x[k];
    }
    /* SOLUTION END */
}

/* ------------------------------------------------------------- 5. three phases
 * Launch 1 scans each tile on its own and stores the tile's sum; launch 2 (one block of
 * kernel 4) scans the sums, exclusive: each tile's offset; launch 3 adds each tile's offset to
 * its elements. The end of a launch is the barrier between all blocks. Costs: out is written,
 * read and written again: 4n ints moved where 2n would do, and three launches. */

/* Launch 1: the block's tile scanned into out, its sum into tile_sums[blockIdx.x]. */
__global__ void scan_tiles(const int *in, int *out, size_t n, int exclusive, int *tile_sums)
{
    const size_t first = warp_first<SCAN_ITEMS>(blockIdx.x);
    int x[SCAN_ITEMS], v[SCAN_ITEMS] = {0}, total = 0;
    load_items<SCAN_THREADS, SCAN_ITEMS>(in, n, first, x);
    /* SOLUTION BEGIN: tile_scan<SCAN_ITEMS> the items; store_items<SCAN_THREADS,
     * SCAN_ITEMS>(out, n, first, v, 0); thread 0 stores total in tile_sums[blockIdx.x]. */
    tile_scan<SCAN_ITEMS>(x, exclusive, v, &total);
    store_items<SCAN_THREADS, SCAN_ITEMS>(out, n, first, v, 0);
    if (threadIdx.x == 0)
        tile_sums[blockIdx.x] = total;
    /* SOLUTION END */
}

/* Launch 3: offsets[blockIdx.x] added to the block's tile of out. */
__global__ void scan_add_offsets(int *out, size_t n, const int *offsets)
{
    const size_t base = (size_t)blockIdx.x * blockDim.x * SCAN_ITEMS;
    /* SOLUTION BEGIN: add offsets[blockIdx.x] to out[base + k blockDim.x + threadIdx.x] for k
     * below SCAN_ITEMS, below n (consecutive threads, consecutive elements; a loop of
     * SCAN_ITEMS trips, which the compiler unrolls: every load in flight at once). */
    const int offset = offsets[blockIdx.x];
    for (unsigned k = 0; k < SCAN_ITEMS; k++) {
        const size_t i = base + (size_t)k * blockDim.x + threadIdx.x;
        if (i < n)
            out[i] += offset;
    }
    /* SOLUTION END */
}

/* ------------------------------------------------------------- 6. decoupled look-back
 * One pass (Merrill and Garland, 2016). Each tile publishes its own sum (the aggregate) as
 * soon as it has it, then looks back: it adds the aggregates of the tiles before until it
 * meets one that has published its inclusive prefix (the sum of everything up to its end);
 * then it publishes its own prefix. Two orders make it correct on a GPU. Memory: a block that
 * reads a state (scan.h's SCAN_FLAG_*) must read the sum that came with it: both travel in a
 * tile's word of 8 bytes, written by one atomic and read by one load (in two words they would
 * need a fence on either side: the handout). Scheduling: a block may only wait for blocks that
 * are running or done, so tiles are numbered in the order blocks start (an atomic ticket), not
 * by blockIdx.x. Blocks are small: while one waits for its look-back, its SM runs the others. */

/* The block's tile, drawn by thread 0 from the ticket (launch.cu zeroes it), for every
 * thread: the blocks that drew the numbers before it have started. */
__device__ unsigned draw_tile(unsigned *ticket)
{
    __shared__ unsigned tile;
    /* SOLUTION BEGIN: thread 0: tile = atomicAdd(ticket, 1); a barrier. */
    if (threadIdx.x == 0)
        tile = atomicAdd(ticket, 1u);
    __syncthreads();
    /* SOLUTION END */
    return tile;
}

/* A tile's word: the state in the low 32 bits, the sum's bits (to_word) in the high 32. */
template <typename T>
__device__ unsigned long long tile_word(T sum, unsigned state)
{
    return (unsigned long long)(unsigned)to_word(sum) << 32 | state;
}
__device__ unsigned state_of(unsigned long long word)
{
    return (unsigned)word;
}
template <typename T>
__device__ T sum_of(unsigned long long word)
{
    T x;
    from_word((int)(word >> 32), x);
    return x;
}

/* Lane 0 of a tile's warp 0: value (its aggregate or its inclusive prefix) and state
 * (SCAN_FLAG_AGGREGATE or SCAN_FLAG_PREFIX) into the tile's word, both at once. */
template <typename T>
__device__ void publish(unsigned long long *word, T value, unsigned state)
{
    /* SOLUTION BEGIN: atomicExch(word, tile_word(value, state)): one write of the 8 bytes,
     * which no block can see by halves. */
    atomicExch(word, tile_word(value, state));
    /* SOLUTION END */
}

/* The lanes up to and including the lowest lane set in `lanes` (all 32 where none is):
 * x ^ (x - 1) sets the lowest set bit of x and every bit below it. */
__device__ unsigned through_lowest(unsigned lanes)
{
    return lanes ? lanes ^ (lanes - 1) : FULL_MASK;
}

/* Between two polls of a window that is not ready: a pause of SCAN_LB_SLEEP_NS (scan.h; 0:
 * none), so that the warps that wait do not crowd the L2 slices of the newest tiles' words. */
__device__ void backoff()
{
    if (SCAN_LB_SLEEP_NS > 0)
        __nanosleep(SCAN_LB_SLEEP_NS);
}

/* Warp 0 of tile `tile` > 0: the sum of the tiles before it, in every lane. A step of the walk
 * costs a round trip to memory, so the warp looks at 32 tiles at once: in a window, lane l
 * reads the word of tile window - l (the nearest first) and the warp waits until every tile up
 * to the nearest that has published its prefix has published something; the lanes up to that
 * one each take the sum in the word they read, and a warp sum adds them. Without a prefix, the
 * window's 32 aggregates are added and the window moves 32 tiles back. The words are read
 * through a volatile pointer: a plain read in a loop may be done once (the loop never ends) or
 * served by this SM's L1 cache, which other SMs' writes do not update; a volatile one goes to
 * memory each time, 8 bytes at once. A lane keeps the word it polled: read again, it may have
 * moved on to the prefix. Lanes before tile 0 read nothing (SCAN_FLAG_NONE): tile 0, which
 * publishes its prefix at once, ends the walk before them. */
template <typename T>
__device__ T look_back(unsigned long long *tiles, unsigned tile)
{
    const volatile unsigned long long *vtiles = tiles;
    const int lane = (int)(threadIdx.x % WARP);
    T sum = 0;
    /* SOLUTION BEGIN: for window = tile - 1, step -32 (ints: the lanes' tiles go below 0): p =
     * window - lane; repeat word = vtiles[p] (SCAN_FLAG_NONE for p < 0), with __ballot_sync
     * the lanes whose state_of(word) is SCAN_FLAG_PREFIX and those whose is SCAN_FLAG_NONE,
     * counted = through_lowest(the prefix lanes), while a counted lane is NONE (backoff()
     * before the next poll). A counted lane takes sum_of<T>(word) (the others 0), and sum +=
     * their warp sum (lane 31 of warp_inclusive_scan, by __shfl_sync). Stop when a lane had a
     * prefix. */
    for (int window = (int)tile - 1;; window -= (int)WARP) {
        const int p = window - lane;
        unsigned long long word;
        unsigned prefix_lanes, counted, waiting;
        do {
            word = p >= 0 ? vtiles[p] : (unsigned long long)SCAN_FLAG_NONE;
            prefix_lanes = __ballot_sync(FULL_MASK, state_of(word) == SCAN_FLAG_PREFIX);
            counted = through_lowest(prefix_lanes);
            waiting = __ballot_sync(FULL_MASK, state_of(word) == SCAN_FLAG_NONE) & counted;
            if (waiting)
                backoff();
        } while (waiting);
        T value = 0;
        if (counted >> lane & 1)
            value = sum_of<T>(word);
        sum += __shfl_sync(FULL_MASK, warp_inclusive_scan(value), WARP - 1);
        if (prefix_lanes)
            break;
    }
    /* SOLUTION END */
    return sum;
}

/* Warp 0 of tile `tile`, whose sum is total: the tile's place in the chain. Returns the sum of
 * the tiles before it, in every lane, having published its own inclusive prefix for the tiles
 * after (lane 0 publishes). */
template <typename T>
__device__ T chain(unsigned tile, T total, unsigned long long *tiles)
{
    const unsigned lane = threadIdx.x % WARP;
    T before = 0;
    /* SOLUTION BEGIN: a tile above 0: lane 0 publishes total as its aggregate in tiles[tile],
     * and the warp looks back into before; then lane 0 of every tile publishes before + total
     * as its prefix. */
    if (tile > 0) {
        if (lane == 0)
            publish(&tiles[tile], total, SCAN_FLAG_AGGREGATE);
        before = look_back<T>(tiles, tile);
    }
    if (lane == 0)
        publish(&tiles[tile], before + total, SCAN_FLAG_PREFIX);
    /* SOLUTION END */
    return before;
}

/* The single pass over tiles of SCAN_LB_THREADS x SCAN_LB_ITEMS T (int: kernel 6; float:
 * kernel 11). */
template <typename T>
__device__ void lookback_tiles(const T *in, T *out, size_t n, int exclusive, unsigned *ticket,
                               unsigned long long *tiles)
{
    __shared__ T before_tile;
    /* SOLUTION BEGIN: tile = draw_tile(ticket); first = warp_first<SCAN_LB_ITEMS>(tile);
     * load_items<SCAN_LB_THREADS, SCAN_LB_ITEMS> and tile_scan<SCAN_LB_ITEMS>; warp 0:
     * chain(tile, total, tiles), which its lane 0 stores in before_tile; a barrier;
     * store_items<SCAN_LB_THREADS, SCAN_LB_ITEMS>(out, n, first, v, before_tile). */
    const unsigned tile = draw_tile(ticket);
    const size_t first = warp_first<SCAN_LB_ITEMS>(tile);
    T x[SCAN_LB_ITEMS], v[SCAN_LB_ITEMS], total = 0;
    load_items<SCAN_LB_THREADS, SCAN_LB_ITEMS>(in, n, first, x);
    tile_scan<SCAN_LB_ITEMS>(x, exclusive, v, &total);
    if (threadIdx.x < WARP) {
        const T before = chain(tile, total, tiles);
        if (threadIdx.x == 0)
            before_tile = before;
    }
    __syncthreads();
    store_items<SCAN_LB_THREADS, SCAN_LB_ITEMS>(out, n, first, v, before_tile);
    /* SOLUTION END */
}

/* 6. Single pass: read n, write n, and every SM at work. Costs: the chain through the tiles'
 * words (a window of 32 tiles a step), 8 bytes of scratch a tile, and each block's wait for its
 * look-back. __launch_bounds__: 1024 threads an SM (64 registers a thread), 8 blocks of 128. */
__global__ void __launch_bounds__(SCAN_LB_THREADS, 1024 / SCAN_LB_THREADS)
    scan_decoupled_lookback(const int *in, int *out, size_t n, int exclusive, unsigned *ticket,
                            unsigned long long *tiles)
{
    lookback_tiles(in, out, n, exclusive, ticket, tiles);
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
    /* SOLUTION BEGIN: for y = blockIdx.y blockDim.y + threadIdx.y, step gridDim.y
     * blockDim.y, below height: when x < width, dst[y pitch + x] = the larger of
     * src[y pitch + x] and thr. */
    for (size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y; y < height;
         y += (size_t)gridDim.y * blockDim.y)
        if (x < width) {
            const unsigned char p = src[y * pitch + x];
            dst[y * pitch + x] = p > thr ? p : thr;
        }
    /* SOLUTION END */
}

/* 8. A warp a row (the seed's "warpwise"): lane l takes pixels l, l + 32, ... of row y, so a
 * row of any width keeps its warp busy and no block straddles rows. Costs: still a byte a
 * load, and a short row leaves lanes idle. */
__global__ void threshold_warp_row(const unsigned char *src, unsigned char *dst, size_t width,
                                   size_t height, size_t pitch, unsigned char thr)
{
    const size_t y = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    const unsigned lane = threadIdx.x % WARP;
    /* SOLUTION BEGIN: when y < height: for x = lane, step WARP, below width: dst[y pitch + x]
     * = the larger of src[y pitch + x] and thr. */
    if (y < height)
        for (size_t x = lane; x < width; x += WARP) {
            const unsigned char p = src[y * pitch + x];
            dst[y * pitch + x] = p > thr ? p : thr;
        }
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: the lanes below head do byte lane; then for k = lane, step WARP, below
     * quads: uint4 q = ((const uint4 *)(s + head))[k], each of its words x, y, z, w replaced
     * by __vmaxu4(word, thr4), stored at ((uint4 *)(d + head))[k]; then the bytes from head +
     * 16 quads to width, byte head + 16 quads + lane and every WARP-th after it. */
    if (lane < head)
        d[lane] = s[lane] > thr ? s[lane] : thr;
    for (size_t k = lane; k < quads; k += WARP) {
        uint4 q = ((const uint4 *)(s + head))[k];
        q.x = __vmaxu4(q.x, thr4);
        q.y = __vmaxu4(q.y, thr4);
        q.z = __vmaxu4(q.z, thr4);
        q.w = __vmaxu4(q.w, thr4);
        ((uint4 *)(d + head))[k] = q;
    }
    for (size_t x = head + 16 * quads + lane; x < width; x += WARP)
        d[x] = s[x] > thr ? s[x] : thr;
    /* SOLUTION END */
}

/* ------------------------------------------------------------- 10. compaction
 * In compact.cu, which calls the block scan, the ticket and the chain above: part of this file,
 * included here. */
#define SCAN_CU
#include "compact.cu"

/* ------------------------------------------------------------- 11. floats
 * Kernel 6 on floats: the same tiles, the same chain, the same adds in the same order. An int
 * add is exact, so any order gives the same sums; a float add rounds, so the order is part of
 * the answer, and no test can ask for the CPU's bits. What holds is a bound: every term of
 * out[i] goes through at most d adds on its way there (the depth of the tree of adds), and
 * |out[i] - the exact sum| <= gamma_d (|x_0| + ... + |x_i|), gamma_d = d u / (1 - d u), u =
 * 2^-24. The handout counts d for this order: 2 SCAN_LB_ITEMS + 11 inside a tile, then at most
 * 7 more for each tile of the chain before (reference.c: scan_float_depth). Which prefix a tile
 * finds depends on the schedule, so the bits of out may change from run to run, in the bound. */
__global__ void __launch_bounds__(SCAN_LB_THREADS, 1024 / SCAN_LB_THREADS)
    scan_lookback_float(const float *in, float *out, size_t n, int exclusive, unsigned *ticket,
                        unsigned long long *tiles)
{
    lookback_tiles(in, out, n, exclusive, ticket, tiles);
}
