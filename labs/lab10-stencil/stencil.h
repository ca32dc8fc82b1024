/* lab10: stencils, where each output reads its neighbours' inputs. The table of variants, the
 * host API that rows.c and the tests call (launch.cu), and the kernels of stencil.cu that
 * launch.cu launches.
 *
 * Three problems, all in integers so that every variant is exact:
 *   a line of n ints   adjacent difference out[i] = in[i] - in[i - 1], and a weighted
 *                      stencil out[i] = sum over |k| <= RADIUS of (k + RADIUS + 1) in[i + k];
 *                      elements outside the line count as 0 (so out[0] = in[0])
 *   a grid of cells    heat diffusion, width x height temperatures (integers: thousandths of
 *                      a degree, say), rows `pitch` elements apart. One step gives each cell
 *                      an eighth of the difference with each of its 4 neighbours, rounded
 *                      toward zero (heat_update); a neighbour outside the grid is the cell
 *                      itself, so no heat crosses the edge (insulated). Then each source
 *                      cell is set back to its fixed temperature.
 *   an image           the Sobel operator's edge magnitude of an 8-bit grayscale image,
 *                      width x height pixels, rows `pitch` bytes apart: each pixel from its
 *                      3 x 3 window (sobel_magnitude), a pixel outside the image being the
 *                      nearest one of its edge (replicated, as a texture's clamp gives it). */
#ifndef STENCIL_H
#define STENCIL_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shapes the kernels are written for. The TUNE_ macros can be set when building, to try
 * other shapes: make lab10 bench SOLUTION=1 DEFINES="-DBACKEND_CUDA -DTUNE_HEAT_T_STEPS=8"
 * (the objects of lab10 removed first: a change of flags alone rebuilds nothing). */
#ifndef TUNE_LINE_ITEMS
#define TUNE_LINE_ITEMS 8
#endif
#ifndef TUNE_HEAT_ROWS
#define TUNE_HEAT_ROWS 4
#endif
#ifndef TUNE_HEAT_T_BY
#define TUNE_HEAT_T_BY 16
#endif
#ifndef TUNE_HEAT_T_CX
#define TUNE_HEAT_T_CX 2
#endif
#ifndef TUNE_HEAT_T_CY
#define TUNE_HEAT_T_CY 4
#endif
#ifndef TUNE_HEAT_T_STEPS
#define TUNE_HEAT_T_STEPS 4
#endif
#ifndef TUNE_HEAT_T_BLOCKS
#define TUNE_HEAT_T_BLOCKS 4
#endif
#ifndef TUNE_SOBEL_ROWS
#define TUNE_SOBEL_ROWS 4
#endif
enum {
    LINE_THREADS = 256,                    /* the line kernels' blocks */
    LINE_ITEMS = TUNE_LINE_ITEMS,          /* the tiled ones: elements a thread, */
    LINE_TILE = LINE_THREADS * LINE_ITEMS, /* a block's tile of 2048 */
    RADIUS = 3,   /* the weighted stencil reads 3 neighbours on either side */
    HEAT_BX = 32, /* the heat kernels' blocks: 32 x 8 threads, a warp along a row; */
    HEAT_BY = 8,
    HEAT_ROWS = TUNE_HEAT_ROWS,        /* the one-step kernels: a thread's cells down a column, */
    HEAT_TY = HEAT_BY * HEAT_ROWS,     /* a block's 32 x 32 */
    HEAT_T_BY = TUNE_HEAT_T_BY,        /* heat_temporal: blocks of 32 x 16 threads, */
    HEAT_T_CX = TUNE_HEAT_T_CX,        /* each with 2 x 4 cells of the tile (4 rows one under */
    HEAT_T_CY = TUNE_HEAT_T_CY,        /* the other), */
    HEAT_T_TW = HEAT_BX * HEAT_T_CX,   /* the tile, 64 x 64 */
    HEAT_T_TH = HEAT_T_BY * HEAT_T_CY, /* with its halo, */
    HEAT_T_STEPS = TUNE_HEAT_T_STEPS,  /* steps a launch at most, as wide as the halo, */
    HEAT_T_OW = HEAT_T_TW - 2 * HEAT_T_STEPS, /* around the block's output, 56 x 56 */
    HEAT_T_OH = HEAT_T_TH - 2 * HEAT_T_STEPS,
    HEAT_T_THREADS = HEAT_BX * HEAT_T_BY,
    HEAT_T_BLOCKS = TUNE_HEAT_T_BLOCKS, /* blocks an SM (registers: 32 a thread for 4) */
    HEAT_ROW_ALIGN = 32,                /* heat_pitch: rows start on 128-byte lines */
    HEAT_MAX_SIDE = 65000,   /* a 2D texture over pitched memory is at most 65000 rows high */
    HEAT_MAX_SOURCES = 256,  /* fixed-temperature cells */
    HEAT_MAX_TEMP = 1 << 24, /* |temperature|: heat_update's sums stay far from overflow */
    HEAT_BENCH_STEPS = 8,    /* the bench's steps per heat row: two temporal launches */
    SOBEL_BX = 32,           /* the Sobel kernels' blocks: 32 x 8 threads, a warp along a row; */
    SOBEL_BY = 8,
    SOBEL_ROWS = TUNE_SOBEL_ROWS,     /* a thread's pixels down a column, */
    SOBEL_TY = SOBEL_BY * SOBEL_ROWS, /* a block's 32 x 32 */
    SOBEL_ROW_ALIGN = 128,            /* sobel_pitch: rows start on 128-byte lines */
    SOBEL_MAX_SIDE = 65000            /* a texture over pitched memory: 65000 rows at most */
};

