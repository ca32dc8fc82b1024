/* lab11 reference: the plain CPU loops. The scan adds in unsigned arithmetic, so that a sum past
 * the int range wraps as the GPU's adds do instead of being undefined. */
#include "scan.h"

void scan_cpu(enum scan_mode mode, const int *in, int *out, size_t n)
{
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned next = sum + (unsigned)in[i];
        out[i] = (int)(mode == SCAN_EXCLUSIVE ? sum : next);
        sum = next;
    }
}

void threshold_cpu(const unsigned char *src, unsigned char *dst, size_t width, size_t height,
                   size_t pitch, unsigned char thr)
{
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            unsigned char p = src[y * pitch + x];
            dst[y * pitch + x] = p > thr ? p : thr;
        }
}

size_t compact_cpu(const unsigned char *src, size_t n, unsigned char thr, unsigned *out)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (src[i] >= thr)
            out[count++] = (unsigned)i;
    return count;
}
