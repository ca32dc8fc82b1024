/* lab10 reference: the plain CPU loops of stencil.h's definitions. */
#include "stencil.h"

void adjacent_cpu(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] - (i > 0 ? in[i - 1] : 0);
}

void stencil1d_cpu(const int *in, int *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int sum = 0;
        for (int k = -RADIUS; k <= RADIUS; k++) {
            ptrdiff_t j = (ptrdiff_t)i + k;
            if (j >= 0 && (size_t)j < n)
                sum += line_weight(k) * in[j];
        }
        out[i] = sum;
    }
}

/* heat_update as the handout writes it, with C's division (the kernels' heat_update shifts). */
static int heat_update_div(int c, int w, int e, int n, int s)
{
    return c + (w - c) / 8 + (e - c) / 8 + (n - c) / 8 + (s - c) / 8;
}

/* One step from in to out, then the sources set. */
static void heat_step(const int *in, int *out, size_t width, size_t height, size_t pitch,
                      const struct heat_source *sources, size_t nsources)
{
    for (size_t y = 0; y < height; y++) {
        const int *row = in + y * pitch;
        const int *north = y > 0 ? row - pitch : row, *south = y + 1 < height ? row + pitch : row;
        for (size_t x = 0; x < width; x++) {
            size_t w = x > 0 ? x - 1 : x, e = x + 1 < width ? x + 1 : x;
            out[y * pitch + x] = heat_update_div(row[x], row[w], row[e], north[x], south[x]);
        }
    }
    for (size_t k = 0; k < nsources; k++)
        out[sources[k].y * pitch + sources[k].x] = sources[k].temp;
}

/* The steps alternate between out and scratch so that the last one writes out, as heat()'s. */
void heat_cpu(const int *in, int *out, int *scratch, size_t width, size_t height, size_t pitch,
              const struct heat_source *sources, size_t nsources, unsigned steps)
{
    const int *from = in;
    for (unsigned s = 0; s < steps; s++) {
        int *to = (steps - 1 - s) % 2 ? scratch : out;
        heat_step(from, to, width, height, pitch, sources, nsources);
        from = to;
    }
}
