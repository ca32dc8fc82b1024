/* lab09: the capped squared distance to the nearest white pixel (distance.h defines it), then
 * a profile of it. Yours: the kernels; launch.cu checks the arguments, fills out with D^2
 * for the scatter variants and launches. The lesson: the same answer from the seed's brute
 * force, which grows as D^2, down to the exact transform, two 1D searches whose cost is a
 * pixel's own distance. */
#include "distance.h"

/* The profile's table: 16 KiB of the 64 KiB of constant memory. */
__constant__ float c_profile[DISTANCE_LUT];

cudaError_t distance_profile_to_constant(const float *table)
{
    cudaError_t err = cudaSuccess;
    /* TODO: copy DISTANCE_LUT floats from table (host memory) to c_profile with
     * cudaMemcpyToSymbol, keeping its status in err. */
    return err;
}

/* The part of a square window of half-width t around (x, y) that lies in the image. */
struct window {
    int x0, x1, y0, y1; /* inclusive */
};

__device__ struct window clip(int x, int y, int t, unsigned w, unsigned h)
{
    struct window win = {max(x - t, 0), min(x + t, (int)w - 1), max(y - t, 0),
                         min(y + t, (int)h - 1)};
    return win;
}

/* This thread's pixel in a 2D grid of 2D blocks; 0 when it lies outside the image. */
__device__ int pixel_of(unsigned w, unsigned h, int *x, int *y)
{
    *x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    *y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    return *x < (int)w && *y < (int)h;
}

__device__ unsigned squared(int dx, int dy)
{
    return (unsigned)(dx * dx + dy * dy);
}

/* 1. The seed's kernel: a thread per pixel; a white one atomicMins dx^2 + dy^2 into every
 * pixel of its window, (2D - 1)^2 atomics. Teaches atomics as the way many writers share an
 * output; costs D^2 atomics per white pixel, most of which change nothing. */
__global__ void scatter_atomic_min(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                   unsigned *out)
{
    int x, y;
    if (!pixel_of(w, h, &x, &y) || !mask[(size_t)y * w + x])
        return;
    /* TODO: for every pixel (px, py) of clip(x, y, dmax - 1, w, h), atomicMin
     * out[py * w + px] with squared(px - x, py - y). */
}

/* 2. The same atomics laid out differently: a block per pixel, whose threads share out its
 * window, a warp along each row of it. Teaches that moving work between threads changes
 * nothing when the work itself is the cost; costs a block for every black pixel too, and
 * idle lanes when the window is narrower than a warp. */
__global__ void scatter_block_spread(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                     unsigned *out)
{
    int x = (int)blockIdx.x, y = (int)blockIdx.y;
    if (!mask[(size_t)y * w + x])
        return;
    /* TODO: win = clip(x, y, dmax - 1, w, h); thread (tx, ty) takes the rows
     * win.y0 + ty, stepping by blockDim.y, and in each the columns win.x0 + tx, stepping by
     * blockDim.x; atomicMin as in variant 1. */
}

/* min(*o, d) without an atomic where a plain read shows it cannot win. The read may be
 * stale (another thread's atomic lands after it): then the atomic runs for nothing, but
 * never wrongly, since values in out only go down. */
__device__ void lower_to(unsigned *o, unsigned d)
{
    /* TODO: if d < *o, atomicMin(o, d). */
}

/* The window's pixels lowered to their squared distance from (x, y), read first. */
__device__ void scatter_checked(unsigned *out, unsigned w, int x, int y, struct window win)
{
    /* TODO: variant 1's loops over win, calling lower_to. */
}

/* 3. Variant 1 reading before the atomic: a load (which caches serve) instead of an atomic
 * (which goes to L2) wherever out already holds less. What it saves depends on the mask:
 * many white pixels near each other, many atomics saved. */
__global__ void scatter_distance_check(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                       unsigned *out)
{
    int x, y;
    if (!pixel_of(w, h, &x, &y) || !mask[(size_t)y * w + x])
        return;
    scatter_checked(out, w, x, y, clip(x, y, dmax - 1, w, h));
}

/* White, or outside the image: outside, no pixel of the image lies beyond it, so it hides
 * nothing, as a white neighbour would not. */
__device__ int white_or_outside(const unsigned char *mask, unsigned w, unsigned h, int x, int y)
{
    return x < 0 || y < 0 || x >= (int)w || y >= (int)h || mask[(size_t)y * w + x];
}

