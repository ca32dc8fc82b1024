/* lab07 reference: the plain CPU loop, for the element sizes the variants use. */
#include <string.h>
#include "transpose.h"

void transpose_cpu(const void *in, void *out, size_t width, size_t height, size_t elem)
{
    const char *src = in;
    char *dst = out;
    for (size_t r = 0; r < height; r++)
        for (size_t c = 0; c < width; c++)
            memcpy(dst + (c * height + r) * elem, src + (r * width + c) * elem, elem);
}
