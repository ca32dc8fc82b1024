/* lab11: scan (prefix sums) of int32 (and float32) on the device. The table of variants, the host API that
 * rows.c and the tests call (launch.cu), and the kernels of scan.cu that launch.cu launches. */
#ifndef SCAN_H
#define SCAN_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a variant computes: a scan of ints (scan()), the seed's streaming threshold of an 8-bit
 * image (threshold()), the compaction of an image's bright pixels (compact()), or a scan of
 * floats (scan_float()). */
enum scan_job { SCAN_JOB_SCAN, SCAN_JOB_THRESHOLD, SCAN_JOB_COMPACT, SCAN_JOB_SCAN_FLOAT };

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its launch facts, what it teaches. The facts:
 *   job      what it computes (enum scan_job)
 *   threads  the block size launch.cu gives it (threshold_pixel: its width, 32 x block_rows)
 *   items    consecutive elements a thread takes (a tile is threads x items elements)
 *   grid     0: one block walks the tiles one after another, carrying the running total;
 *            1: blocks side by side (scans: joined across blocks, with scan_scratch_bytes) */
// clang-format off
#define SCAN_TABLE(X)                                       /* job threads items grid */ \
    X(SCAN_HILLIS_STEELE, "hillis_steele",           (SCAN_JOB_SCAN,      256, 1, 0), \
      "1: one block; log2(B) steps over a double buffer: n log2(B) adds")               \
    X(SCAN_BLELLOCH, "blelloch",                     (SCAN_JOB_SCAN,      256, 2, 0), \
      "2: one block; up-sweep and down-sweep: 2n adds, twice the steps")                \
    X(SCAN_BLELLOCH_PADDED, "blelloch_padded",       (SCAN_JOB_SCAN,      256, 2, 0), \
      "3: the same with a word of padding every 32: no bank conflicts")                 \
    X(SCAN_WARP_SHUFFLE, "warp_shuffle",             (SCAN_JOB_SCAN,      256, 1, 0), \
      "4: one block; __shfl_up_sync in each warp, warp totals via shared memory")       \
    X(SCAN_THREE_PHASE, "three_phase",                                                  \
      (SCAN_JOB_SCAN, SCAN_THREADS, SCAN_ITEMS, 1),                                     \
      "5: a block per tile: tile sums, their scan, added back: 3 launches, 4n ints")    \
    X(SCAN_DECOUPLED_LOOKBACK, "decoupled_lookback",                                    \
      (SCAN_JOB_SCAN, SCAN_LB_THREADS, SCAN_LB_ITEMS, 1),                               \
      "6: one pass, small tiles: each publishes state and sum in one word: 2n ints")    \
    X(SCAN_THRESHOLD_PIXEL, "threshold_pixel",       (SCAN_JOB_THRESHOLD,  32, 1, 1), \
      "7: max(pixel, t), a pixel a thread in blocks of 32 x rows")                      \
    X(SCAN_THRESHOLD_WARP_ROW, "threshold_warp_row", (SCAN_JOB_THRESHOLD, 128, 1, 1), \
      "8: a warp a row, its lanes striding along it")                                   \
    X(SCAN_THRESHOLD_SIMD, "threshold_simd",         (SCAN_JOB_THRESHOLD, 128, 16, 1), \
      "9: a warp a row, 16 pixels a lane in a uint4 by __vmaxu4")                       \
    X(SCAN_COMPACT, "compact",                                                          \
      (SCAN_JOB_COMPACT, SCAN_CP_THREADS, SCAN_PIXELS * SCAN_CP_ITEMS, 1),              \
      "10: the bright pixels' indices, in order: predicate, scan and scatter in one pass") \
    X(SCAN_LOOKBACK_FLOAT, "lookback_float",                                            \
      (SCAN_JOB_SCAN_FLOAT, SCAN_LB_THREADS, SCAN_LB_ITEMS, 1),                         \
      "11: kernel 6 on floats: rounded adds, within the bound of their order")
// clang-format on

