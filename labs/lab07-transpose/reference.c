/* lab07 reference: the plain CPU loop, for the element sizes the variants use. */
#include <string.h>
#include "transpose.h"

/* In tiles of TILE x TILE, so that the column-wise writes of a tile stay in cache: the plain
 * double loop took 5 s for 2^28 floats, a cache miss a write, as a naive kernel would. */
void transpose_cpu(const void *in, void *out, size_t width, size_t height, size_t elem)
{
    enum { TILE = 32 };
    const char *src = in;
    char *dst = out;
    for (size_t r0 = 0; r0 < height; r0 += TILE)
        for (size_t c0 = 0; c0 < width; c0 += TILE)
            for (size_t r = r0; r < height && r < r0 + TILE; r++)
                for (size_t c = c0; c < width && c < c0 + TILE; c++)
                    memcpy(dst + (c * height + r) * elem, src + (r * width + c) * elem, elem);
}
