/* lab11, kernel 10: the compaction of an image's bright pixels, kernel 6's single pass between a
 * predicate and a scatter. This file is part of scan.cu: scan.cu includes it after kernel 9
 * (and defines SCAN_CU before), because the kernel calls scan.cu's device code, kernel 4's
 * block scan and kernel 6's ticket and chain, and nvcc compiles each .cu on its own: a kernel
 * reaches only the device functions of its own file (linking device code across files, -rdc,
 * would cost the calls their inlining). Built alone, as the build does with every .cu, it is
 * empty. Yours: the scatter's rounds and the kernel. */
#ifdef SCAN_CU

/* ------------------------------------------------------------- 10. compaction
 * The indices of the pixels at or above thr, in order, in one pass: a bit for each kept pixel
 * (the predicate), the exclusive scan of the threads' counts of kept pixels (each thread's
 * first place among the kept: kernel 4's block scan and kernel 6's chain) and a store of each
 * index at its place (the scatter); the last tile's prefix is the count. Reads n bytes, writes
 * 4 bytes per pixel kept. A block of SCAN_CP_THREADS threads takes a tile of its own (scan.h),
 * each thread SCAN_CP_ITEMS x SCAN_PIXELS consecutive pixels, at most 64: two 32-bit words hold
 * a thread's predicate, a bit a pixel, and their __popc is all the scan needs. Blocks as small
 * as kernel 6's, so that an SM runs others while one waits for its look-back. */

static const unsigned CP_GROUPS = SCAN_CP_ITEMS / GROUP;       /* a thread's uint4s of 16 pixels */
static const unsigned CP_PIXELS = SCAN_PIXELS * SCAN_CP_ITEMS; /* a thread's pixels */
static const unsigned CP_WORDS = (CP_PIXELS + 31) / 32;        /* a thread's words of bits */
static const unsigned CP_STAGE = WARP * SCAN_CP_STAGE;         /* indices a warp stages a round */

/* Four pixels, a word's bytes, as four bits: bit b set where byte b is at or above thr (thr4:
 * thr in each byte). __vcmpgeu4 compares the four bytes at once, leaving 0xff in those at or
 * above; the multiply moves their top bits, 7, 15, 23 and 31, by 21, 14, 7 and 0 places, to
 * bits 28 to 31 (no two of its 16 products share a bit: no carry spoils them). */
__device__ unsigned keep_bits(unsigned word, unsigned thr4)
{
    return (__vcmpgeu4(word, thr4) & 0x80808080u) * 0x00204081u >> 28;
}

/* The 16 pixels of a uint4 as 16 bits, pixel p bit p. */
__device__ unsigned group_bits(uint4 q, unsigned thr4)
{
    return keep_bits(q.x, thr4) | keep_bits(q.y, thr4) << 4 | keep_bits(q.z, thr4) << 8 |
           keep_bits(q.w, thr4) << 12;
}

/* This lane's mask: bit p of word w for pixel first + lane CP_PIXELS + 32 w + p (first: the warp's
 * first pixel), set where it is kept (none past n). Loaded striped as kernel 6's items, a uint4 of
 * 16 pixels a lane in each load where in_groups allows, else byte by byte; then the warp
 * transposes the groups' 16 bits, not their bytes, through a stage of its own: 2 bytes a group
 * where its pixels are 16. */