/* The tiles of the tiled kernels: a block of THREADS threads, each scanning ITEMS consecutive
 * elements one after another (a register array), a tile of THREADS x ITEMS elements. Kernel 5
 * takes SCAN_THREADS x SCAN_ITEMS; kernels 6 and 11, the single pass, SCAN_LB_THREADS x
 * SCAN_LB_ITEMS: small blocks, so that an SM holds many and those whose look-back waits leave it
 * to the others (kernel 10's below). A bigger tile means fewer tiles to chain and more loads in
 * flight per thread, and costs registers and shared memory (each warp stages its part of the
 * tile there: 4 x THREADS x ITEMS bytes and a sixteen-byte group per eight, at most 48 KiB).
 * Elements move in groups of four (an int4), so ITEMS is a multiple of 4. To try others, build
 * with DEFS="-DSCAN_LB_THREADS=... -DSCAN_LB_ITEMS=..." (SCAN_TILE_THREADS, SCAN_TILE_ITEMS for
 * kernel 5; SCAN_CP_THREADS, SCAN_CP_ITEMS, SCAN_CP_STAGE for kernel 10): THREADS a multiple of
 * 32 up to 1024. SCAN_LB_SLEEP_NS: how long a look-back that found a tile not yet published
 * waits before it polls again (__nanosleep; 0: at once). */
#ifndef SCAN_TILE_THREADS
#define SCAN_TILE_THREADS 512
#endif
#ifndef SCAN_TILE_ITEMS
#define SCAN_TILE_ITEMS 16
#endif
#ifndef SCAN_LB_THREADS
#define SCAN_LB_THREADS 128
#endif
#ifndef SCAN_LB_ITEMS
#define SCAN_LB_ITEMS 24
#endif
#ifndef SCAN_LB_SLEEP_NS
#define SCAN_LB_SLEEP_NS 0
#endif
#define SCAN_TILE_OK(threads, items)                                                    \
    ((threads) % 32 == 0 && (threads) >= 32 && (threads) <= 1024 && (items) % 4 == 0 && \
     (items) >= 4 && 9 * (threads) * (items) / 2 <= 48 * 1024)
#if !SCAN_TILE_OK(SCAN_TILE_THREADS, SCAN_TILE_ITEMS) || \
    !SCAN_TILE_OK(SCAN_LB_THREADS, SCAN_LB_ITEMS)
#error "tile threads: 32, 64, ... 1024; items: 4, 8, 12, ...; a tile's stage in 48 KiB"
#endif
/* Kernel 10, the compaction, in small blocks as kernel 6: SCAN_CP_THREADS threads, each taking
 * SCAN_CP_ITEMS items of SCAN_PIXELS = 4 pixels (a uchar4), SCAN_PIXELS x SCAN_CP_ITEMS
 * consecutive pixels, at most 64 (a thread's predicate is one 64-bit mask): SCAN_CP_ITEMS 4, 8,
 * 12 or 16. A warp gathers its kept pixels' indices in a stage of WARP x SCAN_CP_STAGE words
 * before it stores them; where it keeps more, it goes in rounds. The default stages half a
 * warp's pixels, all it keeps at a threshold that keeps half, in one round; each index staged
 * costs 4 bytes of shared memory, at most 48 KiB a block. */
#ifndef SCAN_CP_THREADS
#define SCAN_CP_THREADS 128
#endif
#ifndef SCAN_CP_ITEMS
#define SCAN_CP_ITEMS 16
#endif
#ifndef SCAN_CP_STAGE
#define SCAN_CP_STAGE (2 * SCAN_CP_ITEMS)
#endif
#if !SCAN_TILE_OK(SCAN_CP_THREADS, SCAN_CP_ITEMS) || SCAN_CP_ITEMS > 16 || SCAN_CP_STAGE < 1 || \
    33 * (SCAN_CP_THREADS) * (SCAN_CP_STAGE) / 8 > 48 * 1024
#error "compact: SCAN_CP_ITEMS 4, 8, 12 or 16; SCAN_CP_STAGE at least 1, its stage in 48 KiB"
#endif
enum { SCAN_THREADS = SCAN_TILE_THREADS, SCAN_ITEMS = SCAN_TILE_ITEMS, SCAN_PIXELS = 4 };

enum scan_variant { SCAN_TABLE(LAB_ENUM) SCAN_VARIANTS };
static const struct lab_variant scan_variants[] = {SCAN_TABLE(LAB_VARIANT)};
struct scan_facts {
    enum scan_job job;
    unsigned threads, items, grid;
};
static const struct scan_facts scan_facts[] = {SCAN_TABLE(LAB_FACTS)};

enum scan_mode {
    SCAN_INCLUSIVE, /* out[i] = in[0] + ... + in[i] */
    SCAN_EXCLUSIVE  /* out[i] = in[0] + ... + in[i - 1]; out[0] = 0 */
};