/* The kinds of problem (a fact of each variant). */
enum { LINE_ADJACENT, LINE_WEIGHTED, GRID_HEAT, IMAGE_SOBEL };

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its facts, what it teaches. The facts:
 *   kind   LINE_ADJACENT, LINE_WEIGHTED, GRID_HEAT or IMAGE_SOBEL: the problem it solves
 *   steps  heat steps a launch takes (0 for the others) */
// clang-format off
#define STENCIL_TABLE(X)                                              /* kind  steps */ \
    X(ST_ADJACENT_NAIVE, "adjacent_naive",     (LINE_ADJACENT, 0),                     \
      "in[i] - in[i-1] from global memory: every input read twice")                    \
    X(ST_ADJACENT_SHARED, "adjacent_shared",   (LINE_ADJACENT, 0),                     \
      "a shared tile, 8 elements a thread, plus one on its left: each input read once") \
    X(ST_STENCIL1D_HALO, "stencil1d_halo",     (LINE_WEIGHTED, 0),                     \
      "7 weighted neighbours from a shared tile with a halo of 3 each side")           \
    X(ST_HEAT_GLOBAL, "heat_global",           (GRID_HEAT, 1),                         \
      "one heat step a launch, 4 cells a thread, reads through the read-only path")    \
    X(ST_HEAT_SHARED, "heat_shared",           (GRID_HEAT, 1),                         \
      "a 34 x 34 shared tile with its halo: each cell read from L2 once a block")      \
    X(ST_HEAT_TEXTURE, "heat_texture",         (GRID_HEAT, 1),                         \
      "reads through a 2D texture: its clamp addressing is the insulated edge")        \
    X(ST_HEAT_TEMPORAL, "heat_temporal",       (GRID_HEAT, HEAT_T_STEPS),              \
      "4 steps a launch in shared memory, mirrored edges: a halo for less traffic")     \
    X(ST_SOBEL_SHARED, "sobel_shared",         (IMAGE_SOBEL, 0),                       \
      "Sobel edges from a 34 x 34 shared tile of bytes: a halo with its corners")      \
    X(ST_SOBEL_TEXTURE, "sobel_texture",       (IMAGE_SOBEL, 0),                       \
      "Sobel edges through a 2D texture of bytes: clamp addressing is the border")
// clang-format on

enum stencil_variant { STENCIL_TABLE(LAB_ENUM) STENCIL_VARIANTS };
static const struct lab_variant stencil_variants[] = {STENCIL_TABLE(LAB_VARIANT)};
struct stencil_facts {
    unsigned kind, steps;
};
static const struct stencil_facts stencil_facts[] = {STENCIL_TABLE(LAB_FACTS)};

/* A cell held at a fixed temperature. */
struct heat_source {
    unsigned x, y;
    int temp;
};

/* A line variant (LINE_ADJACENT or LINE_WEIGHTED) on n ints of in, into n ints of out.
 * Returns LAB_OK (n == 0 does nothing); LAB_EINVAL for a heat variant or a bad one, a NULL
 * or too small buffer, or in and out overlapping; or LAB_ECUDA. Asynchronous. */
int stencil_line(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out, size_t n);

