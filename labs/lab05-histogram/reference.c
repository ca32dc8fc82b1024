/* lab05 reference: the plain CPU loop, and the three inputs the lab counts. */
#include <string.h>
#include "histogram.h"
#include "rng.h"

const char *const hist_data_names[HIST_DATA] = {"uniform", "same", "image"};

void histogram_cpu(const unsigned char *x, size_t n, unsigned *counts)
{
    memset(counts, 0, HIST_BINS * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        counts[x[i]]++;
}

enum { SIDE = 1024, MAX_ITER = 64 };

/* The grey of pixel (px, py) of the Mandelbrot set over [-2.2, 0.8] x [-1.5, 1.5]: black
 * inside, and from white far outside to dark grey near the border (4 grey levels an
 * iteration). A natural image's histogram: broad, with a few bins far above the rest. */
static unsigned char grey(int px, int py)
{
    double cx = -2.2 + 3.0 * px / SIDE, cy = -1.5 + 3.0 * py / SIDE, zx = 0, zy = 0;
    int it = 0;
    while (it < MAX_ITER && zx * zx + zy * zy <= 4.0) {
        double t = zx * zx - zy * zy + cx;
        zy = 2 * zx * zy + cy;
        zx = t;
        it++;
    }
    return it == MAX_ITER ? 0 : (unsigned char)(255 - 4 * it);
}

/* The image, made at the first call (tens of milliseconds) and kept. */
static const unsigned char *image(void)
{
    static unsigned char pixels[SIDE * SIDE];
    static int made;
    if (!made) {
        for (int py = 0; py < SIDE; py++)
            for (int px = 0; px < SIDE; px++)
                pixels[py * SIDE + px] = grey(px, py);
        made = 1;
    }
    return pixels;
}

void histogram_fill(enum hist_data d, unsigned char *x, size_t n, uint64_t seed)
{
    struct rng r = rng_new(seed);
    switch (d) {
    case HIST_UNIFORM:
        rng_bytes(&r, x, n);
        break;
    case HIST_SAME:
        memset(x, (int)(rng_next(&r) & 0xff), n);
        break;
    default:
        for (size_t done = 0; done < n; done += SIDE * SIDE)
            memcpy(x + done, image(), n - done < SIDE * SIDE ? n - done : SIDE * SIDE);
        break;
    }
}