/* The look-back's states (scan_decoupled_lookback): each tile has a 64-bit word, its state in
 * the low 32 bits and the bits of the sum that the state announces in the high 32, written
 * and read whole; launch.cu zeroes the words (SCAN_FLAG_NONE) before each launch. */
enum { SCAN_FLAG_NONE = 0, SCAN_FLAG_AGGREGATE = 1, SCAN_FLAG_PREFIX = 2 };

/* Bytes of device scratch that scan, scan_float or compact needs for n elements with variant
 * v (the tile sums of three_phase; the ticket and the tiles' words of decoupled_lookback,
 * lookback_float and compact, 8-byte aligned); 0 for the one-block variants, the thresholds,
 * n == 0 or a bad variant. */
size_t scan_scratch_bytes(enum scan_variant v, size_t n);

/* out[0..n) = the scan of in[0..n) (mode: inclusive or exclusive), int32 adds as the GPU does
 * them (the tests keep every prefix inside the int range: a signed overflow is undefined
 * in C++, and UBSan stops it on the CPU backend). out must not overlap in. n == 0 does
 * nothing. Returns LAB_OK, LAB_EINVAL (bad variant or mode, a NULL buffer or n beyond it, a
 * NULL or too small scratch where v needs one, or one not aligned to its words (4 bytes for
 * three_phase, 8 for the look-backs), more than 2^31 - 1 tiles) or LAB_ECUDA.
 * Asynchronous, like a kernel launch. */
int scan(enum scan_variant v, enum scan_mode mode, struct gpu_buf in, struct gpu_buf out, size_t n,
         struct gpu_buf scratch);

/* out[0..n) = the scan of the floats in[0..n) (mode: inclusive or exclusive) by a variant of
 * job SCAN_JOB_SCAN_FLOAT, in float adds, whose order is the kernel's: out[i] is within
 * scan_float_bound of the exact sum (reference.c), and its last bits may differ from run to
 * run. Returns, checks and scratch as scan(). Asynchronous. */
int scan_float(enum scan_variant v, enum scan_mode mode, struct gpu_buf in, struct gpu_buf out,
               size_t n, struct gpu_buf scratch);

/* library.cu, CUDA builds only: cub::DeviceScan::InclusiveSum or ExclusiveSum on the same
 * buffers. Call with temp.ptr NULL first: *temp_bytes receives the scratch CUB needs. */
int scan_cub(enum scan_mode mode, struct gpu_buf in, struct gpu_buf out, size_t n,
             struct gpu_buf temp, size_t *temp_bytes);

/* dst = max(src, thr), pixel by pixel, for 8-bit images of width x height pixels whose rows
 * start pitch bytes apart in both (pitch >= width; the bytes between width and pitch are
 * left alone). threshold_pixel runs blocks of 32 x block_rows threads (block_rows 1..32);
 * the others take block_rows = 1. Returns LAB_OK (nothing done for an empty image),
 * LAB_EINVAL (a variant of another job, NULL buffers or ones too small, pitch < width, a
 * bad block_rows; for threshold_simd, src and dst at different offsets from a 16-byte
 * boundary, whose uint4s could not both be aligned) or LAB_ECUDA. Asynchronous. */
int threshold(enum scan_variant v, struct gpu_buf src, struct gpu_buf dst, size_t width,
              size_t height, size_t pitch, unsigned char thr, unsigned block_rows);

/* The indices i < n with src[i] >= thr, in increasing order, into out[0..count) (unsigned),
 * and count into count (one unsigned on the device); out[count..n) is left alone. Returns
 * LAB_OK, LAB_EINVAL (a variant of another job, n == 0 or n > INT_MAX, NULL or too small
 * buffers or scratch: scan_scratch_bytes, scratch not 8-byte aligned) or LAB_ECUDA.
 * Asynchronous. */
int compact(enum scan_variant v, struct gpu_buf src, size_t n, unsigned char thr,
            struct gpu_buf out, struct gpu_buf count, struct gpu_buf scratch);

/* library.cu, CUDA builds only: cub::DeviceSelect::FlaggedIf over the indices, flagged by
 * src[i] >= thr, on the same buffers as compact. temp as for scan_cub. */
int compact_cub(struct gpu_buf src, size_t n, unsigned char thr, struct gpu_buf out,
                struct gpu_buf count, struct gpu_buf temp, size_t *temp_bytes);

