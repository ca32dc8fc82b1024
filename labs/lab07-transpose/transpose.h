/* lab07: matrix transpose, out[c][r] = in[r][c]. The table of variants, the host API that
 * rows.c and the tests call (launch.cu), and what transpose.cu gives launch.cu. Matrices are
 * row-major on the device: `in` has `height` rows of `width` elements, its transpose has
 * `width` rows of `height` elements. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shapes the kernels are written for. */
enum {
    TILE = 32,        /* a tile's side: one warp spans a tile row */
    BLOCK_ROWS = 8,   /* 32 x 8 threads a block: TILE / BLOCK_ROWS = 4 rows each */
    SHUFFLE_ROWS = 8, /* rows of its column that one lane of the shuffle loads */
    WIDE = 64,        /* the tiled_64 variants' tile side */
    WIDE_ROWS = 16    /* and their 32 x 16 threads: 8 elements each */
};

/* The transposes this lab compares, each a kernel named for its idea: floats, then 8-bit
 * images. A row: the enum constant, the name (tests, --variant, bench rows, points), its
 * launch facts, what it teaches. The facts:
 *   elem      bytes per element
 *   copy      1: out = in, a copy in the transpose's shape (the ceiling to chase)
 *   tile      the columns and rows of in that a block covers
 *   threads   the block: x, y
 *   over_out  1: the grid lies over out, not over in */
// clang-format off
#define TR_SHUFFLE_TILE (BLOCK_ROWS * SHUFFLE_ROWS)
#define TRANSPOSE_TABLE(X)   /* elem copy       tile                threads      over_out */ \
    X(TR_COPY, "copy",            (4, 1,   TILE, TILE,           TILE, BLOCK_ROWS, 0),   \
      "a copy with a transpose's tiles and threads: the ceiling")                         \
    X(TR_COPY_SHARED, "copy_shared", (4, 1, TILE, TILE,          TILE, BLOCK_ROWS, 0),   \
      "the same copy through a shared-memory tile")                                       \
    X(TR_NAIVE_ROWS, "naive_rows", (4, 0,  TILE, TILE,           TILE, BLOCK_ROWS, 0),   \
      "a thread per element: coalesced reads, strided writes")                            \
    X(TR_NAIVE_COLS, "naive_cols", (4, 0,  TILE, TILE,           TILE, BLOCK_ROWS, 1),   \
      "its twin: strided reads, coalesced writes")                                        \
    X(TR_TILED, "tiled",          (4, 0,   TILE, TILE,           TILE, BLOCK_ROWS, 0),   \
      "a 32x32 shared tile: coalesced both ways, bank conflicts")                         \
    X(TR_TILED_PADDED, "tiled_padded", (4, 0, TILE, TILE,        TILE, BLOCK_ROWS, 0),   \
      "the tile padded to 33 columns: no bank conflicts")                                 \
    X(TR_SHUFFLE, "shuffle",      (4, 0,   TILE, TR_SHUFFLE_TILE, TILE, BLOCK_ROWS, 0),   \
      "pairs of lanes swap halves in registers: no shared memory")                        \
    X(TR_TILED_64, "tiled_64",    (4, 0,   WIDE, WIDE,           TILE, WIDE_ROWS, 0),    \
      "a 64x64 padded tile for 32x16 threads: more bytes in flight")                      \
    X(TR_TILED_64_FLOAT2, "tiled_64_float2", (4, 0, WIDE, WIDE,  TILE, WIDE_ROWS, 0),    \
      "the same with 8-byte loads and stores")                                            \
    X(TR_U8_COPY, "u8_copy",      (1, 1,   4 * TILE, 4 * TILE,   TILE, BLOCK_ROWS, 0),   \
      "8-bit copy moving 32-bit words in 4x4-pixel blocks: the ceiling")                  \
    X(TR_U8_TILED_PADDED, "u8_tiled_padded", (1, 0, TILE, TILE,  TILE, BLOCK_ROWS, 0),   \
      "the padded tile on bytes: one byte per access")                                    \
    X(TR_U8_WORDS, "u8_words",    (1, 0,   4 * TILE, 4 * TILE,   TILE, BLOCK_ROWS, 0),   \
      "4x4-pixel blocks: 32-bit accesses, bytes transposed in registers")
// clang-format on

enum transpose_variant { TRANSPOSE_TABLE(LAB_ENUM) TR_VARIANTS };
static const struct lab_variant transpose_variants[] = {TRANSPOSE_TABLE(LAB_VARIANT)};
struct transpose_facts {
    unsigned elem, copy, tile_w, tile_h, threads_x, threads_y, over_out;
};
static const struct transpose_facts transpose_facts[] = {TRANSPOSE_TABLE(LAB_FACTS)};

