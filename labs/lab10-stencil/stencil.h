/* lab10: stencils, where each output reads its neighbours' inputs. The table of variants, the
 * host API that rows.c and the tests call (launch.cu), and the kernels of stencil.cu that
 * launch.cu launches.
 *
 * Two problems, both on 32-bit integers so that every variant is exact:
 *   a line of n ints   adjacent difference out[i] = in[i] - in[i - 1], and a weighted
 *                      stencil out[i] = sum over |k| <= RADIUS of (k + RADIUS + 1) in[i + k];
 *                      elements outside the line count as 0 (so out[0] = in[0])
 *   a grid of cells    heat diffusion, width x height temperatures (integers: thousandths of
 *                      a degree, say), rows `pitch` elements apart. One step gives each cell
 *                      an eighth of the difference with each of its 4 neighbours, rounded
 *                      toward zero (heat_update); a neighbour outside the grid is the cell
 *                      itself, so no heat crosses the edge (insulated). Then each source
 *                      cell is set back to its fixed temperature. */
#ifndef STENCIL_H
#define STENCIL_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shapes the kernels are written for. */
enum {
    LINE_THREADS = 256, /* the line kernels' blocks */
    RADIUS = 3,         /* the weighted stencil reads 3 neighbours on either side */
    HEAT_BX = 32,       /* the heat kernels' blocks: 32 x 16 threads, a warp along a row */
    HEAT_BY = 16,
    HEAT_T_TX = 64, /* heat_temporal: a block's 64 x 32 output tile, */
    HEAT_T_TY = 32,
    HEAT_T_STEPS = 4,        /* after this many steps in shared memory, from a halo this wide */
    HEAT_ROW_ALIGN = 32,     /* heat_pitch: rows start on 128-byte lines */
    HEAT_MAX_SIDE = 65000,   /* a 2D texture over pitched memory is at most 65000 rows high */
    HEAT_MAX_SOURCES = 256,  /* fixed-temperature cells */
    HEAT_MAX_TEMP = 1 << 24, /* |temperature|: heat_update's sums stay far from overflow */
    HEAT_BENCH_STEPS = 8     /* the bench's steps per heat row: two temporal launches */
};

/* The kinds of problem (a fact of each variant). */
enum { LINE_ADJACENT, LINE_WEIGHTED, GRID_HEAT };

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its facts, what it teaches. The facts:
 *   kind   LINE_ADJACENT, LINE_WEIGHTED or GRID_HEAT: the problem it solves
 *   steps  heat steps a launch takes (0 for the lines) */
// clang-format off
#define STENCIL_TABLE(X)                                              /* kind  steps */ \
    X(ST_ADJACENT_NAIVE, "adjacent_naive",     (LINE_ADJACENT, 0),                     \
      "in[i] - in[i-1] from global memory: every input read twice")                    \
    X(ST_ADJACENT_SHARED, "adjacent_shared",   (LINE_ADJACENT, 0),                     \
      "a shared tile plus one element on its left: each input read once")              \
    X(ST_STENCIL1D_HALO, "stencil1d_halo",     (LINE_WEIGHTED, 0),                     \
      "7 weighted neighbours from a shared tile with a halo of 3 each side")           \
    X(ST_HEAT_GLOBAL, "heat_global",           (GRID_HEAT, 1),                         \
      "one heat step a launch, 5 reads through the read-only path, buffers swapped")   \
    X(ST_HEAT_SHARED, "heat_shared",           (GRID_HEAT, 1),                         \
      "a 34 x 18 shared tile with its halo: each cell read from L2 once a block")      \
    X(ST_HEAT_TEXTURE, "heat_texture",         (GRID_HEAT, 1),                         \
      "reads through a 2D texture: its clamp addressing is the insulated edge")        \
    X(ST_HEAT_TEMPORAL, "heat_temporal",       (GRID_HEAT, HEAT_T_STEPS),              \
      "4 steps a launch in shared memory: a wider halo for a quarter of the traffic")
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

/* reference.c: the CPU loops everything is checked against. heat_cpu: as heat(), scratch
 * a grid like out when steps > 1; the cells of out alone are written. */
void adjacent_cpu(const int *in, int *out, size_t n);
void stencil1d_cpu(const int *in, int *out, size_t n);
void heat_cpu(const int *in, int *out, int *scratch, size_t width, size_t height, size_t pitch,
              const struct heat_source *sources, size_t nsources, unsigned steps);

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

/* One heat step of cell c from its west, east, north and south neighbours: an eighth of each
 * difference, divided with C's rounding toward zero. (d / 8 == -(-d / 8): what a cell gains
 * from its neighbour, the neighbour loses, so the grid's sum stays the same, exactly.) */
STENCIL_SHARED int heat_update(int c, int w, int e, int n, int s)
{
    return c + (w - c) / 8 + (e - c) / 8 + (n - c) / 8 + (s - c) / 8;
}

#ifdef __cplusplus
/* stencil.cu's kernels and its copy of the sources, for launch.cu. */
#include <cuda_runtime.h>

/* heat_temporal's marker of a cell that is not a source (temperatures are within
 * +-HEAT_MAX_TEMP). */
#define HEAT_NO_SOURCE INT32_MIN

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
#endif
#endif
