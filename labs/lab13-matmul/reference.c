/* lab13 reference: the CPU's multiply (the bench's CPU row), C computed in double with the sums
 * of |a b| (what every result is checked against), and the error bound. */
#include <math.h>
#include <string.h>
#include "matmul.h"

/* i, p, j: the inner loop runs along rows of B and C, which the compiler vectorises. */
void matmul_cpu(const float *a, const float *b, float *c, size_t m, size_t n, size_t k)
{
    for (size_t i = 0; i < m; i++) {
        float *ci = c + i * n;
        memset(ci, 0, n * sizeof *ci);
        for (size_t p = 0; p < k; p++) {
            float aip = a[i * k + p];
            const float *bp = b + p * n;
            for (size_t j = 0; j < n; j++)
                ci[j] += aip * bp[j];
        }
    }
}

/* Each product of two floats is exact in double (24 + 24 bits < 53); the sums round. */
void matmul_exact_row(const float *a, const float *b, size_t n, size_t k, size_t i, double *c,
                      double *abs_sum)
{
    memset(c, 0, n * sizeof *c);
    memset(abs_sum, 0, n * sizeof *abs_sum);
    for (size_t p = 0; p < k; p++) {
        double aip = a[i * k + p];
        const float *bp = b + p * n;
        for (size_t j = 0; j < n; j++) {
            double prod = aip * bp[j];
            c[j] += prod;
            abs_sum[j] += fabs(prod);
        }
    }
}

void matmul_exact_col(const float *a, const float *b, size_t m, size_t n, size_t k, size_t j,
                      double *c, double *abs_sum)
{
    for (size_t i = 0; i < m; i++) {
        const float *ai = a + i * k;
        double sum = 0, abs = 0;
        for (size_t p = 0; p < k; p++) {
            double prod = (double)ai[p] * b[p * n + j];
            sum += prod;
            abs += fabs(prod);
        }
        c[i] = sum;
        abs_sum[i] = abs;
    }
}

/* gamma_k(u) = k u / (1 - k u): the relative bound of k roundings of unit roundoff u. */
static double gamma_k(double k, double u)
{
    return k * u / (1 - k * u);
}

/* The kernel's inputs rounded (each product off by (1 + u_in)^2 - 1 at most), its k products
 * and sums in some order with unit roundoff u_sum (a relative gamma_k(u_sum) on the sum of
 * |products|), and the reference's own error (its sums in double; abs_sum rounded too) at
 * twice gamma_k(2^-53). */
double matmul_tolerance(size_t k, double u_in, double u_sum, double abs_sum)
{
    double in = (1 + u_in) * (1 + u_in);
    return ((in * (1 + gamma_k((double)k, u_sum)) - 1) + 2 * gamma_k((double)k, 0x1p-53)) * abs_sum;
}