/* out = transpose of in (for the copy variants: out = in) on device buffers of the
 * variant's elements. Any width and height; width * height == 0 does nothing. Returns
 * LAB_OK; LAB_EINVAL for a bad variant, a NULL or too small buffer, overlapping in and out
 * (no in-place transpose) or a size whose bytes overflow size_t; or LAB_ECUDA. Asynchronous. */
int transpose(enum transpose_variant v, struct gpu_buf in, struct gpu_buf out, size_t width,
              size_t height);

/* Occupancy, measured (the handout's last step): how many blocks of a kernel an SM holds at
 * once, and the transpose slowed down by holding fewer. */
struct transpose_occupancy {
    int blocks;      /* blocks resident on one SM (0: not even one fits) */
    double fraction; /* their threads over the most an SM can hold: blocks * threads / max */
};
/* Variant v's kernel launched with `threads` threads a block and `extra` bytes of dynamic
 * shared memory a block (which the kernel leaves unused): blocks per SM, as the CUDA
 * occupancy calculator says, into *occ. LAB_OK; LAB_EINVAL for a bad variant, a NULL occ, no
 * threads or more than a block can have, or more extra bytes than transpose_extra_most
 * allows; or LAB_ECUDA. Lets the kernel take `extra` bytes, as a launch must. */
int transpose_occupancy(enum transpose_variant v, unsigned threads, size_t extra,
                        struct transpose_occupancy *occ);
/* The most dynamic shared memory one block of variant v can have besides its own (static)
 * tile, into *bytes: the device's largest block, opted in, less the tile. LAB_OK; LAB_EINVAL
 * for a bad variant or a NULL bytes; LAB_ECUDA. */
int transpose_extra_most(enum transpose_variant v, size_t *bytes);
/* transpose(TR_TILED_PADDED, ...) with `extra` bytes of dynamic shared memory a block that
 * the kernel does not touch: the same transpose from fewer blocks per SM. Same arguments and
 * codes as transpose(), and LAB_EINVAL for more than transpose_extra_most allows. */
int transpose_padded_extra(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height,
                           size_t extra);

/* library.cu, on a real GPU only: cuBLAS's transpose, cublasSgeam with alpha = 1 and
 * beta = 0, on floats. Same arguments and codes as transpose(); width and height fit an int. */
int transpose_cublas(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height);

/* reference.c: the CPU loop everything is checked against, for elements of elem bytes. */
void transpose_cpu(const void *in, void *out, size_t width, size_t height, size_t elem);

#ifdef __cplusplus
}

/* transpose.cu's kernels, for launch.cu. Those with `aligned` flags take the vector path
 * only where launch.cu found the rows aligned. */
__global__ void copy_tile(const float *__restrict__ in, float *__restrict__ out, size_t width,
                          size_t height);
__global__ void copy_shared(const float *__restrict__ in, float *__restrict__ out, size_t width,
                            size_t height);
__global__ void transpose_naive_rows(const float *__restrict__ in, float *__restrict__ out,
                                     size_t width, size_t height);
__global__ void transpose_naive_cols(const float *__restrict__ in, float *__restrict__ out,
                                     size_t width, size_t height);
__global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, size_t width,
                                size_t height);
__global__ void transpose_tiled_padded(const float *__restrict__ in, float *__restrict__ out,
                                       size_t width, size_t height);
__global__ void transpose_shuffle(const float *__restrict__ in, float *__restrict__ out,
                                  size_t width, size_t height, bool vector_stores);
__global__ void transpose_tiled_64(const float *__restrict__ in, float *__restrict__ out,
                                   size_t width, size_t height);
__global__ void transpose_tiled_64_float2(const float *__restrict__ in, float *__restrict__ out,
                                          size_t width, size_t height, bool in_aligned,
                                          bool out_aligned);
__global__ void copy_u8_words(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                              size_t width, size_t height, bool aligned);
__global__ void transpose_u8_tiled_padded(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                                          size_t width, size_t height);
__global__ void transpose_u8_words(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                                   size_t width, size_t height, bool in_aligned, bool out_aligned);

/* launch.cu gives transpose.cu's occupancy code: variant v's kernel (NULL for a bad v), and
 * permission for it to take `extra` bytes of dynamic shared memory a block (LAB_EINVAL when
 * a block cannot have that many). */
const void *variant_kernel(enum transpose_variant v);
int allow_extra_smem(const void *kernel, size_t extra);
/* transpose.cu's: tiled_padded on grid x block with `extra` bytes of dynamic shared memory a
 * block, launch.cu having checked the arguments and allowed the bytes. */
int launch_padded_extra(dim3 grid, dim3 block, const float *in, float *out, size_t width,
                        size_t height, size_t extra);
#endif
#endif
