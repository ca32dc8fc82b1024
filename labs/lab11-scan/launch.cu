/* lab11's host API: the arguments checked against the table of scan.h, the scratch laid out,
 * then the kernels of scan.cu launched. */
#include <limits.h>
#include <stdint.h>
#include "check.h"
#include "scan.h"

static const size_t MAX_TILES = 0x7fffffff; /* a grid's x dimension */

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

static size_t tile_size(enum scan_variant v)
{
    return (size_t)scan_facts[v].threads * scan_facts[v].items;
}

/* The tiled variants' scratch, in bytes: three_phase the tiles' sums, then their exclusive
 * scan (the tiles' offsets), 4 bytes each; decoupled_lookback, lookback_float and compact
 * 8-byte words, the first the ticket's (its low 4 bytes), then one per tile (its state and
 * its sum, an int's or a float's bits). */
static size_t scratch_size(enum scan_variant v, size_t tiles)
{
    switch (v) {
    case SCAN_THREE_PHASE:
        return 2 * tiles * sizeof(int);
    case SCAN_DECOUPLED_LOOKBACK:
    case SCAN_LOOKBACK_FLOAT:
    case SCAN_COMPACT:
        return (1 + tiles) * sizeof(unsigned long long);
    default:
        return 0;
    }
}

extern "C" size_t scan_scratch_bytes(enum scan_variant v, size_t n)
{
    if ((unsigned)v >= SCAN_VARIANTS || n == 0 || div_up(n, tile_size(v)) > MAX_TILES)
        return 0;
    return scratch_size(v, div_up(n, tile_size(v)));
}

/* The scratch of a variant that needs one: there, big enough for n, and aligned to its words
 * (the look-back's are read and written 8 bytes at once). */
static int scratch_fits(enum scan_variant v, struct gpu_buf scratch, size_t n)
{
    const size_t align = v == SCAN_THREE_PHASE ? sizeof(int) : sizeof(unsigned long long);
    return scratch.ptr && scratch.bytes >= scan_scratch_bytes(v, n) &&
           (uintptr_t)scratch.ptr % align == 0;
}

static int fits(struct gpu_buf buf, size_t n)
{
    return buf.ptr && n <= buf.bytes / sizeof(int);
}

/* The one-block kernels: shared memory per their layout (Hillis and Steele's two buffers,
 * Blelloch's tile of 2B with or without a word of padding per 32). */
