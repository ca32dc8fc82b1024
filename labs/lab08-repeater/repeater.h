/* lab08: the repeater, a small pattern tiled over a huge target. The table of variants, the
 * host API that rows.c and the tests call (launch.cu), the CPU code of reference.c, and the
 * kernels of repeater.cu that launch.cu launches.
 *
 * Case 1 (tile): target[y][x] = repeater[y % rh][x % rw], a W x H target of floats, an
 * rw x rh repeater, both row-major without padding.
 * Case 2 (lattice): copies of the repeater sit at every p = a u + b v (a, b any integers,
 * u and v not parallel); a point is covered by the copy at p when 0 <= x - p.x < rw and
 * 0 <= y - p.y < rh, and the target is the mean of the non-zero repeater values of the
 * copies that cover it, 0 where there are none. The copies are visited in the order of a,
 * then b (both ascending), so every variant and the reference add in the same order, and
 * when the repeater holds integers (8-bit grey levels) every order gives the same bits. */
#ifndef REPEATER_H
#define REPEATER_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the handout's order: the seed's GPU cases 1.4-1.6 and 2.3-2.4, and one
 * beyond it. A row: the enum constant, the name (tests, --variant, bench rows, points), its
 * facts, what it teaches. The facts:
 *   lattice  0: case 1, repeat_tile; 1: case 2, repeat_lattice
 *   smem     the shared memory a block needs: 0 none, 1 the whole repeater (rw rh floats),
 *            2 a row of it and 3 more (rw + 3 floats); the launcher refuses a repeater
 *            that does not fit in a block's shared memory (LAB_EINVAL) */
// clang-format off
#define REPEATER_TABLE(X)                                   /* lattice smem */ \
    X(TILE_MODULO, "tile_modulo",                            (0,      0), \
      "1.4: a thread per point, two modulos each; rows of 32 threads read in one go")   \
    X(TILE_SHARED_MISTAKE, "tile_shared_mistake",            (0,      1), \
      "1.5: one thread copies the whole repeater to shared memory for every block: slow")\
    X(TILE_GRID_OVER_REPEATER, "tile_grid_over_repeater",    (0,      0), \
      "1.6: a thread per repeater cell, looping over the target: no modulo, strided")   \
    X(TILE_ROWS_VEC4, "tile_rows_vec4",                      (0,      2), \
      "a block per row, 16-byte stores, the phase advanced without a modulo: the fast one")\
    X(LATTICE_GATHER, "lattice_gather",                      (1,      0), \
      "2.3: a thread per target point adds the copies that cover it, in a fixed order")  \
    X(LATTICE_SCATTER_ATOMIC, "lattice_scatter_atomic",      (1,      0), \
      "2.4: a block per copy adds its cells with atomics (sum, count), then a division")\
    X(LATTICE_PERIODIC, "lattice_periodic",                  (1,      0), \
      "the target repeats: one period gathered, then tiled by tile_rows_vec4")
// clang-format on

enum repeater_variant { REPEATER_TABLE(LAB_ENUM) REPEATER_VARIANTS };
static const struct lab_variant repeater_variants[] = {REPEATER_TABLE(LAB_VARIANT)};
struct repeater_facts {
    unsigned lattice, smem;
};
static const struct repeater_facts repeater_facts[] = {REPEATER_TABLE(LAB_FACTS)};

enum {
    REPEATER_MAX_SIDE = 1 << 20,  /* W, H, rw, rh at most this */
    REPEATER_MAX_CELLS = 1 << 30, /* rw rh at most this: the kernels index it in 32 bits */
    LATTICE_MAX_COMPONENT = 511,  /* |u.x|, |u.y|, |v.x|, |v.y| at most this */
    LATTICE_MAX_CANDIDATES = 64,  /* copies that may cover one point, at most */
    TILE_THREADS_X = 32,          /* the 2D kernels' blocks: 32 x 8 */
    TILE_THREADS_Y = 8,
    ROW_THREADS = 256, /* tile_rows_vec4's and the lattice kernels' blocks */
};

/* Case 1 on device buffers with a case-1 variant v: the W x H target (width x height
 * floats from target.ptr) filled with copies of the rw x rh repeater. W or H 0: nothing
 * to do. Returns LAB_OK; LAB_EINVAL, with nothing written, for a case-2 or unknown variant,
 * a side 0 (repeater) or above REPEATER_MAX_SIDE, a repeater over REPEATER_MAX_CELLS, a buffer NULL, smaller than its floats or
 * not 4-byte aligned, or a repeater too large for v's shared memory; or LAB_ECUDA.
 * Asynchronous like a launch. */
int repeat_tile(enum repeater_variant v, struct gpu_buf target, size_t width, size_t height,
                struct gpu_buf repeater, size_t rw, size_t rh);

/* Bytes of device scratch that repeat_lattice needs with v for a W x H target: a count per
 * point for the atomic scatter, room for one period of the target (at most W x H floats)
 * for lattice_periodic, 0 for the gather. */
