/* lab02: mandelbrot. The table of variants, the host API that rows.c and the tests call
 * (launch.cu), and the kernels of mandelbrot.cu that launch.cu launches. */
#ifndef MANDELBROT_H
#define MANDELBROT_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its facts, what it teaches. The one fact: dbl, 1 for
 * double precision (checked against the double reference). */
// clang-format off
#define MANDELBROT_TABLE(X) /* dbl */ \
    X(MB_PER_PIXEL, "per_pixel", (0), \
      "one thread per pixel on a 2D grid: lanes that escape early wait for the slowest") \
    X(MB_PER_PIXEL_DOUBLE, "per_pixel_double", (1), \
      "double precision: deep zooms stay sharp, at a fraction of FP32's throughput") \
    X(MB_INTERIOR_TESTS, "interior_tests", (0), \
      "the main cardioid and the period-2 bulb skipped by formula: the costliest pixels free") \
    X(MB_PERIODICITY, "periodicity", (0), \
      "an orbit that repeats exactly stops early: a compare per iteration buys the interior") \
    X(MB_PERSISTENT_TILES, "persistent_tiles", (0), \
      "one grid that fills the GPU, each warp drawing 8x4 tiles from an atomic counter") \
    X(MB_COMBINED, "combined", (0), \
      "tiles, interior tests and the cycle check in one kernel: each removes its own waste")
// clang-format on

enum mandelbrot_variant { MANDELBROT_TABLE(LAB_ENUM) MANDELBROT_VARIANTS };
static const struct lab_variant mandelbrot_variants[] = {MANDELBROT_TABLE(LAB_VARIANT)};
struct mandelbrot_facts {
    unsigned dbl;
};
static const struct mandelbrot_facts mandelbrot_facts[] = {MANDELBROT_TABLE(LAB_FACTS)};

/* The largest side of an image: every pixel's index converts exactly to a float. */
#define MANDELBROT_MAX_SIDE (1u << 24)
/* A block shape as one number (the bench's tunings): width * 1000 + height, 32x8 = 32008. */
#define MANDELBROT_SHAPE(w, h) ((w)*1000u + (h))
#define MANDELBROT_DEFAULT_SHAPE MANDELBROT_SHAPE(32u, 8u)

/* What to draw. Pixel (px, py), row 0 at the top, is the point c = (x0 + px dx) +
 * (y1 - py dy) i of the complex plane, dx = (x1 - x0) / width, dy = (y1 - y0) / height: the
 * view's left and top edges are in the image, its right and bottom edges just past it. */
struct mandelbrot_image {
    size_t width, height;
    double x0, y0, x1, y1; /* real parts x0 < x1, left to right; imaginary y0 < y1, bottom up */
    unsigned maxiter;      /* the count of a pixel that never escapes */
    unsigned shape;        /* the 2D grids' block, MANDELBROT_SHAPE(w, h), 0 the default (32x8);
                     * persistent_tiles and combined check it but launch their own 1D
                     * blocks */
};

/* What a kernel needs to place its pixels, in both precisions; the launcher and the CPU
 * reference compute it the same way (mandelbrot_frame), so that they iterate the same c. */
struct mandelbrot_frame {
    unsigned width, height, maxiter;
    unsigned row0; /* the first row of this launch: the launcher folds grids taller than 65535 */
    float x0, y1, dx, dy;
    double x0d, y1d, dxd, dyd;
};

static inline struct mandelbrot_frame mandelbrot_frame(const struct mandelbrot_image *img)
{
    struct mandelbrot_frame f;
    f.width = (unsigned)img->width;
    f.height = (unsigned)img->height;
    f.maxiter = img->maxiter;
    f.row0 = 0;
    f.x0d = img->x0;
    f.y1d = img->y1;
    f.dxd = (img->x1 - img->x0) / (double)img->width;
    f.dyd = (img->y1 - img->y0) / (double)img->height;
    f.x0 = (float)f.x0d;
    f.y1 = (float)f.y1d;
    f.dx = (float)f.dxd;
    f.dy = (float)f.dyd;
    return f;
}

/* The escape counts of img into counts (width * height unsigned, row after row): for each
 * pixel the number of steps z <- z^2 + c from z = 0 until |z| > 2, or maxiter when that
 * does not happen within maxiter steps. Returns LAB_OK, LAB_EINVAL for a bad variant, a
 * NULL img or buffer, counts too small, a side of 0 or beyond MANDELBROT_MAX_SIDE, a view
 * that is not finite or has x0 >= x1 or y0 >= y1, maxiter 0, or a shape that is not a
 * block (more than 1024 threads, a side of 0); or LAB_ECUDA. Asynchronous. */
int mandelbrot(enum mandelbrot_variant v, struct gpu_buf counts,
               const struct mandelbrot_image *img);

/* reference.c: the CPU loop everything is checked against, in float (dbl 0) or double;
 * _rows computes rows row0 .. row0 + rows - 1 only (rows.c's row on every core). */
void mandelbrot_cpu(unsigned *counts, const struct mandelbrot_image *img, int dbl);
void mandelbrot_cpu_rows(unsigned *counts, const struct mandelbrot_image *img, int dbl, size_t row0,
                         size_t rows);

/* How many of n counts differ from the reference's, *first the first of them (n when
 * none); n when a count exceeds maxiter. Every variant must match exactly, on a GPU too:
 * the kernels build with -fmad=false there (lab.mk), so that each step rounds as the
 * reference's does. */
size_t mandelbrot_mismatches(const unsigned *got, const unsigned *want, size_t n, unsigned maxiter,
                             size_t *first);

#ifdef __cplusplus
}

__global__ void mandelbrot_per_pixel(unsigned *counts, struct mandelbrot_frame f);
__global__ void mandelbrot_per_pixel_double(unsigned *counts, struct mandelbrot_frame f);
__global__ void mandelbrot_interior_tests(unsigned *counts, struct mandelbrot_frame f);
__global__ void mandelbrot_periodicity(unsigned *counts, struct mandelbrot_frame f);
__global__ void mandelbrot_persistent_tiles(unsigned *counts, struct mandelbrot_frame f,
                                            unsigned *next_tile);
__global__ void mandelbrot_combined(unsigned *counts, struct mandelbrot_frame f,
                                    unsigned *next_tile);
#endif
#endif
