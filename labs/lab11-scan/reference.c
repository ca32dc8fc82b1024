/* lab11 reference: the plain CPU loops. The scan adds in unsigned arithmetic, so that a sum past
 * the int range wraps as the GPU's adds do instead of being undefined. The float scan's in
 * double, with the bound a right kernel's rounding stays within. */
#include <math.h>
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

void scan_float_cpu(enum scan_mode mode, const float *in, double *sum, double *abs_sum, size_t n)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        if (mode == SCAN_INCLUSIVE) {
            s += in[i];
            a += fabs(in[i]);
        }
        sum[i] = s;
        abs_sum[i] = a;
        if (mode == SCAN_EXCLUSIVE) {
            s += in[i];
            a += fabs(in[i]);
        }
    }
}

/* The adds a term of out[i] goes through in lookback_float (README: "A float scan's error"),
 * with L = log2(32) = 5, the steps of a warp's scan, and I = SCAN_LB_ITEMS (its tiles are
 * SCAN_LB_THREADS x SCAN_LB_ITEMS):
 *   a term of i's own tile: I - 1 in its thread's sum, L in its warp's scan of the threads'
 *   sums, L in warp 0's scan of the warps' sums, 1 joining the two, then I in the running
 *   sum over the thread's items, and 1 adding the tiles before: 2 I + 2 L + 1;
 *   a term of an earlier tile: the tile sums' depth, I - 1 + 2 L, and each step back along
 *   the chain (a window's warp sum, L, the window added to the walk's sum, 1, and the prefix
 *   published, 1: at most 7 for each tile stepped over), then 1: I + 2 L + 7 t for tile t. */
unsigned scan_float_depth(size_t i)
{
    const size_t items = SCAN_LB_ITEMS, log_warp = 5;
    const size_t tile = i / ((size_t)SCAN_LB_THREADS * SCAN_LB_ITEMS);
    const size_t own = 2 * items + 2 * log_warp + 1, chained = items + 2 * log_warp + 7 * tile;
    const size_t d = own > chained ? own : chained;
    return d < 0xffffffffu ? (unsigned)d : 0xffffffffu;
}

/* gamma_d for float's u = 2^-24 (infinite once d u reaches 1), and for the double reference
 * the same with u = 2^-53 over the n adds of its sums, twice (the sum and the magnitudes). */
double scan_float_bound(size_t i, size_t n, double abs_sum)
{
    const double u = 0x1p-24, du = scan_float_depth(i) * u;
    const double reference = 2 * (n + 2.0) * 0x1p-53;
    return du < 1 ? (du / (1 - du) + reference) * abs_sum : INFINITY;
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