/* reference.c: the CPU loops everything is checked against; the scan wraps as the GPU's
 * adds do; compact_cpu returns the count. */
void scan_cpu(enum scan_mode mode, const int *in, int *out, size_t n);
/* The float scan's reference, in double: sum[i], the exact sum of out[i]'s terms (to double's
 * rounding: each partial sum of n floats off by at most n 2^-53 of abs_sum[i]), and
 * abs_sum[i], the sum of their magnitudes. */
void scan_float_cpu(enum scan_mode mode, const float *in, double *sum, double *abs_sum, size_t n);
/* The depth of lookback_float's tree of adds for out[i]: the most float adds that any of its
 * terms goes through (README: "A float scan's error"), growing with i's tile by the chain. */
unsigned scan_float_depth(size_t i);
/* How far out[i] of a right float scan of n elements may lie from sum[i]: gamma_d abs_sum[i]
 * for d = scan_float_depth(i), gamma_d = d u / (1 - d u), u = 2^-24, plus what the double
 * reference's own rounding may add. */
double scan_float_bound(size_t i, size_t n, double abs_sum);
void threshold_cpu(const unsigned char *src, unsigned char *dst, size_t width, size_t height,
                   size_t pitch, unsigned char thr);
size_t compact_cpu(const unsigned char *src, size_t n, unsigned char thr, unsigned *out);

#ifdef __cplusplus
}

/* scan.cu's kernels, for launch.cu. exclusive: 0 or 1 (enum scan_mode). */
__global__ void scan_hillis_steele(const int *in, int *out, size_t n, int exclusive);
__global__ void scan_blelloch(const int *in, int *out, size_t n, int exclusive);
__global__ void scan_blelloch_padded(const int *in, int *out, size_t n, int exclusive);
__global__ void scan_warp_shuffle(const int *in, int *out, size_t n, int exclusive);
/* three_phase: each tile scanned and its sum stored; the sums scanned (exclusive) by
 * scan_warp_shuffle in one block; each tile's offset added back. */
__global__ void scan_tiles(const int *in, int *out, size_t n, int exclusive, int *tile_sums);
__global__ void scan_add_offsets(int *out, size_t n, const int *offsets);
/* decoupled_lookback: the ticket and a word per tile (state and sum), zeroed by launch.cu;
 * lookback_float: the same on floats, a float's bits in its word. */
__global__ void scan_decoupled_lookback(const int *in, int *out, size_t n, int exclusive,
                                        unsigned *ticket, unsigned long long *tiles);
__global__ void scan_lookback_float(const float *in, float *out, size_t n, int exclusive,
                                    unsigned *ticket, unsigned long long *tiles);
/* The thresholds: rows of width pixels, pitch bytes apart. */
__global__ void threshold_pixel(const unsigned char *src, unsigned char *dst, size_t width,
                                size_t height, size_t pitch, unsigned char thr);
__global__ void threshold_warp_row(const unsigned char *src, unsigned char *dst, size_t width,
                                   size_t height, size_t pitch, unsigned char thr);
__global__ void threshold_simd(const unsigned char *src, unsigned char *dst, size_t width,
                               size_t height, size_t pitch, unsigned char thr);
/* compact (compact.cu, which scan.cu includes): the look-back's scratch, as
 * decoupled_lookback's. */
__global__ void compact_lookback(const unsigned char *src, size_t n, unsigned char thr,
                                 unsigned *out, unsigned *count, unsigned *ticket,
                                 unsigned long long *tiles);

#ifdef CUDA_CPU_BACKEND
/* The CPU backend has no SIMD-in-word intrinsics (yet): CUDA's __vmaxu4 and __vcmpgeu4 (0xff
 * in each byte of a at or above b's, else 0), byte by byte. */
static __device__ inline unsigned __vmaxu4(unsigned a, unsigned b)
{
    unsigned r = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        unsigned x = (a >> shift) & 0xffu, y = (b >> shift) & 0xffu;
        r |= (x > y ? x : y) << shift;
    }
    return r;
}
static __device__ inline unsigned __vcmpgeu4(unsigned a, unsigned b)
{
    unsigned r = 0;
    for (int shift = 0; shift < 32; shift += 8)
        r |= ((a >> shift & 0xffu) >= (b >> shift & 0xffu) ? 0xffu : 0u) << shift;
    return r;
}
#endif
#endif
#endif