size_t repeat_scratch_bytes(enum repeater_variant v, size_t width, size_t height);

/* Case 2 on device buffers with a case-2 variant v, the lattice u = (ux, uy), v = (vx, vy).
 * Returns what repeat_tile returns, and LAB_EINVAL as well (nothing written) for a case-1
 * variant, u and v parallel (or zero), a component beyond LATTICE_MAX_COMPONENT, a lattice
 * so dense that more than LATTICE_MAX_CANDIDATES copies may cover a point, or a scratch
 * smaller than repeat_scratch_bytes. */
int repeat_lattice(enum repeater_variant v, struct gpu_buf target, size_t width, size_t height,
                   struct gpu_buf repeater, size_t rw, size_t rh, int ux, int uy, int vx, int vy,
                   struct gpu_buf scratch);

/* The library row, no kernel of ours: one copy of the repeater placed by cudaMemcpy2D, then
 * the filled region doubled along x, then along y, each step one 2D device-to-device copy.
 * Arguments as repeat_tile's. */
int repeat_tile_memcpy2d(struct gpu_buf target, size_t width, size_t height,
                         struct gpu_buf repeater, size_t rw, size_t rh);

/* The ceiling: cudaMemset of the W x H target to 0, a write of as many bytes. */
int repeat_memset(struct gpu_buf target, size_t width, size_t height);

/* How a lattice's copies are found (reference.c makes it, the kernels and the CPU code use
 * it). With s the sign of det = ux vy - uy vx, A(x, y) = s (vy x - vx y) and
 * B(x, y) = s (ux y - uy x) are |det| times a point's lattice coordinates: A(a u + b v) =
 * a |det|, B(a u + b v) = b |det|. The copy at a u + b v covers the point P only where
 * d = P - (a u + b v) is in the repeater, so A(d) is in [a_lo, a_hi] (its least and most
 * over the repeater's corners): a |det| is in [A(P) - a_hi, A(P) - a_lo], and likewise b. */
struct lattice {
    int ux, uy, vx, vy;
    int ax, ay, bx, by; /* A = ax x + ay y, B = bx x + by y */
    int det;            /* |ux vy - uy vx| > 0 */
    int a_lo, a_hi, b_lo, b_hi;
    int rw, rh;
    int px, py; /* the target's periods: (px, 0) and (0, py) are the shortest such vectors
                 * of the lattice, det / gcd(uy, vy) and det / gcd(ux, vx) */
};

/* The plan for u, v and an rw x rh repeater: LAB_OK, or LAB_EINVAL for the lattices
 * repeat_lattice refuses (sides checked by the caller). */
int lattice_plan(struct lattice *l, int ux, int uy, int vx, int vy, size_t rw, size_t rh);

/* The copies that may cover some point of a W x H target: a in [a0, a0 + na), b in
 * [b0, b0 + nb) (each copy's rectangle still to be checked). */
void lattice_copies(const struct lattice *l, size_t width, size_t height, long *a0, long *na,
                    long *b0, long *nb);

/* reference.c: the seed's host cases, one core. Case 1: 1.1 basic (the index and both
 * modulos at every point), 1.2 indexed (a running index), 1.2 bis (a running pointer), 1.3
 * over the repeater (a value at a time, strided writes, no modulo). Case 2: 2.1 over the
 * target (the reference), 2.2 over the copies (count: W H unsigned of scratch). */
void tile_cpu_basic(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                    size_t rh);
void tile_cpu_indexed(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                      size_t rh);
void tile_cpu_pointer(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                      size_t rh);
void tile_cpu_repeater_loop(float *target, size_t width, size_t height, const float *repeater,
                            size_t rw, size_t rh);
void lattice_cpu_target(float *target, size_t width, size_t height, const float *repeater,
                        const struct lattice *l);
void lattice_cpu_copies(float *target, unsigned *count, size_t width, size_t height,
                        const float *repeater, const struct lattice *l);

#ifdef __cplusplus
}

/* repeater.cu's kernels, for launch.cu. The 2D ones stride over rows by the whole grid, so
 * any height fits the grid's 65535 blocks in y. */
__global__ void tile_modulo(float *target, unsigned width, unsigned height, const float *repeater,
                            unsigned rw, unsigned rh);
__global__ void tile_shared_mistake(float *target, unsigned width, unsigned height,
                                    const float *repeater, unsigned rw, unsigned rh);
__global__ void tile_grid_over_repeater(float *target, unsigned width, unsigned height,
                                        const float *repeater, unsigned rw, unsigned rh);
__global__ void tile_rows_vec4(float *target, unsigned width, unsigned height,
                               const float *repeater, unsigned rw, unsigned rh);
__global__ void lattice_gather(float *target, unsigned width, unsigned height,
                               const float *repeater, struct lattice l);
__global__ void lattice_scatter_atomic(float *sum, unsigned *count, unsigned width, unsigned height,
                                       const float *repeater, struct lattice l, int a0, int b0,
                                       unsigned nb);
__global__ void lattice_normalise(float *target, const unsigned *count, size_t n);
#endif
#endif
