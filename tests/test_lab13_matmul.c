/* lab13 tests: every variant against C computed in double, each element within the error bound
 * of its arithmetic (matmul_tolerance: it grows with k; TF32 inputs have a larger one), on
 * 1 x 1 x 1, primes, k = 1, k = 0, sides past every tile, tall and wide, whole tiles and a long
 * k, with fresh random inputs and a poisoned C, under every thread order. Per variant: small
 * integers multiply exactly; times the identity C is A bit for bit (for tensor_core, A rounded
 * to TF32, to nearest with ties away from zero); buffers one float past an aligned start take
 * the scalar paths. Bad arguments return LAB_EINVAL. */
#include <limits.h>
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

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct shape {
    size_t m, n, k;
};

/* 1 x 1 x 1; primes; k = 1; k = 0 (C is 0); every side one past a multiple of each tile (8,
 * 16, 32, 64, 128) or short of it; tall and wide; whole tiles (the float4 paths throughout);
 * a long k, prime. */
static const struct shape shapes[] = {{1, 1, 1},    {37, 53, 61},   {64, 80, 1},
                                      {5, 7, 0},    {129, 97, 23},  {300, 3, 40},
                                      {2, 260, 36}, {128, 128, 32}, {17, 33, 521}};

/* The bound of variant v's arithmetic on an element whose sum of |a b| is abs_sum. */
static double tolerance(int v, size_t k, double abs_sum)
{
    return matmul_facts[v].tf32 ? matmul_tolerance(k, MM_U_TF32, MM_U_TENSOR_SUM, abs_sum)
                                : matmul_tolerance(k, 0, MM_U_FP32, abs_sum);
}

/* The largest of the three matrices, which the race checker's cap applies to. */
static size_t largest(struct shape s)
{
    size_t x = s.m * s.k > s.k * s.n ? s.m * s.k : s.k * s.n;
    return x > s.m * s.n ? x : s.m * s.n;
}

/* Variant v on a and b (on the device: da, db) under every thread order: each element of C
 * within slack times the bound of C's exact value, want (slack 0: bit for bit). */
static void expect(int v, struct shape s, struct gpu_buf da, struct gpu_buf db, struct gpu_buf dc,
                   const double *want, const double *abs, double slack, const char *what)
{
    size_t count = s.m * s.n;
    float *got = malloc(count * sizeof(float) + 1);
    for (int o = 0; o < testkit_orders(count); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu x %zu (%s), order %s", matmul_variants[v].name, s.m, s.n, s.k,
                     what, testkit_order_name(o));
        gpu_poison(dc);
        assert_status(matmul((enum matmul_variant)v, da, db, dc, s.m, s.n, s.k), LAB_OK);
        gpu_sync();
        gpu_download(got, dc, count * sizeof(float));
        for (size_t e = 0; e < count; e++) {
            double bound = slack * tolerance(v, s.k, abs[e]);
            if (!(fabs(got[e] - want[e]) <= bound))
                fail_msg("%s, %zu x %zu x %zu (%s), order %s: C(%zu, %zu) = %.9g, want %.9g "
                         "within %.3g (sum of |a b|: %.6g)",
                         matmul_variants[v].name, s.m, s.n, s.k, what, testkit_order_name(o),
                         e / s.n, e % s.n, got[e], want[e], bound, abs[e]);
        }
    }
    free(got);
}

/* C = A B for host matrices a and b: exact, in double, with its sums of |a b|. */
static void exact(const float *a, const float *b, struct shape s, double *want, double *abs)
{
    for (size_t i = 0; i < s.m; i++)
        matmul_exact_row(a, b, s.n, s.k, i, want + i * s.n, abs + i * s.n);
}

/* a and b uploaded to fresh buffers (none for an empty matrix: k = 0), then expect. */
static void run_on(int v, struct shape s, const float *a, const float *b, double slack,
                   const char *what)
{
    size_t na = s.m * s.k, nb = s.k * s.n, nc = s.m * s.n;
    struct gpu_buf none = {NULL, 0};
    struct gpu_buf da = na ? gpu_alloc(na * sizeof(float)) : none;
    struct gpu_buf db = nb ? gpu_alloc(nb * sizeof(float)) : none;
    struct gpu_buf dc = gpu_alloc(nc * sizeof(float));
    double *want = malloc(nc * sizeof(double)), *abs = malloc(nc * sizeof(double));
    exact(a, b, s, want, abs);
    if (na)
        gpu_upload(da, a, na * sizeof(float));
    if (nb)
        gpu_upload(db, b, nb * sizeof(float));
    expect(v, s, da, db, dc, want, abs, slack, what);
    if (na)
        gpu_free(&da);
    if (nb)
        gpu_free(&db);
    gpu_free(&dc);
    free(want);
    free(abs);
}

