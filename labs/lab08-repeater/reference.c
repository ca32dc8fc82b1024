/* lab08 reference: the seed's host cases on one core, and the lattice's plan that the
 * kernels share with them. */
#include <stdlib.h>
#include "repeater.h"

/* Floor and ceiling of x / d for d > 0 (C's division truncates towards 0). */
static long floor_div(long x, long d)
{
    return x / d - (x % d != 0 && x < 0);
}

static long ceil_div(long x, long d)
{
    return -floor_div(-x, d);
}

/* The least and most of c1 x + c2 y over the corners of [x0, x1] x [y0, y1]. */
static void corners(long c1, long c2, long x0, long x1, long y0, long y1, long *lo, long *hi)
{
    long v[4] = {c1 * x0 + c2 * y0, c1 * x1 + c2 * y0, c1 * x0 + c2 * y1, c1 * x1 + c2 * y1};
    *lo = *hi = v[0];
    for (int k = 1; k < 4; k++) {
        *lo = v[k] < *lo ? v[k] : *lo;
        *hi = v[k] > *hi ? v[k] : *hi;
    }
}

static int component_ok(int c)
{
    return c >= -LATTICE_MAX_COMPONENT && c <= LATTICE_MAX_COMPONENT;
}

static long gcd(long x, long y)
{
    x = x < 0 ? -x : x;
    y = y < 0 ? -y : y;
    while (y) {
        long r = x % y;
        x = y;
        y = r;
    }
    return x;
}

int lattice_plan(struct lattice *l, int ux, int uy, int vx, int vy, size_t rw, size_t rh)
{
    long det = (long)ux * vy - (long)uy * vx, s = det < 0 ? -1 : 1, lo, hi;
    long reach_a, reach_b;
    if (!component_ok(ux) || !component_ok(uy) || !component_ok(vx) || !component_ok(vy) ||
        det == 0 || rw == 0 || rh == 0 || rw > REPEATER_MAX_SIDE || rh > REPEATER_MAX_SIDE ||
        rw * rh > REPEATER_MAX_CELLS)
        return LAB_EINVAL;
    *l = (struct lattice){.ux = ux, .uy = uy, .vx = vx, .vy = vy, .rw = (int)rw, .rh = (int)rh};
    l->ax = (int)(s * vy);
    l->ay = (int)(-s * vx);
    l->bx = (int)(-s * uy);
    l->by = (int)(s * ux);
    l->det = (int)(s * det);
    /* vy u - uy v = (det, 0) and ux v - vx u = (0, det), each a multiple of its gcd */
    l->px = (int)(l->det / gcd(uy, vy));
    l->py = (int)(l->det / gcd(ux, vx));
    corners(l->ax, l->ay, 0, (long)rw - 1, 0, (long)rh - 1, &lo, &hi);
    l->a_lo = (int)lo;
    l->a_hi = (int)hi;
    reach_a = (hi - lo) / l->det + 1; /* the most integers a |det| interval of that length holds */
    corners(l->bx, l->by, 0, (long)rw - 1, 0, (long)rh - 1, &lo, &hi);
    l->b_lo = (int)lo;
    l->b_hi = (int)hi;
    reach_b = (hi - lo) / l->det + 1;
    return reach_a * reach_b <= LATTICE_MAX_CANDIDATES ? LAB_OK : LAB_EINVAL;
}

/* A copy at p touches the target when p is in [1 - rw, W - 1] x [1 - rh, H - 1]. */
void lattice_copies(const struct lattice *l, size_t width, size_t height, long *a0, long *na,
                    long *b0, long *nb)
{
    long x0 = 1 - (long)l->rw, x1 = (long)width - 1, y0 = 1 - (long)l->rh, y1 = (long)height - 1;
    long lo, hi;
    corners(l->ax, l->ay, x0, x1, y0, y1, &lo, &hi);
    *a0 = ceil_div(lo, l->det);
    *na = floor_div(hi, l->det) - *a0 + 1;
    corners(l->bx, l->by, x0, x1, y0, y1, &lo, &hi);
    *b0 = ceil_div(lo, l->det);
    *nb = floor_div(hi, l->det) - *b0 + 1;
}

