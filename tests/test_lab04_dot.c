/* lab04 tests. Two kinds of data, two kinds of check:
 * - exact: a and b in {-1, 0, 1} (or {0, 1}), so every product and every partial sum is an
 *   integer of magnitude at most sum |a_i b_i| <= 2^24, which float holds exactly: every
 *   order of summation gives the exact sum, and any difference is a bug (a lost block, an
 *   unwritten slot, a missing barrier, a swapped index);
 * - rounded: random floats, where each variant must stay within the error bound of its own
 *   order of summation (dot_error_bound: Higham's gamma_d for the depth d that its launcher's
 *   grid gives it), and double_acc within a float rounding of the exact sum.
 * Sizes around the block size and past 2^24; outputs and scratch poisoned before each run;
 * every thread order of the CPU backend, which also runs these tests with
 * CUDA_CPU_STRICT=1: a barrier that only part of a block reaches is an error, not a
 * warning. The variants of fixed order give the same bits on every run and in every order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dot.h"
#include "lab.h"
#include "testkit.h"

static const size_t sizes[] = {0, 1, 31, 33, 5003, 1000003, (1u << 24) + 1};

/* The thread-per-element variants launch n / 256 blocks of fibers on the CPU backend: past
 * a million elements only the grid-stride ones run there, so that the suite stays quick. */
static int too_slow_here(enum dot_variant v, size_t n)
{
#ifdef BACKEND_CPU
    return n > 1000003 && !dot_facts[v].grid_stride;
#else
    (void)v;
    (void)n;
    return 0;
#endif
}

static void strict(void)
{
    testkit_setenv("CUDA_CPU_STRICT", "1");
}

struct vectors {
    size_t n;
    float *a, *b;
    struct gpu_buf da, db, scratch, out;
};

static struct vectors vectors_new(enum dot_variant v, size_t n)
{
    struct vectors x;
    size_t scratch = dot_scratch_bytes(v, n);
    x.n = n;
    x.a = malloc(n * sizeof(float) + 1);
    x.b = malloc(n * sizeof(float) + 1);
    x.da = gpu_alloc(n * sizeof(float));
    x.db = gpu_alloc(n * sizeof(float));
    x.scratch = gpu_alloc(scratch ? scratch : 1);
    x.out = gpu_alloc(sizeof(float));
    return x;
}

static void vectors_upload(struct vectors *x)
{
    gpu_upload(x->da, x->a, x->n * sizeof(float));
    gpu_upload(x->db, x->b, x->n * sizeof(float));
}

static void vectors_free(struct vectors *x)
{
    gpu_free(&x->da);
    gpu_free(&x->db);
    gpu_free(&x->scratch);
    gpu_free(&x->out);
    free(x->a);
    free(x->b);
}

/* Small integers lo..1 in both vectors. */
static void small_ints(float *x, size_t n, int lo)
{
    int *k = malloc(n * sizeof(int) + 1);
    testkit_ints(k, n, lo, 1);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)k[i];
    free(k);
}

/* One run of v on x, the result downloaded; fails the test on an error status. */
static float run(enum dot_variant v, struct vectors *x, const char *data, int order)
{
    float got;
    int status;
    gpu_poison(x->out);
    gpu_poison(x->scratch);
    status = dot(v, x->da, x->db, x->n, x->scratch, x->out);
    if (status != LAB_OK)
        fail_msg("%s, n = %zu, %s, order %s: returned %s, want LAB_OK %s", dot_variants[v].name,
                 x->n, data, testkit_order_name(order), lab_status_name(status),
                 status == LAB_ECUDA ? lab_cuda_failure() : "");
    gpu_sync();
    gpu_download(&got, x->out, sizeof got);
    return got;
}

/* The exact sums: {-1, 0, 1} (sums that cancel) and {0, 1} (sums that only grow). */
static void exact(int v)
{
    strict();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (too_slow_here(v, n) || n > testkit_max_size())
            continue;
        for (int lo = -1; lo <= 0; lo++) {
            struct vectors x = vectors_new(v, n);
            const char *data = lo ? "values in {-1, 0, 1}" : "values in {0, 1}";
            long double want;
            small_ints(x.a, n, lo);
            small_ints(x.b, n, lo);
            want = dot_exact(x.a, x.b, n);
            assert_true(dot_abs(x.a, x.b, n) <= 16777216.0L); /* the data's premise */
            vectors_upload(&x);
            for (int o = 0; o < testkit_orders(n); o++) {
                float got;
                testkit_set_order(o);
                testkit_case("%s, n = %zu, %s, order %s", dot_variants[v].name, n, data,
                             testkit_order_name(o));
                got = run(v, &x, data, o);
                if (got != (float)want)
                    fail_msg("%s, n = %zu, %s, order %s: %.9g, want exactly %.0Lf",
                             dot_variants[v].name, n, data, testkit_order_name(o), got, want);
            }
            vectors_free(&x);
        }
    }
}