/* Every shape, random floats in [-1, 1). */
static void within_bound(int v)
{
    for (size_t i = 0; i < COUNT(shapes); i++) {
        struct shape s = shapes[i];
        float *a, *b;
        if (largest(s) > testkit_max_size())
            continue;
        a = malloc(s.m * s.k * sizeof(float) + 1);
        b = malloc(s.k * s.n * sizeof(float) + 1);
        testkit_floats(a, s.m * s.k, -1.0f, 1.0f);
        testkit_floats(b, s.k * s.n, -1.0f, 1.0f);
        run_on(v, s, a, b, 1.0, "random");
        free(a);
        free(b);
    }
}

/* Integers in [-8, 8]: every product and sum exact in FP32 and in TF32 (|C| <= 64 k < 2^24),
 * so every variant must give C bit for bit. */
static void exact_on_integers(int v)
{
    const struct shape s = {70, 45, 100};
    int *ia = malloc(s.m * s.k * sizeof(int)), *ib = malloc(s.k * s.n * sizeof(int));
    float *a = malloc(s.m * s.k * sizeof(float)), *b = malloc(s.k * s.n * sizeof(float));
    testkit_ints(ia, s.m * s.k, -8, 8);
    testkit_ints(ib, s.k * s.n, -8, 8);
    for (size_t e = 0; e < s.m * s.k; e++)
        a[e] = (float)ia[e];
    for (size_t e = 0; e < s.k * s.n; e++)
        b[e] = (float)ib[e];
    run_on(v, s, a, b, 0.0, "integers");
    free(ia);
    free(ib);
    free(a);
    free(b);
}

/* x rounded to TF32 as __float_to_tf32 does: to nearest, ties away from zero. */
static float tf32_nearest(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & ~0x1fffu; /* finite x only */
    memcpy(&x, &bits, sizeof bits);
    return x;
}

/* B the identity: C(i, j) = A(i, j) exactly, a single product and sums of zeros; for TF32
 * inputs, A(i, j) rounded. A holds ties too (1 + 2^-11 and the like, halfway between two TF32
 * values), where rounding to nearest even or cutting the bits would differ. */
static void times_identity(int v)
{
    const struct shape s = {37, 72, 72};
    float *a = malloc(s.m * s.k * sizeof(float)), *b = calloc(s.k * s.n, sizeof(float));
    double *want = malloc(s.m * s.n * sizeof(double)), *abs = malloc(s.m * s.n * sizeof(double));
    struct gpu_buf da = gpu_alloc(s.m * s.k * sizeof(float)),
                   db = gpu_alloc(s.k * s.n * sizeof(float));
    struct gpu_buf dc = gpu_alloc(s.m * s.n * sizeof(float));
    testkit_floats(a, s.m * s.k, -1.0f, 1.0f);
    for (size_t e = 0; e < s.m * s.k; e += 7)
        a[e] = (e % 2 ? -1.0f : 1.0f) * (1.0f + (float)(e % 5 * 2 + 1) * 0x1p-11f);
    for (size_t p = 0; p < s.k; p++)
        b[p * s.n + p] = 1.0f;
    for (size_t e = 0; e < s.m * s.n; e++) {
        want[e] = matmul_facts[v].tf32 ? tf32_nearest(a[e]) : a[e];
        abs[e] = fabs(a[e]);
    }
    gpu_upload(da, a, s.m * s.k * sizeof(float));
    gpu_upload(db, b, s.k * s.n * sizeof(float));
    expect(v, s, da, db, dc, want, abs, 0.0, "times the identity");
    gpu_free(&da);
    gpu_free(&db);
    gpu_free(&dc);
    free(a);
    free(b);
    free(want);
    free(abs);
}

/* A, B and C one float past 256-byte aligned starts, k and n multiples of 4: rows that would
 * take float4 loads if the buffers were aligned must take the scalar path. */