/* 1.1: the index and both modulos at every point. */
void tile_cpu_basic(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                    size_t rh)
{
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++)
            target[y * width + x] = repeater[(y % rh) * rw + x % rw];
}

/* 1.2: the target's index runs along with the loops. */
void tile_cpu_indexed(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                      size_t rh)
{
    size_t i = 0;
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++)
            target[i++] = repeater[(y % rh) * rw + x % rw];
}

/* 1.2 bis: a pointer runs through the target, and the repeater's row is found once a row. */
void tile_cpu_pointer(float *target, size_t width, size_t height, const float *repeater, size_t rw,
                      size_t rh)
{
    float *out = target;
    for (size_t y = 0; y < height; y++) {
        const float *row = repeater + (y % rh) * rw;
        for (size_t x = 0; x < width; x++)
            *out++ = row[x % rw];
    }
}

/* 1.3: each repeater value written to all its places, column after column: no modulo, but
 * writes rw floats apart (and rh rows apart), which the caches cannot gather. */
void tile_cpu_repeater_loop(float *target, size_t width, size_t height, const float *repeater,
                            size_t rw, size_t rh)
{
    for (size_t rx = 0; rx < rw && rx < width; rx++)
        for (size_t ry = 0; ry < rh && ry < height; ry++) {
            float value = repeater[ry * rw + rx];
            for (size_t x = rx; x < width; x += rw)
                for (size_t y = ry; y < height; y += rh)
                    target[y * width + x] = value;
        }
}

/* The mean of the non-zero values that cover (x, y): the copies in the order of a, then b. */
static float lattice_point(const float *repeater, const struct lattice *l, long x, long y)
{
    long A = l->ax * x + l->ay * y, B = l->bx * x + l->by * y;
    long a1 = floor_div(A - l->a_lo, l->det), b1 = floor_div(B - l->b_lo, l->det);
    float sum = 0.0f;
    unsigned count = 0;
    for (long a = ceil_div(A - l->a_hi, l->det); a <= a1; a++)
        for (long b = ceil_div(B - l->b_hi, l->det); b <= b1; b++) {
            long dx = x - (a * l->ux + b * l->vx), dy = y - (a * l->uy + b * l->vy);
            float value;
            if (dx < 0 || dy < 0 || dx >= l->rw || dy >= l->rh)
                continue;
            value = repeater[dy * l->rw + dx];
            if (value != 0.0f) {
                sum += value;
                count++;
            }
        }
    return count ? sum / (float)count : 0.0f;
}

/* 2.1: over the target, each point gathering the copies that cover it. */
void lattice_cpu_target(float *target, size_t width, size_t height, const float *repeater,
                        const struct lattice *l)
{
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++)
            target[y * width + x] = lattice_point(repeater, l, (long)x, (long)y);
}

/* 2.2: over the copies, each adding its non-zero cells to the sums and counts, then a
 * division per point. The copies come in the order of a, then b, as in 2.1, so each point
 * adds the same values in the same order. */
void lattice_cpu_copies(float *target, unsigned *count, size_t width, size_t height,
                        const float *repeater, const struct lattice *l)
{
    long a0, na, b0, nb;
    lattice_copies(l, width, height, &a0, &na, &b0, &nb);
    for (size_t i = 0; i < width * height; i++) {
        target[i] = 0.0f;
        count[i] = 0;
    }
    for (long a = a0; a < a0 + na; a++)
        for (long b = b0; b < b0 + nb; b++) {
            long px = a * l->ux + b * l->vx, py = a * l->uy + b * l->vy;
            /* the part of the copy inside the target */
            long x0 = px < 0 ? -px : 0, y0 = py < 0 ? -py : 0;
            long x1 = (long)width - px < l->rw ? (long)width - px : l->rw;
            long y1 = (long)height - py < l->rh ? (long)height - py : l->rh;
            for (long dy = y0; dy < y1; dy++)
                for (long dx = x0; dx < x1; dx++) {
                    size_t i = (size_t)(py + dy) * width + (size_t)(px + dx);
                    float value = repeater[dy * l->rw + dx];
                    if (value != 0.0f) {
                        target[i] += value;
                        count[i]++;
                    }
                }
        }
    for (size_t i = 0; i < width * height; i++)
        target[i] = count[i] ? target[i] / (float)count[i] : 0.0f;
}
