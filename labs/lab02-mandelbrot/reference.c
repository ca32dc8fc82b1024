/* lab02 reference: the escape counts on one CPU core, in the kernels' order of operations
 * (C11 contracts no a * b + c into an FMA, so every step rounds as written). */
#include "mandelbrot.h"

static unsigned escape_float(float cx, float cy, unsigned maxiter)
{
    float x = 0.0f, y = 0.0f;
    unsigned i = 0;
    while (i < maxiter && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
    }
    return i;
}

static unsigned escape_double(double cx, double cy, unsigned maxiter)
{
    double x = 0.0, y = 0.0;
    unsigned i = 0;
    while (i < maxiter && x * x + y * y <= 4.0) {
        double t = x * x - y * y + cx;
        y = 2.0 * x * y + cy;
        x = t;
        i++;
    }
    return i;
}

void mandelbrot_cpu_rows(unsigned *counts, const struct mandelbrot_image *img, int dbl, size_t row0,
                         size_t rows)
{
    struct mandelbrot_frame f = mandelbrot_frame(img);
    for (unsigned py = (unsigned)row0; py < row0 + rows && py < f.height; py++)
        for (unsigned px = 0; px < f.width; px++)
            counts[(size_t)py * f.width + px] =
                dbl ? escape_double(f.x0d + px * f.dxd, f.y1d - py * f.dyd, f.maxiter)
                    : escape_float(f.x0 + (float)px * f.dx, f.y1 - (float)py * f.dy, f.maxiter);
}

void mandelbrot_cpu(unsigned *counts, const struct mandelbrot_image *img, int dbl)
{
    mandelbrot_cpu_rows(counts, img, dbl, 0, img->height);
}

size_t mandelbrot_mismatches(const unsigned *got, const unsigned *want, size_t n, unsigned maxiter,
                             size_t *first)
{
    size_t bad = 0;
    *first = n;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (got[i] > maxiter) {
                *first = i;
                return n; /* no tolerance covers a count that cannot be */
            }
            if (!bad++)
                *first = i;
        }
    return bad;
}