static void unaligned(int v)
{
    const struct shape s = {36, 68, 20};
    size_t na = s.m * s.k, nb = s.k * s.n, nc = s.m * s.n;
    float *a = malloc(na * sizeof(float)), *b = malloc(nb * sizeof(float));
    double *want = malloc(nc * sizeof(double)), *abs = malloc(nc * sizeof(double));
    struct gpu_buf xa = gpu_alloc((na + 1) * sizeof(float)),
                   xb = gpu_alloc((nb + 1) * sizeof(float));
    struct gpu_buf xc = gpu_alloc((nc + 1) * sizeof(float));
    struct gpu_buf da = {(float *)xa.ptr + 1, na * sizeof(float)};
    struct gpu_buf db = {(float *)xb.ptr + 1, nb * sizeof(float)};
    struct gpu_buf dc = {(float *)xc.ptr + 1, nc * sizeof(float)};
    testkit_floats(a, na, -1.0f, 1.0f);
    testkit_floats(b, nb, -1.0f, 1.0f);
    exact(a, b, s, want, abs);
    gpu_upload(da, a, na * sizeof(float));
    gpu_upload(db, b, nb * sizeof(float));
    expect(v, s, da, db, dc, want, abs, 1.0, "unaligned");
    gpu_free(&xa);
    gpu_free(&xb);
    gpu_free(&xc);
    free(a);
    free(b);
    free(want);
    free(abs);
}

static void reference_cpu(void)
{
    const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12}; /* 2 x 3, 3 x 2 */
    const float want[4] = {58, 64, 139, 154};
    float c[4];
    double row[2], row_abs[2], col[2], col_abs[2];
    matmul_cpu(a, b, c, 2, 2, 3);
    assert_memory_equal(c, want, sizeof want);
    matmul_exact_row(a, b, 2, 3, 1, row, row_abs);
    matmul_exact_col(a, b, 2, 2, 3, 1, col, col_abs);
    assert_true(row[0] == 139 && row[1] == 154 && col[0] == 64 && col[1] == 154);
    assert_true(row_abs[1] == 154 && col_abs[0] == 64);
    /* k = 0: C is 0 exactly; k = 1: one rounding, u (+ the reference's share) */
    assert_true(matmul_tolerance(0, 0, MM_U_FP32, 5.0) == 0);
    assert_true(fabs(matmul_tolerance(1, 0, MM_U_FP32, 1.0) / 0x1p-24 - 1) < 1e-6);
    /* TF32 inputs: about 2 u_in = 2^-10, the products' rounding first */
    assert_true(fabs(matmul_tolerance(1, MM_U_TF32, MM_U_TENSOR_SUM, 1.0) / 0x1p-10 - 1) < 0.01);
}

static void args_rejected(void)
{
    struct gpu_buf a = gpu_alloc(100 * sizeof(float)), b = gpu_alloc(100 * sizeof(float));
    struct gpu_buf c = gpu_alloc(100 * sizeof(float)), small = gpu_alloc(10 * sizeof(float));
    struct gpu_buf none = {NULL, 0}, in_b = {(float *)b.ptr + 5, 95 * sizeof(float)};
    size_t big = (size_t)INT_MAX + 1;
    for (int i = 0; i < MATMUL_VARIANTS; i++) {
        enum matmul_variant v = (enum matmul_variant)i;
        assert_status(matmul(v, none, b, c, 5, 5, 4), LAB_EINVAL);
        assert_status(matmul(v, a, none, c, 5, 5, 4), LAB_EINVAL);
        assert_status(matmul(v, a, b, none, 5, 5, 4), LAB_EINVAL);
        assert_status(matmul(v, small, b, c, 5, 5, 4), LAB_EINVAL); /* A: 20 floats */
        assert_status(matmul(v, a, small, c, 4, 5, 3), LAB_EINVAL); /* B: 15 floats */
        assert_status(matmul(v, a, b, small, 5, 5, 4), LAB_EINVAL); /* C: 25 floats */
        assert_status(matmul(v, a, b, a, 5, 5, 4), LAB_EINVAL);     /* C over A */
        assert_status(matmul(v, a, b, in_b, 5, 5, 4), LAB_EINVAL);  /* C overlapping B */
        assert_status(matmul(v, a, b, c, big, 1, 1), LAB_EINVAL);
        assert_status(matmul(v, a, b, c, 1, big, 1), LAB_EINVAL);
        assert_status(matmul(v, a, b, c, 1, 1, big), LAB_EINVAL);
        assert_status(matmul(v, a, b, c, 0, 5, 4), LAB_OK);
        assert_status(matmul(v, none, none, none, 5, 0, 4), LAB_OK);
        assert_status(matmul(v, none, none, c, 5, 5, 0), LAB_OK); /* C = 0: A, B empty */
    }
    assert_status(matmul(MATMUL_VARIANTS, a, b, c, 5, 5, 4), LAB_EINVAL);
    assert_status(matmul((enum matmul_variant) - 1, a, b, c, 5, 5, 4), LAB_EINVAL);
#ifdef BACKEND_CPU
    /* A grid taller than the device allows (here 2 blocks): 513 rows and 25 columns need at
     * least 3 blocks in y with every variant's tile, up to 256 rows (matmul.h's shapes may be
     * set at build time; the naive mapping: its 25 columns). */
    struct gpu_buf ta = gpu_alloc(513 * sizeof(float)), tb = gpu_alloc(25 * sizeof(float));
    struct gpu_buf tc = gpu_alloc(513 * 25 * sizeof(float));
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", "2");
    for (int i = 0; i < MATMUL_VARIANTS; i++)
        assert_status(matmul((enum matmul_variant)i, ta, tb, tc, 513, 25, 1), LAB_EINVAL);
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", NULL);
    gpu_free(&ta);
    gpu_free(&tb);
    gpu_free(&tc);
#endif
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
    gpu_free(&small);
}