/* 4. A white pixel whose four neighbours are white (or outside) is never the nearest but to
 * itself: for any other p, its neighbour one step toward p along p's larger offset is
 * nearer. So it writes its own 0 and stops. Costs four reads per white pixel; saves the
 * whole window inside the blobs. */
__global__ void scatter_neighbour_check(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                        unsigned *out)
{
    int x, y;
    if (!pixel_of(w, h, &x, &y) || !mask[(size_t)y * w + x])
        return;
    /* TODO: when white_or_outside holds at (x - 1, y), (x + 1, y), (x, y - 1) and
     * (x, y + 1), atomicMin out[y * w + x] with 0; else scatter_checked over the clipped
     * window, as variant 3. */
}

/* 5. Each white neighbour removes half the window: with (x - 1, y) white, every pixel left
 * of x is nearer to it than to (x, y), so the window starts at column x; the same on each
 * side. Four white neighbours leave the pixel itself: variant 4 is the special case. Costs
 * nothing more than variant 4; on the edges of blobs it halves or quarters the window. */
__global__ void scatter_shrunk_window(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                                      unsigned *out)
{
    int x, y;
    if (!pixel_of(w, h, &x, &y) || !mask[(size_t)y * w + x])
        return;
    /* TODO: win = clip(...); win.x0 = x when (x - 1, y) is white_or_outside,
     * win.x1 = x for (x + 1, y), win.y0 = y for (x, y - 1), win.y1 = y for (x, y + 1); then
     * scatter_checked. */
}

/* min(best, the squared distance from (x, y) to the white pixels at Chebyshev distance r:
 * the ring max(|dx|, |dy|) = r, its top and bottom rows, then its two sides, each clipped
 * to the image, so that a ring costs what it has inside the image). */
__device__ unsigned ring_min(const unsigned char *mask, unsigned w, unsigned h, int x, int y, int r,
                             unsigned best)
{
    int x0 = max(x - r, 0), x1 = min(x + r, (int)w - 1);
    int y0 = max(y - r + 1, 0), y1 = min(y + r - 1, (int)h - 1);
    /* TODO: the top row (y - r, when in the image) and the bottom row (y + r, when
     * r > 0 and in the image), from x0 to x1; then the left column (x - r) and the right one
     * (x + r, when r > 0), from y0 to y1, when in the image: where mask is white, best =
     * min(best, squared(px - x, py - y)). (r = 0: the pixel itself, once.) */
    return best;
}

/* 6. The seed's other direction: each pixel searches for white ones, and writes its answer
 * once: no atomics, no fill. Rings of growing radius: every pixel of ring r is at least r
 * away, so once best <= r^2 nothing further out can win; and none lies past the image's
 * farthest edge. Costs a search as wide as the distance: 1 pixel inside the blobs, the
 * whole window (2D - 1)^2 where there is no white. */
__global__ void gather_rings(const unsigned char *mask, unsigned w, unsigned h, int dmax,
                             unsigned *out)
{
    int x, y;
    unsigned best = (unsigned)dmax * (unsigned)dmax;
    if (!pixel_of(w, h, &x, &y))
        return;
    int reach = max(max(x, (int)w - 1 - x), max(y, (int)h - 1 - y));
    /* TODO: for r from 0 while r < dmax, r <= reach and r * r < best: best =
     * ring_min(...). */
    out[(size_t)y * w + x] = best;
}

/* 7, first pass: g = the distance along the row to the nearest white pixel, capped at D.
 * A warp per band of a row (threadIdx.y: the warp's row in the block, blockIdx.y: the
 * band), 32 pixels a step: one coalesced load of the mask, and __ballot_sync tells every
 * lane where the step's white pixels are. A sweep from the left carries the last white
 * pixel seen, one from the right the next; each starts D - 1 pixels outside the band, as
 * far as a white pixel can matter. Linear in the pixels, and every access a whole line. */
