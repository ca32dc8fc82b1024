/* lab09: the distance to the nearest white pixel of a binary mask, capped, then a profile
 * of it. The table of variants, the host API that rows.c and the tests call (launch.cu),
 * and the kernels of distance.cu that launch.cu launches.
 *
 * The definition. A mask of width x height bytes, white where nonzero. For each pixel p,
 *     a(p) = min(D^2, min over white q of |p - q|^2)      (D = dmax >= 1)
 * the squared Euclidean distance to the nearest white pixel, capped at D^2: an integer,
 * exact on every variant. A white pixel nearer than D lies in the square window
 * |dx|, |dy| <= D - 1 around p, so that is the window every brute-force variant searches.
 * The profile: z(p) = table[a(p) * (DISTANCE_LUT - 1) / D^2] (integer division), a lookup
 * in a table of DISTANCE_LUT floats that the host fills (distance_set_profile). */
#ifndef DISTANCE_H
#define DISTANCE_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the seed's order (the course's lecture notes, case 3). A row: the enum
 * constant, the name (tests, --variant, bench rows, points), its launch facts, what it
 * teaches. The facts:
 *   scatter  1: white pixels write their window with atomicMin into out, filled with D^2
 *            first; 0: each output pixel is written once by one thread
 *   profile  1: out holds the profile z (float), else a (uint32) */
// clang-format off
#define DISTANCE_TABLE(X)                                          /* scatter profile */ \
    X(DISTANCE_SCATTER_ATOMIC_MIN, "scatter_atomic_min",              (1,      0), \
      "1: each white pixel atomicMins its whole window: the seed's first kernel")          \
    X(DISTANCE_SCATTER_BLOCK_SPREAD, "scatter_block_spread",          (1,      0), \
      "2: a block per pixel, its threads spread over the window: same work, new layout")   \
    X(DISTANCE_SCATTER_DISTANCE_CHECK, "scatter_distance_check",      (1,      0), \
      "3: read before the atomic, skip it when it cannot win")                           \
    X(DISTANCE_SCATTER_NEIGHBOUR_CHECK, "scatter_neighbour_check",    (1,      0), \
      "4: a white pixel with four white neighbours writes only its own 0")              \
    X(DISTANCE_SCATTER_SHRUNK_WINDOW, "scatter_shrunk_window",        (1,      0), \
      "5: each white neighbour removes a half of the window")                          \
    X(DISTANCE_GATHER_RINGS, "gather_rings",                          (0,      0), \
      "6: each black pixel searches rings of growing radius: no atomics, early stop")   \
    X(DISTANCE_EXACT_SEPARABLE, "exact_separable",                    (0,      0), \
      "7: 1D distances along rows, then a windowed minimum down columns, from a tile")  \
    X(DISTANCE_EXACT_PROFILE, "exact_profile",                        (0,      1), \
      "8: variant 7 with the profile looked up in constant memory in its last pass")
// clang-format on

enum distance_variant { DISTANCE_TABLE(LAB_ENUM) DISTANCE_VARIANTS };
static const struct lab_variant distance_variants[] = {DISTANCE_TABLE(LAB_VARIANT)};
struct distance_facts {
    unsigned scatter, profile;
};
static const struct distance_facts distance_facts[] = {DISTANCE_TABLE(LAB_FACTS)};

enum {
    DISTANCE_MAX_SIDE = 32768, /* so that positions fit 16 bits and |p - q|^2 fits 31 */
    DISTANCE_MAX_D = 32768,    /* D^2 = 2^30 at most */
    DISTANCE_LUT = 4096,       /* the profile's floats: 16 KiB of the 64 KiB of constant memory */
    DISTANCE_BX = 32,          /* the 2D blocks of the pixel kernels: a warp along a row */
    DISTANCE_BY = 8,
    DISTANCE_ROW_WARPS = 4, /* the row pass's blocks: 4 warps, a warp per band */
    DISTANCE_BAND = 256     /* the row pass's bands: 256 pixels, or 2 (D - 1) */
};

/* The column pass's blocks: 32 columns by DISTANCE_COLUMN_BAND rows (or the image's height),
 * DISTANCE_COLUMN_WARPS warps, a warp along a row; each copies its rows of g and a halo of
 * min(D - 1, DISTANCE_HALO) rows above and below into shared memory, 64 bytes a row: at most
 * 48 KiB. -D on the command line changes them (build a folder of its own to compare). */
#ifndef DISTANCE_COLUMN_BAND
#define DISTANCE_COLUMN_BAND 256
#endif
#ifndef DISTANCE_COLUMN_WARPS
#define DISTANCE_COLUMN_WARPS 8
#endif
#ifndef DISTANCE_HALO
#define DISTANCE_HALO 128
#endif
#if DISTANCE_COLUMN_BAND < 1 || DISTANCE_HALO < 0 || DISTANCE_COLUMN_WARPS < 1 || \
    DISTANCE_COLUMN_WARPS > 32 || 64 * (DISTANCE_COLUMN_BAND + 2 * DISTANCE_HALO) > 49152
#error "column pass: 1 to 32 warps, a tile of 64 (DISTANCE_COLUMN_BAND + 2 DISTANCE_HALO) <= 48 KiB"
#endif