/* Random floats: within the variant's bound, on positive and on cancelling data. */
static void rounded(int v)
{
    static const size_t n_rounded[] = {1, 33, 100003, 1000003, (1u << 24) + 1};
    strict();
    for (size_t s = 0; s < sizeof n_rounded / sizeof n_rounded[0]; s++) {
        size_t n = n_rounded[s];
        if (too_slow_here(v, n) || n > testkit_max_size())
            continue;
        for (int lo = -1; lo <= 0; lo++) {
            struct vectors x = vectors_new(v, n);
            const char *data = lo ? "uniform in [-1, 1)" : "uniform in [0, 1)";
            long double want, bound;
            testkit_floats(x.a, n, (float)lo, 1.0f);
            testkit_floats(x.b, n, (float)lo, 1.0f);
            want = dot_exact(x.a, x.b, n);
            bound = dot_error_bound(dot_rounding_depth(v, n), dot_facts[v].acc_bytes, n, want,
                                    dot_abs(x.a, x.b, n));
            vectors_upload(&x);
            for (int o = 0; o < testkit_orders(n); o++) {
                float got;
                testkit_set_order(o);
                testkit_case("%s, n = %zu, %s, order %s", dot_variants[v].name, n, data,
                             testkit_order_name(o));
                got = run(v, &x, data, o);
                if (!(fabsl(got - want) <= bound))
                    fail_msg("%s, n = %zu, %s, order %s: %.9g, want %.9Lg within %.3Lg (depth "
                             "%u)",
                             dot_variants[v].name, n, data, testkit_order_name(o), got, want, bound,
                             dot_rounding_depth(v, n));
            }
            vectors_free(&x);
        }
    }
}

/* Three runs in each thread order: the variants of fixed order give the same bits every
 * time. atomic_add's order is the hardware's: its runs may differ, each within its bound. */
static void repeatable(int v)
{
    /* 100003, or under the race checker an odd size within its budget: three runs of 10^5
     * elements there took 16 to 20 s a variant, and a race shows on a few blocks as well */
    size_t n = testkit_max_size() < 100003 ? testkit_max_size() - 5 : 100003;
    struct vectors x = vectors_new(v, n);
    long double want, bound;
    float first = 0.0f;
    strict();
    testkit_floats(x.a, n, -1.0f, 1.0f);
    testkit_floats(x.b, n, -1.0f, 1.0f);
    want = dot_exact(x.a, x.b, n);
    bound = dot_error_bound(dot_rounding_depth(v, n), dot_facts[v].acc_bytes, n, want,
                            dot_abs(x.a, x.b, n));
    vectors_upload(&x);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        for (int k = 0; k < 3; k++) {
            float got = run(v, &x, "uniform in [-1, 1)", o);
            if (o == 0 && k == 0)
                first = got;
            if (dot_facts[v].fixed_order && memcmp(&got, &first, sizeof got))
                fail_msg("%s, n = %zu, order %s, run %d: %.9g, the first run gave %.9g: a "
                         "fixed order gives the same bits every time",
                         dot_variants[v].name, n, testkit_order_name(o), k + 1, got, first);
            if (!(fabsl(got - want) <= bound))
                fail_msg("%s, n = %zu, order %s, run %d: %.9g, want %.9Lg within %.3Lg",
                         dot_variants[v].name, n, testkit_order_name(o), k + 1, got, want, bound);
        }
    }
    vectors_free(&x);
}

/* Variants 5 and 6 read float4s: the float arrays' last n % 4 elements, and n < 4; in every
 * thread order, as the other tests (a tree that races shows on nine elements too). */
