/* lab09 reference: the masks, drawn from a seed; the capped squared distance, exact and
 * linear (the separable transform) and by its definition (brute force); the profile. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "distance.h"

const char *const distance_mask_names[DISTANCE_MASKS] = {"blobs", "points", "lines", "black",
                                                         "white"};

static long below(struct rng *r, long n) /* uniform in [0, n) */
{
    return (long)(rng_next(r) % (uint64_t)n);
}

/* Discs of radius 2 to 24 at random places until they would cover about 30 % if they did
 * not overlap: 1 - e^-0.357 = 30 % once they do. Work: the discs' area, 0.36 w h. */
static void blobs(unsigned char *m, long w, long h, struct rng *r)
{
    double area = 0.357 * (double)w * h;
    while (area > 0) {
        long cx = below(r, w), cy = below(r, h), rad = 2 + below(r, 23);
        for (long y = cy - rad > 0 ? cy - rad : 0; y <= cy + rad && y < h; y++)
            for (long x = cx - rad > 0 ? cx - rad : 0; x <= cx + rad && x < w; x++)
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
                    m[y * w + x] = 255;
        area -= 3.14159265 * (double)(rad * rad);
    }
}

/* Strokes of 4 to 40 pixels in one of eight directions, 1 pixel wide, until about 5 % of
 * the pixels are drawn: letters, seen from afar. */
static void lines(unsigned char *m, long w, long h, struct rng *r)
{
    static const int step[8][2] = {{1, 0}, {0, 1}, {1, 1},  {1, -1},
                                   {2, 1}, {1, 2}, {2, -1}, {1, -2}};
    double ink = 0.05 * (double)w * h;
    while (ink > 0) {
        long x = below(r, w), y = below(r, h), len = 4 + below(r, 37);
        const int *d = step[below(r, 8)];
        for (long k = 0; k < len; k++) {
            long px = x + k * d[0] / 2, py = y + k * d[1] / 2; /* half steps: no gaps */
            if (px >= 0 && px < w && py >= 0 && py < h)
                m[py * w + px] = 255;
        }
        ink -= (double)len;
    }
}

void distance_mask_fill(unsigned char *mask, unsigned width, unsigned height,
                        enum distance_mask kind, uint64_t seed)
{
    struct rng r = rng_new(seed);
    size_t n = (size_t)width * height;
    memset(mask, kind == DISTANCE_WHITE ? 255 : 0, n);
    if (kind == DISTANCE_BLOBS)
        blobs(mask, width, height, &r);
    else if (kind == DISTANCE_LINES)
        lines(mask, width, height, &r);
    else if (kind == DISTANCE_POINTS)
        for (size_t i = 0; i < n; i++)
            mask[i] = rng_next(&r) % 100 == 0 ? 255 : 0;
}

static long min_l(long a, long b)
{
    return a < b ? a : b;
}

/* g: the distance along each row to its nearest white pixel, capped at D. */
static void rows_1d(const unsigned char *mask, long w, long h, long dmax, uint32_t *g)
{
    for (long y = 0; y < h; y++) {
        const unsigned char *m = mask + y * w;
        uint32_t *gy = g + y * w;
        long last = -dmax, next = w - 1 + dmax;
        for (long x = 0; x < w; x++) {
            last = m[x] ? x : last;
            gy[x] = (uint32_t)min_l(x - last, dmax);
        }
        for (long x = w - 1; x >= 0; x--) {
            next = m[x] ? x : next;
            gy[x] = (uint32_t)min_l(gy[x], next - x);
        }
    }
}

static long floor_div(long long num, long long den)
{
    return (long)(num >= 0 ? num / den : -((-num + den - 1) / den));
}

/* Down column x of g (stride w), the lower envelope of the parabolas (u - i)^2 + g_i^2
 * (Meijster, Roerdink and Hesselink), capped, into a; s and t are h longs of stack. */
static void column(const uint32_t *g, long w, long h, long x, uint32_t cap, long *s, long *t,
                   uint32_t *a)
{
#define F(u, i) ((long long)((u) - (i)) * ((u) - (i)) + (long long)g[(i)*w + x] * g[(i)*w + x])
    long q = 0;
    s[0] = t[0] = 0;
    for (long u = 1; u < h; u++) {
        while (q >= 0 && F(t[q], s[q]) > F(t[q], u))
            q--;
        if (q < 0) {
            q = 0;
            s[0] = u;
            t[0] = 0;
        } else {
            long long gi = g[s[q] * w + x], gu = g[u * w + x];
            long start =
                1 + floor_div((long long)u * u - (long long)s[q] * s[q] + gu * gu - gi * gi,
                              2LL * (u - s[q]));
            if (start < h) {
                s[++q] = u;
                t[q] = start;
            }
        }
    }
    for (long u = h - 1; u >= 0; u--) {
        long long v = F(u, s[q]);
        a[u * w + x] = v < cap ? (uint32_t)v : cap;
        if (u == t[q])
            q--;
    }
#undef F
}

void distance_cpu(const unsigned char *mask, unsigned width, unsigned height, unsigned dmax,
                  uint32_t *a)
{
    long w = width, h = height;
    uint32_t *g = malloc((size_t)w * h * sizeof *g);
    long *s = malloc((size_t)h * sizeof *s), *t = malloc((size_t)h * sizeof *t);
    if (!g || !s || !t)
        abort();
    rows_1d(mask, w, h, dmax, g);
    for (long x = 0; x < w; x++)
        column(g, w, h, x, dmax * dmax, s, t, a);
    free(g);
    free(s);
    free(t);
}

/* The definition, word for word: every white pixel of the window |dx|, |dy| <= D - 1. */
void distance_brute(const unsigned char *mask, unsigned width, unsigned height, unsigned dmax,
                    uint32_t *a)
{
    long w = width, h = height, t = (long)dmax - 1;
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            uint32_t best = dmax * dmax;
            for (long qy = y - t; qy <= y + t; qy++)
                for (long qx = x - t; qx <= x + t; qx++)
                    if (qx >= 0 && qy >= 0 && qx < w && qy < h && mask[qy * w + qx]) {
                        uint32_t d = (uint32_t)((qx - x) * (qx - x) + (qy - y) * (qy - y));
                        best = d < best ? d : best;
                    }
            a[y * w + x] = best;
        }
}

/* A ridge that ripples down to 0 at the cap, as a function of the distance r / D in
 * [0, 1]: cos(3 pi r) (1 - r), computed in double, rounded to float once. */
void distance_profile_table(float *table)
{
    for (int i = 0; i < DISTANCE_LUT; i++) {
        double r = sqrt((double)i / (DISTANCE_LUT - 1));
        table[i] = (float)(cos(3.0 * 3.14159265358979323846 * r) * (1.0 - r));
    }
}

unsigned distance_profile_index(uint32_t a, unsigned dmax)
{
    return (unsigned)((uint64_t)a * (DISTANCE_LUT - 1) / ((uint64_t)dmax * dmax));
}

void distance_profile_cpu(const uint32_t *a, size_t n, unsigned dmax, const float *table, float *z)
{
    for (size_t i = 0; i < n; i++)
        z[i] = table[distance_profile_index(a[i], dmax)];
}