/* Bytes of device scratch that v needs for a width x height mask and the cap dmax (0 for
 * the variants that need none, and for bad arguments): the separable variants' 1D
 * distances, 2 bytes a pixel. */
size_t distance_scratch_bytes(enum distance_variant v, unsigned width, unsigned height,
                              unsigned dmax);
/* The row pass's band: each warp of it owns `band` pixels of a row, and reads D - 1 more on
 * either side: DISTANCE_BAND, or 2 (D - 1) when that is more, so that the overlap never
 * costs more than the band. */
unsigned distance_band(unsigned dmax);

/* out = a (or z for the profile variant), width x height 4-byte values, row-major, from the
 * mask on the device (width x height bytes), with variant v and cap dmax = D. Returns
 * LAB_OK, LAB_EINVAL (bad variant, a side of 0 or over DISTANCE_MAX_SIDE, dmax 0 or over
 * DISTANCE_MAX_D, a NULL or too small buffer) with nothing written, or LAB_ECUDA.
 * Asynchronous like a launch. */
int distance(enum distance_variant v, struct gpu_buf mask, unsigned width, unsigned height,
             unsigned dmax, struct gpu_buf scratch, struct gpu_buf out);

/* The profile's table, DISTANCE_LUT floats from host memory, into constant memory (what
 * exact_profile reads). LAB_OK, LAB_EINVAL for NULL, or LAB_ECUDA. Synchronous. */
int distance_set_profile(const float *table);

/* library.cu, CUDA builds with NPP only: nppiDistanceTransformPBA_8u16u_C1R_Ctx on the same
 * mask, its 16-bit truncated distances floor(|p - q|) in out16 (width x height uint16, no
 * cap; undefined without a white pixel). distance_npp_scratch_bytes is 0 where NPP is
 * missing or refuses the size (NPP 13: a side below 64), and distance_npp then returns
 * LAB_EINVAL. */
size_t distance_npp_scratch_bytes(unsigned width, unsigned height);
int distance_npp(struct gpu_buf mask, unsigned width, unsigned height, struct gpu_buf scratch,
                 struct gpu_buf out16);

/* reference.c. The masks of the lab, drawn on the host from a seed. */
enum distance_mask {
    DISTANCE_BLOBS,  /* random discs covering about 30 % */
    DISTANCE_POINTS, /* each pixel white with probability 1 % */
    DISTANCE_LINES,  /* short thin strokes, text-like, about 5 % */
    DISTANCE_BLACK,  /* no white pixel: a = D^2 everywhere */
    DISTANCE_WHITE,  /* every pixel white: a = 0 everywhere */
    DISTANCE_MASKS
};
extern const char *const distance_mask_names[DISTANCE_MASKS]; /* "blobs", ... */
void distance_mask_fill(unsigned char *mask, unsigned width, unsigned height,
                        enum distance_mask kind, uint64_t seed);

/* The CPU references: distance_cpu, exact and linear (the separable transform: variant 7's
 * rows, then down each column the lower envelope of the parabolas (y - i)^2 + g_i^2 by
 * Meijster's algorithm, one line at a time); distance_brute, the definition itself (every white
 * pixel of the window), for small images: the tests check the one against the other. */
void distance_cpu(const unsigned char *mask, unsigned width, unsigned height, unsigned dmax,
                  uint32_t *a);
void distance_brute(const unsigned char *mask, unsigned width, unsigned height, unsigned dmax,
                    uint32_t *a);
/* The profile: the default table (a rippled ridge, not monotonic), the lookup of one a, and
 * z for n values of a. */
void distance_profile_table(float *table);
unsigned distance_profile_index(uint32_t a, unsigned dmax);
void distance_profile_cpu(const uint32_t *a, size_t n, unsigned dmax, const float *table, float *z);

#ifdef __cplusplus
}

/* distance.cu's kernels, for launch.cu. The scatter kernels read the mask and atomicMin into
 * out, which the launcher filled with D^2; gather_rings writes each pixel once; the
 * separable variants run exact_rows (g, the 1D distance along the row, capped at D, into
 * scratch; a warp per band of a row), then exact_columns or exact_columns_profile (the
 * windowed minimum down each column: blocks of 32 columns by `band` rows and
 * DISTANCE_COLUMN_WARPS warps, with band + 2 halo rows of 32 unsigned shorts of dynamic
 * shared memory, halo = min(D - 1, DISTANCE_HALO, h - 1)). */
__global__ void scatter_atomic_min(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                   unsigned *out);
__global__ void scatter_block_spread(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                     unsigned *out);
__global__ void scatter_distance_check(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                       unsigned *out);
__global__ void scatter_neighbour_check(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                        unsigned *out);
__global__ void scatter_shrunk_window(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                      unsigned *out);
__global__ void gather_rings(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                             unsigned *out);
__global__ void exact_rows(const unsigned char *mask, unsigned w, unsigned h, int dmax, int band,
                           unsigned short *g);
__global__ void exact_columns(const unsigned short *g, unsigned w, unsigned h, int dmax, int band,
                              int halo, unsigned *out);
__global__ void exact_columns_profile(const unsigned short *g, unsigned w, unsigned h, int dmax,
                                      int band, int halo, float *out);
cudaError_t distance_profile_to_constant(const float *table);
#endif
#endif