static void tails(int v)
{
    strict();
    for (size_t n = 1; n <= 9; n++) {
        struct vectors x = vectors_new(v, n);
        for (size_t i = 0; i < n; i++) {
            x.a[i] = (float)(i + 1);
            x.b[i] = (float)(1u << i);
        }
        vectors_upload(&x);
        for (int o = 0; o < testkit_orders(n); o++) {
            float got;
            testkit_set_order(o);
            testkit_case("%s, n = %zu, order %s", dot_variants[v].name, n, testkit_order_name(o));
            got = run(v, &x, "a = 1, 2, 3, ..., b = 1, 2, 4, ...", o);
            if (got != (float)dot_exact(x.a, x.b, n))
                fail_msg("%s, n = %zu, a = 1, 2, 3..., b = 1, 2, 4..., order %s: %.9g, want %.0Lf",
                         dot_variants[v].name, n, testkit_order_name(o), got,
                         dot_exact(x.a, x.b, n));
        }
        vectors_free(&x);
    }
}

static void reference_cpu(void)
{
    const float a[4] = {1.0f, 2.0f, -3.0f, 0.5f}, b[4] = {4.0f, -1.0f, 2.0f, 8.0f};
    assert_true(dot_cpu(a, b, 4) == 0.0f);
    assert_true(dot_exact(a, b, 3) == -4.0L);
    assert_true(dot_abs(a, b, 4) == 16.0L);
    assert_true(dot_cpu(a, b, 0) == 0.0f);
    /* 2^24 + 1 is not a float: the float loop loses the 1, long double keeps it */
    {
        const float big[2] = {16777216.0f, 1.0f}, one[2] = {1.0f, 1.0f};
        assert_true(dot_cpu(big, one, 2) == 16777216.0f);
        assert_true(dot_exact(big, one, 2) == 16777217.0L);
    }
    assert_true(dot_error_bound(16777216, 4, 1, 0.0L, 1.0L) == INFINITY);
    assert_true(dot_error_bound(0, 4, 1, 0.0L, 1.0L) < 1e-18L);
}

static void args_rejected(void)
{
    struct gpu_buf a = gpu_alloc(100 * sizeof(float)), b = gpu_alloc(50 * sizeof(float));
    struct gpu_buf out = gpu_alloc(sizeof(float)), none = {NULL, 0};
    struct gpu_buf odd = {(char *)a.ptr + 4, a.bytes - 4}, small_out = {out.ptr, 3};
    struct gpu_buf scratch = gpu_alloc(4096);
    const float mark = 12345.0f;
    for (int v = 0; v < DOT_VARIANTS; v++) {
        struct gpu_buf tight = {scratch.ptr, dot_scratch_bytes(v, 50) - 1};
        float got;
        gpu_upload(out, &mark, sizeof mark);
        assert_status(dot(v, none, b, 10, scratch, out), LAB_EINVAL);
        assert_status(dot(v, a, none, 10, scratch, out), LAB_EINVAL);
        assert_status(dot(v, a, b, 10, scratch, none), LAB_EINVAL);
        assert_status(dot(v, a, b, 10, scratch, small_out), LAB_EINVAL);
        assert_status(dot(v, a, b, 51, scratch, out), LAB_EINVAL); /* b holds 50 */
        assert_status(dot(v, a, b, 10, none, out), LAB_EINVAL);
        assert_status(dot(v, a, b, 50, tight, out), LAB_EINVAL);
        assert_status(dot(v, a, b, (size_t)1 << 32, scratch, out), LAB_EINVAL);
        if (dot_facts[v].vec4) {
            assert_status(dot(v, odd, b, 10, scratch, out), LAB_EINVAL);
            assert_status(dot(v, b, odd, 10, scratch, out), LAB_EINVAL);
        }
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        assert_true(got == mark); /* nothing written */
        assert_int_equal(dot_scratch_bytes(v, 0), 0);
        assert_int_equal(dot_rounding_depth(v, 0), 0);
        assert_true(dot_scratch_bytes(v, 50) > 0);
        assert_status(dot(v, none, none, 0, none, out), LAB_OK); /* n = 0: the sum is 0 */
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        assert_true(got == 0.0f);
    }
    assert_status(dot(DOT_VARIANTS, a, b, 10, scratch, out), LAB_EINVAL);
    assert_status(dot((enum dot_variant) - 1, a, b, 10, scratch, out), LAB_EINVAL);
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&out);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu), TESTKIT_GIVEN(args_rejected), TESTKIT_VARIANTS(exact),
    TESTKIT_EACH(rounded),       TESTKIT_EACH(repeatable),     TESTKIT_EACH(tails),
};

TESTKIT_MAIN("lab04_dot", tests, dot_variants, DOT_VARIANTS)