#ifdef BACKEND_CUDA
/* The library rows of the bench multiply too (on a real GPU only): FP32 within the FP32
 * bound, TF32 within the bound of inputs cut to TF32 (cuBLAS does not say how it rounds). */
static void reference_cublas(void)
{
    for (size_t i = 0; i < COUNT(shapes); i++) {
        struct shape s = shapes[i];
        size_t na = s.m * s.k, nb = s.k * s.n, nc = s.m * s.n;
        float *a = malloc(na * sizeof(float) + 1), *b = malloc(nb * sizeof(float) + 1);
        float *got = malloc(nc * sizeof(float));
        double *want = malloc(nc * sizeof(double)), *abs = malloc(nc * sizeof(double));
        struct gpu_buf da = gpu_alloc(na * sizeof(float) + 4),
                       db = gpu_alloc(nb * sizeof(float) + 4);
        struct gpu_buf dc = gpu_alloc(nc * sizeof(float));
        testkit_floats(a, na, -1.0f, 1.0f);
        testkit_floats(b, nb, -1.0f, 1.0f);
        exact(a, b, s, want, abs);
        gpu_upload(da, a, na * sizeof(float));
        gpu_upload(db, b, nb * sizeof(float));
        for (int lib = MM_CUBLAS_SGEMM; lib <= MM_CUBLAS_TF32; lib++) {
            gpu_poison(dc);
            assert_status(matmul_cublas((enum matmul_library)lib, da, db, dc, s.m, s.n, s.k),
                          LAB_OK);
            gpu_sync();
            gpu_download(got, dc, nc * sizeof(float));
            for (size_t e = 0; e < nc; e++) {
                double bound = lib == MM_CUBLAS_SGEMM
                                   ? matmul_tolerance(s.k, 0, MM_U_FP32, abs[e])
                                   : matmul_tolerance(s.k, MM_U_TF32_CUT, MM_U_TENSOR_SUM, abs[e]);
                if (!(fabs(got[e] - want[e]) <= bound))
                    fail_msg(
                        "cuBLAS %s, %zu x %zu x %zu: C(%zu, %zu) = %.9g, want %.9g within %.3g",
                        lib == MM_CUBLAS_SGEMM ? "FP32" : "TF32", s.m, s.n, s.k, e / s.n, e % s.n,
                        got[e], want[e], bound);
            }
        }
        gpu_free(&da);
        gpu_free(&db);
        gpu_free(&dc);
        free(a);
        free(b);
        free(got);
        free(want);
        free(abs);
    }
}
#endif

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),     TESTKIT_GIVEN(args_rejected),
#ifdef BACKEND_CUDA
    TESTKIT_GIVEN(reference_cublas),
#endif
    TESTKIT_VARIANTS(within_bound),  TESTKIT_EACH(exact_on_integers),
    TESTKIT_EACH(times_identity),    TESTKIT_EACH(unaligned),
};

TESTKIT_MAIN("lab13_matmul", tests, matmul_variants, MATMUL_VARIANTS)
