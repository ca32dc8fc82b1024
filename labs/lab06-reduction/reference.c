/* lab06 reference: the plain CPU loops. The sum is accumulated in 64 bits so that no test
 * value overflows on the way; callers compare its low 32 bits with the device's int32 sum.
 * The min and the max start from their identities, INT_MAX and INT_MIN, as the kernel does. */
#include <limits.h>
#include "reduction.h"

long long reduce_sum_cpu(const int *x, size_t n)
{
    long long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum;
}

void reduce_extrema_cpu(const int *x, size_t n, int *min, int *max)
{
    int lo = INT_MAX, hi = INT_MIN;
    for (size_t i = 0; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    *min = lo;
    *max = hi;
}