static int launch_one_block(enum scan_variant v, const int *in, int *out, size_t n, int exclusive)
{
    const unsigned threads = scan_facts[v].threads, tile = 2 * threads;
    switch (v) {
    case SCAN_HILLIS_STEELE:
        scan_hillis_steele<<<1, threads, 2 * threads * sizeof(int)>>>(in, out, n, exclusive);
        break;
    case SCAN_BLELLOCH:
        scan_blelloch<<<1, threads, tile * sizeof(int)>>>(in, out, n, exclusive);
        break;
    case SCAN_BLELLOCH_PADDED:
        scan_blelloch_padded<<<1, threads, (tile + tile / 32) * sizeof(int)>>>(in, out, n,
                                                                               exclusive);
        break;
    case SCAN_WARP_SHUFFLE:
        scan_warp_shuffle<<<1, threads>>>(in, out, n, exclusive);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* Three launches: the tiles and their sums; the sums' exclusive scan by one block of
 * scan_warp_shuffle; each tile's offset added back. */
static int launch_three_phase(const int *in, int *out, size_t n, int exclusive, int *scratch)
{
    const unsigned threads = scan_facts[SCAN_THREE_PHASE].threads;
    const size_t tiles = div_up(n, tile_size(SCAN_THREE_PHASE));
    int *sums = scratch, *offsets = scratch + tiles;
    scan_tiles<<<(unsigned)tiles, threads>>>(in, out, n, exclusive, sums);
    CUDA_TRY_LAUNCH();
    scan_warp_shuffle<<<1, scan_facts[SCAN_WARP_SHUFFLE].threads>>>(sums, offsets, tiles, 1);
    CUDA_TRY_LAUNCH();
    scan_add_offsets<<<(unsigned)tiles, threads>>>(out, n, offsets);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* The look-back's scratch: the ticket and the tiles' words zeroed (SCAN_FLAG_NONE) for a
 * launch of `tiles` blocks. */
struct chain {
    unsigned *ticket;
    unsigned long long *tiles;
};

static int chain_of(void *scratch, size_t tiles, struct chain *c)
{
    c->ticket = (unsigned *)scratch;
    c->tiles = (unsigned long long *)scratch + 1;
    CUDA_TRY(cudaMemsetAsync(scratch, 0, (1 + tiles) * sizeof(unsigned long long)));
    return LAB_OK;
}

/* Kernel 6 on ints, or kernel 11 on floats (the same words). */
static int launch_lookback(enum scan_variant v, const void *in, void *out, size_t n, int exclusive,
                           void *scratch)
{
    const size_t tiles = div_up(n, tile_size(v));
    const unsigned threads = scan_facts[v].threads;
    struct chain c;
    if (chain_of(scratch, tiles, &c) != LAB_OK)
        return LAB_ECUDA;
    if (v == SCAN_LOOKBACK_FLOAT)
        scan_lookback_float<<<(unsigned)tiles, threads>>>((const float *)in, (float *)out, n,
                                                          exclusive, c.ticket, c.tiles);
    else
        scan_decoupled_lookback<<<(unsigned)tiles, threads>>>((const int *)in, (int *)out, n,
                                                              exclusive, c.ticket, c.tiles);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

static int is_job(enum scan_variant v, enum scan_job job)
{
    return (unsigned)v < SCAN_VARIANTS && scan_facts[v].job == job;
}

/* What scan and scan_float check alike (4-byte elements both): LAB_OK or LAB_EINVAL; n == 0,
 * nothing to do, is LAB_OK whatever the buffers. */
static int scan_args(enum scan_variant v, enum scan_job job, enum scan_mode mode, struct gpu_buf in,
                     struct gpu_buf out, size_t n, struct gpu_buf scratch)
{
    if (!is_job(v, job) || (mode != SCAN_INCLUSIVE && mode != SCAN_EXCLUSIVE))
        return LAB_EINVAL;
    if (n == 0)
        return LAB_OK;
    if (!fits(in, n) || !fits(out, n) || div_up(n, tile_size(v)) > MAX_TILES)
        return LAB_EINVAL;
    if (scan_facts[v].grid && !scratch_fits(v, scratch, n))
        return LAB_EINVAL;
    return LAB_OK;
}

extern "C" int scan_float(enum scan_variant v, enum scan_mode mode, struct gpu_buf in,
                          struct gpu_buf out, size_t n, struct gpu_buf scratch)
{
    int status = scan_args(v, SCAN_JOB_SCAN_FLOAT, mode, in, out, n, scratch);
    if (status != LAB_OK || n == 0)
        return status;
    return launch_lookback(v, in.ptr, out.ptr, n, mode == SCAN_EXCLUSIVE, scratch.ptr);
}

extern "C" int scan(enum scan_variant v, enum scan_mode mode, struct gpu_buf in, struct gpu_buf out,
                    size_t n, struct gpu_buf scratch)
{
    int exclusive = mode == SCAN_EXCLUSIVE,
        status = scan_args(v, SCAN_JOB_SCAN, mode, in, out, n, scratch);
    if (status != LAB_OK || n == 0)
        return status;
    switch (v) {
    case SCAN_THREE_PHASE:
        return launch_three_phase((const int *)in.ptr, (int *)out.ptr, n, exclusive,
                                  (int *)scratch.ptr);
    case SCAN_DECOUPLED_LOOKBACK:
        return launch_lookback(v, in.ptr, out.ptr, n, exclusive, scratch.ptr);
    default:
        return launch_one_block(v, (const int *)in.ptr, (int *)out.ptr, n, exclusive);
    }
}

/* The thresholds' grids. threshold_pixel: 32 x block_rows threads a block, a column of blocks
 * per 32 pixels of a row, and rows of blocks down the image, at most the device's limit on
 * gridDim.y (the kernel strides past it). The warp-a-row kernels: WARP_ROWS rows a block. */
static const unsigned WARP_ROWS = 4;

static int launch_pixel(const unsigned char *src, unsigned char *dst, size_t width, size_t height,
                        size_t pitch, unsigned char thr, unsigned block_rows)
{
    int dev, max_y;
    size_t rows = div_up(height, block_rows);
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&max_y, cudaDevAttrMaxGridDimY, dev));
    dim3 block(32, block_rows),
        grid((unsigned)div_up(width, 32), (unsigned)(rows < (size_t)max_y ? rows : max_y));
    threshold_pixel<<<grid, block>>>(src, dst, width, height, pitch, thr);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int threshold(enum scan_variant v, struct gpu_buf src, struct gpu_buf dst, size_t width,
                         size_t height, size_t pitch, unsigned char thr, unsigned block_rows)
{
    const unsigned threads = 32 * WARP_ROWS; /* the table's threads */
    if (!is_job(v, SCAN_JOB_THRESHOLD) || block_rows < 1 || block_rows > 32)
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if (!src.ptr || !dst.ptr || pitch < width || height - 1 > (SIZE_MAX - width) / pitch)
        return LAB_EINVAL;
    if (src.bytes < (height - 1) * pitch + width || dst.bytes < (height - 1) * pitch + width)
        return LAB_EINVAL;
    if (div_up(width, 32) > MAX_TILES || div_up(height, WARP_ROWS) > MAX_TILES)
        return LAB_EINVAL;
    if (v == SCAN_THRESHOLD_SIMD && (uintptr_t)src.ptr % 16 != (uintptr_t)dst.ptr % 16)
        return LAB_EINVAL;
    const unsigned char *s = (const unsigned char *)src.ptr;
    unsigned char *d = (unsigned char *)dst.ptr;
    unsigned blocks = (unsigned)div_up(height, WARP_ROWS);
    switch (v) {
    case SCAN_THRESHOLD_PIXEL:
        return launch_pixel(s, d, width, height, pitch, thr, block_rows);
    case SCAN_THRESHOLD_WARP_ROW:
        threshold_warp_row<<<blocks, threads>>>(s, d, width, height, pitch, thr);
        break;
    default:
        threshold_simd<<<blocks, threads>>>(s, d, width, height, pitch, thr);
        break;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int compact(enum scan_variant v, struct gpu_buf src, size_t n, unsigned char thr,
                       struct gpu_buf out, struct gpu_buf count, struct gpu_buf scratch)
{
    const size_t tiles = div_up(n, tile_size(SCAN_COMPACT));
    struct chain c;
    if (!is_job(v, SCAN_JOB_COMPACT) || n == 0 || n > INT_MAX || !src.ptr || src.bytes < n)
        return LAB_EINVAL;
    if (!fits(out, n) || !count.ptr || count.bytes < sizeof(unsigned) ||
        !scratch_fits(v, scratch, n))
        return LAB_EINVAL;
    if (chain_of(scratch.ptr, tiles, &c) != LAB_OK)
        return LAB_ECUDA;
    compact_lookback<<<(unsigned)tiles, scan_facts[SCAN_COMPACT].threads>>>(
        (const unsigned char *)src.ptr, n, thr, (unsigned *)out.ptr, (unsigned *)count.ptr,
        c.ticket, c.tiles);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
