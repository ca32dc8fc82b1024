/* lab02: the Mandelbrot set. Yours: the kernels; launch.cu checks the arguments and
 * launches them. Each pixel c iterates z <- z^2 + c from z = 0 and keeps the number of steps
 * before |z| > 2 (its escape count), or maxiter when it never escapes: the pixels inside the
 * set cost the most. The lesson: a 2D domain mapped onto a 2D grid, the lanes of a warp
 * that wait for their slowest, and the difference between work done and work needed. */
#include "mandelbrot.h"
#include "warp.h"

/* The escape count of c = cx + cy i in float: steps while |z|^2 <= 4 and fewer than
 * maxiter. The CPU reference writes the same operations in the same order, and the lab
 * builds with -fmad=false on a GPU (no multiply and add fused into one rounding), so every
 * backend matches it bit for bit. */
__device__ unsigned escape_count(float cx, float cy, unsigned maxiter)
{
    unsigned i = 0;
    /* SOLUTION BEGIN: z = x + y i starts at 0; while i < maxiter and x * x + y * y <= 4:
     * x, y = x * x - y * y + cx, 2 * x * y + cy (the new x in a temporary, since y needs
     * the old one), and i++. Write it in this order: the reference does. */
    float x = 0.0f, y = 0.0f;
    while (i < maxiter && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
    }
    /* SOLUTION END */
    return i;
}

/* 1. One thread per pixel on a 2D grid of 2D blocks: x from blockIdx.x and threadIdx.x,
 * y from blockIdx.y and threadIdx.y, so the index arithmetic is the image's own. The grid
 * covers the image with partial blocks at the right and bottom edges, whose threads past
 * the image do nothing. Costs: a warp runs until its slowest lane escapes, so a warp that
 * straddles the set's edge pays maxiter steps for all 32 lanes. */
__global__ void mandelbrot_per_pixel(unsigned *counts, struct mandelbrot_frame f)
{
    /* SOLUTION BEGIN: px = blockIdx.x * blockDim.x + threadIdx.x; py = f.row0 + the same
     * in y (row0: the launcher's first row). For a pixel inside the image, counts[py *
     * width + px] (in size_t) = escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, maxiter). */
    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned py = f.row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (px < f.width && py < f.height)
        counts[(size_t)py * f.width + px] =
            escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);
    /* SOLUTION END */
}

/* escape_count in double: the same steps with 53-bit instead of 24-bit significands. */
__device__ unsigned escape_count_double(double cx, double cy, unsigned maxiter)
{
    unsigned i = 0;
    /* SOLUTION BEGIN: escape_count's loop with doubles (the constants 4.0 and 2.0). */
    double x = 0.0, y = 0.0;
    while (i < maxiter && x * x + y * y <= 4.0) {
        double t = x * x - y * y + cx;
        y = 2.0 * x * y + cy;
        x = t;
        i++;
    }
    /* SOLUTION END */
    return i;
}

/* 3. Double precision. In float, a view narrower than about 1e-5 has neighbouring pixels
 * whose c rounds to the same float: the image falls apart into flat blocks. Doubles keep
 * it sharp to about 1e-13; the cost is the FP64 rate, a half of FP32's on an H100 and a
 * sixty-fourth on a GeForce. */
__global__ void mandelbrot_per_pixel_double(unsigned *counts, struct mandelbrot_frame f)
{
    /* SOLUTION BEGIN: kernel 1's indices, with escape_count_double(f.x0d + px * f.dxd,
     * f.y1d - py * f.dyd, maxiter). */
    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned py = f.row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (px < f.width && py < f.height)
        counts[(size_t)py * f.width + px] =
            escape_count_double(f.x0d + px * f.dxd, f.y1d - py * f.dyd, f.maxiter);
    /* SOLUTION END */
}

/* Whether c lies in the main cardioid or the period-2 bulb, where every orbit stays
 * bounded: the two largest parts of the set, found by formula. */
__device__ int in_cardioid_or_bulb(float cx, float cy)
{
    int inside = 0;
    /* SOLUTION BEGIN: with xq = cx - 0.25 and q = xq^2 + cy^2, the cardioid is q (q + xq)
     * <= cy^2 / 4; the bulb is (cx + 1)^2 + cy^2 <= 1/16. */
    float xq = cx - 0.25f, q = xq * xq + cy * cy;
    inside = q * (q + xq) <= 0.25f * cy * cy || (cx + 1.0f) * (cx + 1.0f) + cy * cy <= 0.0625f;
    /* SOLUTION END */
    return inside;
}

/* 4. Interior tests: the pixels of the cardioid and the bulb get maxiter after a dozen
 * instructions instead of maxiter steps. Useful work is unchanged (their count is
 * maxiter either way), the work done falls: in the whole-set view most interior pixels are
 * there. Costs a few instructions for the pixels outside, and nothing for the rest of the
 * interior (the bulbs further out still iterate). */
__global__ void mandelbrot_interior_tests(unsigned *counts, struct mandelbrot_frame f)
{
    /* SOLUTION BEGIN: kernel 1, with maxiter for a pixel in_cardioid_or_bulb. */
    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned py = f.row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (px < f.width && py < f.height) {
        float cx = f.x0 + px * f.dx, cy = f.y1 - py * f.dy;
        counts[(size_t)py * f.width + px] =
            in_cardioid_or_bulb(cx, cy) ? f.maxiter : escape_count(cx, cy, f.maxiter);
    }
    /* SOLUTION END */
}

