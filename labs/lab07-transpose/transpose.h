/* lab07: matrix transpose, out[c][r] = in[r][c], the host API that main.c and the tests
 * call. Matrices are row-major on the device: `in` has `height` rows of `width` elements,
 * its transpose has `width` rows of `height` elements. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The float transposes this lab compares, each a kernel named for its idea. The two copy
 * variants write out = in (height x width, no transposition): the ceiling to chase. */
enum transpose_variant {
    TR_COPY,         /* copy with a transpose's tiles and threads, no transposition */
    TR_COPY_SHARED,  /* the same copy through a shared-memory tile */
    TR_NAIVE_ROWS,   /* one thread per element: coalesced reads, strided writes */
    TR_NAIVE_COLS,   /* its twin: strided reads, coalesced writes */
    TR_TILED,        /* through a 32x32 shared tile: coalesced both ways, bank conflicts */
    TR_TILED_PADDED, /* the tile padded to 33 columns: no bank conflicts */
    TR_SHUFFLE,      /* pairs of lanes swap halves in registers: no shared memory */
    TR_TILED_64,     /* a 64x64 padded tile for 32x16 threads: more bytes in flight */
    TR_TILED_64_FLOAT2, /* the same with 8-byte loads and stores */
    TR_VARIANTS
};

static const char *const transpose_names[] = {
    "copy", "copy_shared", "naive_rows", "naive_cols", "tiled", "tiled_padded", "shuffle",
    "tiled_64", "tiled_64_float2", NULL};

/* The 8-bit transposes (images): what changes when an element is one byte. */
enum transpose_u8_variant {
    TR_U8_COPY,         /* copy moving 32-bit words, 4x4-pixel blocks: the u8 ceiling */
    TR_U8_TILED_PADDED, /* the float padded tile on bytes: one byte per access */
    TR_U8_WORDS,        /* 4x4-pixel blocks: 32-bit accesses, bytes transposed in registers */
    TR_U8_VARIANTS
};

static const char *const transpose_u8_names[] = {"u8_copy", "u8_tiled_padded", "u8_words",
                                                 NULL};

/* out = transpose of in (for TR_COPY and TR_COPY_SHARED: out = in) on device buffers.
 * Any width and height; width * height == 0 does nothing. Returns LAB_OK; LAB_EINVAL for
 * a bad variant, a NULL or too small buffer, overlapping in and out (no in-place
 * transpose) or a size whose bytes overflow size_t; or LAB_ECUDA. Asynchronous. */
int transpose(enum transpose_variant v, struct gpu_buf in, struct gpu_buf out, size_t width,
              size_t height);
int transpose_u8(enum transpose_u8_variant v, struct gpu_buf in, struct gpu_buf out,
                 size_t width, size_t height);

/* library.cu, on a real GPU only: cuBLAS's transpose, cublasSgeam with alpha = 1 and
 * beta = 0. Same arguments and codes as transpose(); width and height fit an int. */
int transpose_cublas(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height);

/* reference.c: the CPU loops everything is checked against. */
void transpose_cpu(const float *in, float *out, size_t width, size_t height);
void transpose_u8_cpu(const uint8_t *in, uint8_t *out, size_t width, size_t height);

#ifdef __cplusplus
}
#endif
#endif