/* The pitch (elements from a row to the next) heat() wants for a grid `width` wide: width
 * rounded up to HEAT_ROW_ALIGN, so that rows start on 128-byte lines and a texture can
 * read them. */
size_t heat_pitch(size_t width);

/* `steps` heat steps with a GRID_HEAT variant: from in (never written) into out, through
 * scratch (a third grid, for steps > 1: the launches alternate between out and scratch so
 * that the last writes out). Grids of width x height cells, `pitch` ints a row; only the
 * cells are written, never the ends of rows past width. sources: nsources cells held at
 * their temperatures (host memory; NULL when nsources == 0). Returns LAB_OK (an empty grid
 * does nothing); LAB_EINVAL for a line variant or a bad one, steps == 0, a side over
 * HEAT_MAX_SIDE, pitch < width, a NULL or too small buffer, buffers that overlap, more than
 * HEAT_MAX_SOURCES sources, one outside the grid, two on one cell, a temperature past
 * HEAT_MAX_TEMP, or for heat_texture a pitch or a buffer that a texture cannot take (rows
 * and starts aligned to the device's texture pitch alignment: heat_pitch's pitch and
 * gpu_alloc's buffers are); or LAB_ECUDA. Asynchronous, but for heat_texture, which waits
 * for its launches before destroying its texture objects. */
int heat(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out, struct gpu_buf scratch,
         size_t width, size_t height, size_t pitch, const struct heat_source *sources,
         size_t nsources, unsigned steps);

/* The pitch (bytes from a row to the next) sobel() wants for an image `width` pixels wide:
 * width rounded up to SOBEL_ROW_ALIGN, so that rows start on 128-byte lines and a texture
 * can read them. */
size_t sobel_pitch(size_t width);

/* The Sobel edge magnitude with an IMAGE_SOBEL variant: from the 8-bit image in (width x
 * height pixels, rows `pitch` bytes apart; never written) into out, of the same shape: each
 * pixel sobel_magnitude of its 3 x 3 window, a pixel outside the image being the nearest
 * pixel of its edge. Only the pixels are written, never the ends of rows past width.
 * Returns LAB_OK (an empty image does nothing); LAB_EINVAL for another variant or a bad one,
 * a side over SOBEL_MAX_SIDE, pitch < width, a NULL or too small buffer, in and out
 * overlapping, or for sobel_texture a pitch or a start that a texture cannot take (aligned
 * to the device's texture pitch alignment: sobel_pitch's pitch and gpu_alloc's buffers
 * are); or LAB_ECUDA. Asynchronous, but for sobel_texture, which waits for its launch before
 * destroying its texture object. */
int sobel(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out, size_t width,
          size_t height, size_t pitch);

/* library.cu, CUDA builds with NPP only: nppiGradientVectorSobelBorder_8u16s_C1R_Ctx on the
 * same image (3 x 3 masks, L1 norm, replicated border), its magnitude |Sx| + |Sy| as int16
 * into mag16, rows `pitch` int16s apart (2 x pitch bytes), neither scaled nor capped: the
 * bench checks min(255, mag / 4) against the reference. sobel_npp_bytes: the bytes mag16
 * needs for `height` rows, or 0 where this build has no NPP (sobel_npp then returns
 * LAB_EINVAL). Asynchronous. */
size_t sobel_npp_bytes(size_t pitch, size_t height);
int sobel_npp(struct gpu_buf in, struct gpu_buf mag16, size_t width, size_t height, size_t pitch);

/* reference.c: the CPU loops everything is checked against. heat_cpu: as heat(), scratch
 * a grid like out when steps > 1; the cells of out alone are written. sobel_cpu: as
 * sobel(), the masks written out. */
void adjacent_cpu(const int *in, int *out, size_t n);
void stencil1d_cpu(const int *in, int *out, size_t n);
void heat_cpu(const int *in, int *out, int *scratch, size_t width, size_t height, size_t pitch,
              const struct heat_source *sources, size_t nsources, unsigned steps);
void sobel_cpu(const unsigned char *in, unsigned char *out, size_t width, size_t height,
               size_t pitch);

#ifdef __cplusplus
}
#endif

/* The arithmetic the kernels and the reference share: C on the host, __host__ __device__ in
 * the .cu files. */
#ifdef __CUDACC__
#define STENCIL_SHARED __host__ __device__ static inline
#else
#define STENCIL_SHARED static inline
#endif