/* escape_count that also watches for a cycle, Brent's way: z is saved at steps 1, 2, 4, 8,
 * ..., and a z equal to the saved one means the orbit repeats (a float orbit that repeats
 * once repeats for ever: each step is a function of z alone), so it never escapes. A cycle
 * of period p after a tail of t steps is caught by step 3 max(p, t) at the latest (the
 * first save at a power of two past both, then p steps). The compare is exact, so the count
 * is always the reference's. */
__device__ unsigned escape_count_periodic(float cx, float cy, unsigned maxiter)
{
    unsigned i = 0;
    /* SOLUTION BEGIN: escape_count's loop, with a saved sx, sy (0 at first) and the next
     * step at which to save (1 at first). After each step: when x == sx and y == sy, return
     * maxiter; when i equals the next step, save x, y and double the next step. */
    unsigned next = 1;
    float x = 0.0f, y = 0.0f, sx = 0.0f, sy = 0.0f;
    while (i < maxiter && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
        if (x == sx && y == sy)
            return maxiter;
        if (i == next) {
            sx = x;
            sy = y;
            next *= 2;
        }
    }
    /* SOLUTION END */
    return i;
}

/* 5. Periodicity: interior pixels whose orbit settles on a cycle stop once it repeats,
 * wherever they are in the set. Costs two compares per step for every pixel, outside ones
 * included, and a pixel that converges slowly (near the boundary) still runs to maxiter. */
__global__ void mandelbrot_periodicity(unsigned *counts, struct mandelbrot_frame f)
{
    /* SOLUTION BEGIN: kernel 1 with escape_count_periodic. */
    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned py = f.row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (px < f.width && py < f.height)
        counts[(size_t)py * f.width + px] =
            escape_count_periodic(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);
    /* SOLUTION END */
}

/* The tiles of kernels 6 and 7: 8x4 pixels each, numbered row after row of tiles. A warp
 * draws its next tile from the counter *next_tile (lane 0's atomicAdd, shared with the
 * other lanes by a shuffle) and each lane gets its pixel of it; 0 when no tile is left.
 * The pixel may lie past the image's edge (a partial tile). Every lane of the warp must
 * call it together. */
__device__ int next_pixel(unsigned *next_tile, struct mandelbrot_frame f, unsigned *px,
                          unsigned *py)
{
    unsigned lane = threadIdx.x % 32, across = (f.width + 7) / 8, tile = 0;
    int given = 0;
    /* SOLUTION BEGIN: lane 0: tile = atomicAdd(next_tile, 1); tile = __shfl_sync(FULL_MASK,
     * tile, 0); when tile < across x (height / 4 rounded up), the lane's pixel is px =
     * (tile % across) * 8 + lane % 8, py = (tile / across) * 4 + lane / 8, and given = 1. */
    if (lane == 0)
        tile = atomicAdd(next_tile, 1u);
    tile = __shfl_sync(FULL_MASK, tile, 0);
    if (tile < across * ((f.height + 3) / 4)) {
        *px = tile % across * 8 + lane % 8;
        *py = tile / across * 4 + lane / 8;
        given = 1;
    }
    /* SOLUTION END */
    return given;
}

/* 6. Persistent threads: a grid that fills the GPU once; each warp takes tiles from the
 * counter (next_pixel) until none are left. A warp that drew cheap tiles takes more, so
 * no SM idles while another finishes the costly middle of the image, and a tile's 32
 * lanes are close together in the plane, so they tend to escape together. Costs an atomic
 * per tile and a counter that must be zero at each launch (the launcher resets it).
 * Launched with 1D blocks, a multiple of 32. */
__global__ void mandelbrot_persistent_tiles(unsigned *counts, struct mandelbrot_frame f,
                                            unsigned *next_tile)
{
    unsigned px, py;
    /* SOLUTION BEGIN: while next_pixel gives the lane a pixel: kernel 1's count for it when
     * it is in the image. */
    while (next_pixel(next_tile, f, &px, &py))
        if (px < f.width && py < f.height)
            counts[(size_t)py * f.width + px] =
                escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);
    /* SOLUTION END */
}

/* 7. The ideas together: kernel 6's tiles from the counter, kernel 4's formula for the
 * cardioid and the bulb, kernel 5's cycle check for the rest of the interior. Each removes
 * a different waste (the costliest pixels, the smaller bulbs, SMs left idle), so their
 * gains multiply. Costs what each costs; launched like kernel 6. (A lane that takes a new
 * pixel as soon as its own is done, instead of a warp per tile, was measured slower on the
 * H100: 2.7 ms against 1.7 ms, its bookkeeping costing more than the waits it saves.) */
__global__ void mandelbrot_combined(unsigned *counts, struct mandelbrot_frame f,
                                    unsigned *next_tile)
{
    unsigned px, py;
    /* SOLUTION BEGIN: kernel 6's loop; a pixel's count is maxiter when in_cardioid_or_bulb,
     * else escape_count_periodic's. */
    while (next_pixel(next_tile, f, &px, &py))
        if (px < f.width && py < f.height) {
            float cx = f.x0 + px * f.dx, cy = f.y1 - py * f.dy;
            counts[(size_t)py * f.width + px] =
                in_cardioid_or_bulb(cx, cy) ? f.maxiter : escape_count_periodic(cx, cy, f.maxiter);
        }
    /* SOLUTION END */
}
