/* lab04 reference: the CPU loop in float, as a C programmer writes it, and the exact value
 * near enough, in long double. */
#include <math.h>
#include "dot.h"

float dot_cpu(const float *a, const float *b, size_t n)
{
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

/* A product of two floats has at most 48 significant bits: exact in long double's 64 (and
 * in double's 53); only the additions round, each by at most 2^-64 of the sum so far. */
long double dot_exact(const float *a, const float *b, size_t n)
{
    long double sum = 0.0L;
    for (size_t i = 0; i < n; i++)
        sum += (long double)a[i] * b[i];
    return sum;
}

long double dot_abs(const float *a, const float *b, size_t n)
{
    long double sum = 0.0L;
    for (size_t i = 0; i < n; i++)
        sum += fabsl((long double)a[i] * b[i]);
    return sum;
}

/* gamma_d = d u / (1 - d u): the bound on the relative error that d roundings of unit
 * roundoff u compound to; infinite where d u reaches 1 (no bound). */
static long double gamma_of(long double d, long double u)
{
    return d * u < 1.0L ? d * u / (1.0L - d * u) : INFINITY;
}

/* Higham, Accuracy and Stability of Numerical Algorithms (2nd ed., sections 3.1 and 4.2):
 * when no product goes through more than d roundings on its way into the sum (its own, then
 * each addition on its path), |computed - exact| <= gamma_d sum |a_i b_i|, whatever the order.
 * In double (acc_bytes 8) then rounded to float once: 2^-24 |exact| + (1 + 2^-24) gamma_d
 * (2^-53) sum |a_i b_i|. Plus the long double reference's own n additions: gamma_n (2^-64)
 * sum |a_i b_i|. */
long double dot_error_bound(unsigned depth, unsigned acc_bytes, size_t n, long double exact,
                            long double abs_sum)
{
    const long double u24 = ldexpl(1.0L, -24), u53 = ldexpl(1.0L, -53), u64 = ldexpl(1.0L, -64);
    long double reference = gamma_of((long double)n, u64) * abs_sum;
    if (acc_bytes == 8)
        return u24 * fabsl(exact) + (1.0L + u24) * gamma_of(depth, u53) * abs_sum + reference;
    return gamma_of(depth, u24) * abs_sum + reference;
}