/* The weighted stencil's weight of in[i + k], |k| <= RADIUS: 1 to 7, all different, so that
 * a neighbour taken from the wrong side shows. */
STENCIL_SHARED int line_weight(int k)
{
    return k + RADIUS + 1;
}

/* d / 8 rounded toward zero, as C's d / 8, for |d| < 2^29 (heat_update's differences are
 * within 2^25): a negative d of that size has 111 in its top 3 bits, so adding them (the
 * unsigned shift) adds 7, and the arithmetic shift (gcc's and nvcc's >> of a negative int)
 * then rounds toward zero. Compiled for an H100, 2 instructions where C's / takes 3 (reference.c
 * keeps C's /, so that the tests hold this to it). */
STENCIL_SHARED int eighth(int d)
{
    return (d + (int)((unsigned)d >> 29)) >> 3;
}

/* One heat step of cell c from its west, east, north and south neighbours: an eighth of each
 * difference, rounded toward zero. (An eighth of -d is minus an eighth of d: what a cell gains
 * from its neighbour, the neighbour loses, so the grid's sum stays the same, exactly.) */
STENCIL_SHARED int heat_update(int c, int w, int e, int n, int s)
{
    return c + eighth(w - c) + eighth(e - c) + eighth(n - c) + eighth(s - c);
}

/* The Sobel magnitude of a pixel from its 3 x 3 window, given as three columns of 3 pixels
 * from top to bottom: west w, middle m and east e (w[0] is the north-west pixel, e[2] the
 * south-east one, m[1] the pixel itself, which both masks weigh 0). The masks:
 *
 *          -1  0  1                -1 -2 -1
 *     Sx = -2  0  2  (x)      Sy =  0  0  0  (y)
 *          -1  0  1                 1  2  1
 *
 * that is Sx = (e[0] + 2 e[1] + e[2]) - (w[0] + 2 w[1] + w[2]) and
 *         Sy = (w[2] + 2 m[2] + e[2]) - (w[0] + 2 m[0] + e[0]),
 * and the magnitude min(255, (|Sx| + |Sy|) / 4), in integers: a straight step of height h
 * gives h on both sides of it (|Sx| = 4 h across a vertical one), a diagonal one more, up to
 * 1530 / 4, capped at 255. |Sx| + |Sy| is NPP's L1 norm (nppiNormL1), unscaled. */
STENCIL_SHARED int sobel_magnitude(const int *w, const int *m, const int *e)
{
    int sx = e[0] + 2 * e[1] + e[2] - (w[0] + 2 * w[1] + w[2]);
    int sy = w[2] + 2 * m[2] + e[2] - (w[0] + 2 * m[0] + e[0]);
    int l1 = (sx < 0 ? -sx : sx) + (sy < 0 ? -sy : sy);
    return l1 / 4 < 255 ? l1 / 4 : 255;
}

#ifdef __cplusplus
/* stencil.cu's kernels and its copy of the sources, for launch.cu. */
#include <cuda_runtime.h>

/* heat_temporal's marker of a cell that is not a source (temperatures are within
 * +-HEAT_MAX_TEMP). */
#define HEAT_NO_SOURCE INT32_MIN
/* heat_temporal's shared memory: two buffers of its tile with a ring of padding. */
#define HEAT_T_SMEM (2 * (HEAT_T_TH + 2) * (HEAT_T_TW + 2) * sizeof(int))

cudaError_t heat_sources_to_device(const struct heat_source *sources, unsigned n);
__global__ void adjacent_naive(const int *__restrict__ in, int *__restrict__ out, size_t n);
__global__ void adjacent_shared(const int *__restrict__ in, int *__restrict__ out, size_t n);
__global__ void stencil1d_halo(const int *__restrict__ in, int *__restrict__ out, size_t n);
__global__ void heat_global(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch);
__global__ void heat_shared(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch);
__global__ void heat_texture(cudaTextureObject_t in, int *__restrict__ out, unsigned width,
                             unsigned height, size_t pitch);
__global__ void heat_temporal(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                              unsigned height, size_t pitch, unsigned steps, unsigned nsources);
__global__ void heat_reimpose(int *grid, size_t pitch, unsigned nsources);
__global__ void sobel_shared(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                             unsigned width, unsigned height, size_t pitch);
__global__ void sobel_texture(cudaTextureObject_t in, unsigned char *__restrict__ out,
                              unsigned width, unsigned height, size_t pitch);
#endif
#endif
