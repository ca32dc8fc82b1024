/* lab07 reference: the plain CPU loops. */
#include "transpose.h"

void transpose_cpu(const float *in, float *out, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++)
        for (size_t c = 0; c < width; c++)
            out[c * height + r] = in[r * width + c];
}

void transpose_u8_cpu(const uint8_t *in, uint8_t *out, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++)
        for (size_t c = 0; c < width; c++)
            out[c * height + r] = in[r * width + c];
}
