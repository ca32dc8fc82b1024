/* lab06 reference: the plain CPU loop, accumulated in 64 bits so that no test value
 * overflows on the way; callers compare its low 32 bits with the device's int32 sum. */
#include "reduction.h"

long long reduce_sum_cpu(const int *x, size_t n)
{
    long long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum;
}
