/* lab13 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check what the visible tests leave open, a test per variant: sides
 * one short of, at and one past the multiples of every tile; A and B 1 to 3 floats past an
 * aligned start and C inside poison that no variant may touch; a long k, where the error
 * bound has grown with it. Every C within the bound of its arithmetic. Points:
 * tests/hidden/lab13.txt. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "matmul.h"

enum { SPARE = 64 }; /* floats of poison on either side of C */

static double tolerance(int v, size_t k, double abs_sum)
{
    return matmul_facts[v].tf32 ? matmul_tolerance(k, MM_U_TF32, MM_U_TENSOR_SUM, abs_sum)
                                : matmul_tolerance(k, 0, MM_U_FP32, abs_sum);
}

/* Variant v on random m x k and k x n matrices, A and B `shift` floats past aligned starts, C
 * with SPARE floats of poison either side, under every thread order: C within the bound, the
 * poison as it was. */
static void check(int v, size_t m, size_t n, size_t k, size_t shift)
{
    size_t na = m * k, nb = k * n, nc = m * n, all = nc + 2 * SPARE;
    float *a = malloc(na * sizeof(float)), *b = malloc(nb * sizeof(float));
    float *got = malloc(all * sizeof(float)), *poison = malloc(all * sizeof(float));
    double *want = malloc(nc * sizeof(double)), *abs = malloc(nc * sizeof(double));
    struct gpu_buf xa = gpu_alloc((na + shift) * sizeof(float));
    struct gpu_buf xb = gpu_alloc((nb + shift) * sizeof(float)),
                   xc = gpu_alloc(all * sizeof(float));
    struct gpu_buf da = {(float *)xa.ptr + shift, na * sizeof(float)};
    struct gpu_buf db = {(float *)xb.ptr + shift, nb * sizeof(float)};
    struct gpu_buf dc = {(float *)xc.ptr + SPARE, nc * sizeof(float)};
    testkit_floats(a, na, -1.0f, 1.0f);
    testkit_floats(b, nb, -1.0f, 1.0f);
    for (size_t i = 0; i < m; i++)
        matmul_exact_row(a, b, n, k, i, want + i * n, abs + i * n);
    gpu_upload(da, a, na * sizeof(float));
    gpu_upload(db, b, nb * sizeof(float));
    gpu_download(poison, xc, all * sizeof(float));
    for (int o = 0; o < testkit_orders(nc); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu x %zu, A and B at +%zu floats, order %s",
                     matmul_variants[v].name, m, n, k, shift, testkit_order_name(o));
        gpu_poison(xc);
        assert_status(matmul((enum matmul_variant)v, da, db, dc, m, n, k), LAB_OK);
        gpu_sync();
        gpu_download(got, xc, all * sizeof(float));
        for (size_t e = 0; e < all; e++) {
            size_t at = e - SPARE; /* C's element, when e is inside C */
            if (e < SPARE || at >= nc) {
                if (memcmp(&got[e], &poison[e], sizeof(float)))
                    fail_msg("%s, %zu x %zu x %zu, order %s: written %td floats from C's start, "
                             "outside C",
                             matmul_variants[v].name, m, n, k, testkit_order_name(o),
                             (ptrdiff_t)e - SPARE);
            } else if (!(fabs(got[e] - want[at]) <= tolerance(v, k, abs[at]))) {
                fail_msg("%s, %zu x %zu x %zu, order %s: C(%zu, %zu) = %.9g, want %.9g within "
                         "%.3g",
                         matmul_variants[v].name, m, n, k, testkit_order_name(o), at / n, at % n,
                         got[e], want[at], tolerance(v, k, abs[at]));
            }
        }
    }
    gpu_free(&xa);
    gpu_free(&xb);
    gpu_free(&xc);
    free(a);
    free(b);
    free(got);
    free(poison);
    free(want);
    free(abs);
}

/* Each tile side of the lab (8, 16, 32, 64, 128), m and n one short of it and one past, k one
 * past, at and one short. */
static void tile_edges(int v)
{
    static const size_t sides[] = {8, 16, 32, 64, 128};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        size_t t = sides[i];
        check(v, t - 1, t + 1, t + 1, 0);
        check(v, t + 1, t - 1, t, 0);
        check(v, t, t, t - 1, 0);
    }
}

/* A and B 1, 2 and 3 floats off, with k and n multiples of 4 (rows that would take float4
 * loads) and not. */
static void poison_around(int v)
{
    check(v, 20, 36, 40, 1);
    check(v, 33, 35, 12, 2);
    check(v, 7, 129, 9, 3);
}

/* k = 2053 (prime): 2053 products a sum, the bound 2053 times k = 1's. */
static void long_k(int v)
{
    check(v, 9, 11, 2053, 0);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(tile_edges),
    TESTKIT_EACH(poison_around),
    TESTKIT_EACH(long_k),
};

TESTKIT_MAIN("lab13_hidden", tests, matmul_variants, MATMUL_VARIANTS)