__global__ void exact_rows(const unsigned char *mask, unsigned w, unsigned h, int dmax, int band,
                           unsigned short *g)
{
    int y = (int)(blockIdx.x * blockDim.y + threadIdx.y), lane = (int)threadIdx.x;
    int x0 = (int)blockIdx.y * band, x1 = min(x0 + band, (int)w); /* the band: [x0, x1) */
    if (y >= (int)h)
        return; /* the whole warp: it shares y */
    const unsigned char *m = mask + (size_t)y * w;
    unsigned short *gy = g + (size_t)y * w;
    /* TODO: last = -dmax. For cx from max(x0 - dmax + 1, 0) below x1, step 32:
     * x = cx + lane; b = __ballot_sync(~0u, x < x1 && m[x]); the bits of b at or below
     * lane (b & (~0u >> (31 - lane))) give the nearest white at cx + 31 - __clz(bits), else
     * it is last; where x0 <= x < x1, gy[x] = min(x - nearest, dmax); when b, last = cx + 31
     * - __clz(b). __syncwarp() (the sweeps' lanes differ). Then next = x1 - 1 + dmax; for ce
     * from min(x1 + dmax - 1, w) down while ce > x0, step 32: x = ce - 32 + lane; b =
     * __ballot_sync(~0u, x >= x0 && m[x]); the bits at or above lane (b & (~0u << lane))
     * give cx + __ffs(bits) - 1 (cx = ce - 32), else next; where x0 <= x < x1, gy[x] =
     * min(gy[x], nearest - x); when b, next = cx + __ffs(b) - 1. */
}

/* The profile of a, from constant memory: every lane of a warp reads its own entry, so a
 * warp's read is as many transactions as it has different entries. */
__device__ float profile_of(unsigned a, int dmax)
{
    unsigned i = 0;
    /* TODO: i = a * (DISTANCE_LUT - 1) / dmax^2, in 64-bit integers (a * 4095
     * overflows 32 bits). */
    return c_profile[i];
}

/* The parabola of a row k rows away whose g is gk, at the pixel: k^2 + gk^2. */
__device__ unsigned rise(int k, unsigned gk)
{
    return (unsigned)(k * k) + gk * gk;
}

/* 7 and 8, second pass: a(x, y) = min over rows i of (y - i)^2 + g(x, i)^2. The cap makes
 * it a window: g is at most D, so a starts at most D^2, and a row k >= D rows away adds
 * k^2 >= D^2. So each pixel searches outward, the rows y - k and y + k for k = 1, 2, ...,
 * and stops once k^2 >= best, as the rings of step 6 do: next to a white pixel it stops at
 * once; it costs its own distance, and D where nothing white is near. A block owns 32
 * columns by `band` rows; first it copies g's rows from `halo` above its band to `halo`
 * below into shared memory, one coalesced line a warp a row (rows outside the image as D,
 * which never wins), so that the search's loads stay on chip. Past the halo (D - 1 >
 * DISTANCE_HALO) the search reads g in global memory. Writes a to out_a, or its profile to
 * out_z. */
__device__ void column_window(const unsigned short *g, unsigned w, unsigned h, int dmax, int band,
                              int halo, unsigned *out_a, float *out_z)
{
    extern __shared__ unsigned short tile[]; /* band + 2 halo rows of 32 */
    int lane = (int)threadIdx.x, x = (int)blockIdx.x * 32 + lane, rows = band + 2 * halo;
    int y0 = (int)blockIdx.y * band, y1 = min(y0 + band, (int)h), top = y0 - halo;
    /* TODO: warp threadIdx.y copies the tile's rows r = threadIdx.y, stepping by
     * blockDim.y: tile[r * 32 + lane] = g(x, top + r), or dmax where x or the row lies
     * outside the image; then a barrier (every thread of the block reaches it). */
    if (x >= (int)w)
        return;
    for (int y = y0 + (int)threadIdx.y; y < y1; y += (int)blockDim.y) {
        const unsigned short *p = tile + (y - top) * 32 + lane; /* g(x, y) */
        unsigned best = rise(0, p[0]);
        int k = 1, reach = max(y, (int)h - 1 - y);
        /* TODO: while k <= halo and k^2 < best: best = min(best, rise(k, g)) for
         * the tile's rows k above and k below p (32 k entries away); k++. Then while k <=
         * reach and k^2 < best, the same from g in global memory, for the rows y - k and
         * y + k that lie in the image. Write best as a or profile_of(best, dmax). */
    }
}

/* 7. The exact transform's second pass, writing a. */
__global__ void exact_columns(const unsigned short *g, unsigned w, unsigned h, int dmax, int band,
                              int halo, unsigned *out)
{
    column_window(g, w, h, dmax, band, halo, out, NULL);
}

/* 8. The same pass writing z = f(a) instead: the lookup fused into the last pass saves
 * writing a and reading it back (8 bytes a pixel) and a launch. */
__global__ void exact_columns_profile(const unsigned short *g, unsigned w, unsigned h, int dmax,
                                      int band, int halo, float *out)
{
    column_window(g, w, h, dmax, band, halo, NULL, out);
}