__device__ void lane_mask(const unsigned char *src, size_t n, unsigned char thr, size_t first,
                          unsigned mask[CP_WORDS])
{
    __shared__ unsigned short bits[SCAN_CP_THREADS / WARP][WARP * CP_GROUPS];
    unsigned short *stage = bits[threadIdx.x / WARP];
    const unsigned lane = threadIdx.x % WARP, thr4 = thr * 0x01010101u;
    if (in_groups<CP_PIXELS>(src, first, n)) {
        uint4 q[CP_GROUPS]; /* every load issued before the first is needed */
        for (unsigned k = 0; k < CP_GROUPS; k++)
            q[k] = ((const uint4 *)(src + first))[k * WARP + lane];
        for (unsigned k = 0; k < CP_GROUPS; k++)
            stage[k * WARP + lane] = (unsigned short)group_bits(q[k], thr4);
    } else
        for (unsigned k = 0; k < CP_GROUPS; k++) {
            const size_t i = first + (size_t)(k * WARP + lane) * SCAN_PIXELS * GROUP;
            unsigned m = 0;
            for (unsigned p = 0; p < SCAN_PIXELS * GROUP; p++)
                m |= (unsigned)(i + p < n && src[i + p] >= thr) << p;
            stage[k * WARP + lane] = (unsigned short)m;
        }
    __syncwarp();
    for (unsigned w = 0; w < CP_WORDS; w++)
        mask[w] = 0;
    for (unsigned k = 0; k < CP_GROUPS; k++)
        mask[k / 2] |= (unsigned)stage[lane * CP_GROUPS + k] << 16 * (k % 2);
}

/* The scatter: the indices of this lane's kept pixels (mask, bit p of word w for pixel pixel + 32
 * w + p), from place on, to out[]. A lane's places are consecutive and the lanes' follow each
 * other, so the warp's run from lane 0's first to lane 31's last: the warp gathers its indices in
 * its stage (a word of padding every 32) and stores them from there, a lane a word, so that each
 * store of the warp writes consecutive words, where each lane storing its own would write 32 words
 * some 32 places apart. The stage holds CP_STAGE indices, and a warp may keep 4 WARP
 * SCAN_CP_ITEMS: rounds, the places from round to round + CP_STAGE in each. A lane carries its
 * mask of pixels not yet staged and its next place from round to round, so that no round walks a
 * bit an earlier one staged: a bit costs one pass of the loop, whatever the rounds. */
__device__ void scatter_kept(unsigned *out, unsigned pixel, unsigned mask[CP_WORDS], unsigned place,
                             unsigned kept)
{
    __shared__ unsigned stages[SCAN_CP_THREADS / WARP][CP_STAGE + CP_STAGE / BANKS];
    unsigned *stage = stages[threadIdx.x / WARP];
    const unsigned lane = threadIdx.x % WARP, from = __shfl_sync(FULL_MASK, place, 0),
                   to = __shfl_sync(FULL_MASK, place + kept, WARP - 1);
    /* TODO: for round = from, step CP_STAGE, below to: for each word w, while mask[w]
     * is not 0 and place below round + CP_STAGE, s = place - round: stage[s + s / BANKS] =
     * pixel + 32 w + the place of the word's lowest set bit (__ffs counts from 1), that bit
     * cleared (mask[w] &= mask[w] - 1), place + 1. A __syncwarp; for j = lane, step WARP,
     * below the round's indices (CP_STAGE, fewer in the last): out[round + j] = stage[j + j /
     * BANKS]; a __syncwarp before the next round's stores into the stage. mask and place go on
     * into the next round as they are. */
}

/* 10. The compaction: kernel 6's chain between a predicate and a scatter. Costs: a loop pass
 * per kept pixel, and 4 bytes written for each. __launch_bounds__: 1024 threads an SM, as
 * kernel 6. */
__global__ void __launch_bounds__(SCAN_CP_THREADS, 1024 / SCAN_CP_THREADS)
    compact_lookback(const unsigned char *src, size_t n, unsigned char thr, unsigned *out,
                     unsigned *count, unsigned *ticket, unsigned long long *tiles)
{
    __shared__ int before_tile;
    /* TODO: tile = draw_tile(ticket) as in kernel 6, first = SCAN_PIXELS
     * warp_first<SCAN_CP_ITEMS>(tile), the warp's first pixel; lane_mask into mask[]; kept =
     * the __popc of its words; place = block_exclusive_scan(kept, &total), the lane's first
     * place in the tile; warp 0: chain(tile, total, tiles), which its lane 0 stores in
     * before_tile, and in the last tile (gridDim.x - 1) before + total in *count; a barrier;
     * scatter_kept(out + before_tile, the lane's first pixel, first + lane CP_PIXELS, mask,
     * place, kept). */
}

#endif
