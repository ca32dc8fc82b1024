/* lab06 tests: every variant against the CPU sum, exactly (int32 adds are exact while no
 * partial sum leaves the int range, and the test data keeps them inside it). Sizes that
 * are not multiples of any block size (1, 2, 31, 33, 1000003, 2^24 + 1) and a power of two;
 * every block size each variant accepts; fresh random data, output and scratch poisoned
 * before each run; every thread order of the CPU backend. Bad arguments: LAB_EINVAL. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "reduction.h"
#include "testkit.h"

/* The sizes at the default block size. 1000003 and 2^24 + 1 run on a GPU; on the CPU backend,
 * where every thread is a fiber, only for the grid-stride variants (few threads) so that the
 * whole suite stays fast there. */
static const size_t sizes[] = {1, 2, 31, 33, 1u << 16, 1000003, (1u << 24) + 1};
/* The total near INT_MAX: a million values on a GPU; on the CPU backend 2^17 + 3 larger ones,
 * the same totals at an eighth of the threads. */
#ifdef BACKEND_CPU
enum { NEAR_N = (1 << 17) + 3, NEAR_MAX = 16000 };
#else
enum { NEAR_N = 1000003, NEAR_MAX = 2100 };
#endif
/* The sizes every block size runs on: below, at and above a warp, and a few blocks' worth. */
static const size_t block_sizes_n[] = {1, 31, 33, 5003};

static int skip_on_cpu_backend(enum reduce_variant v, size_t n)
{
#ifdef BACKEND_CPU
    return n >= 1000003 && !reduce_facts[v].grid_stride;
#else
    (void)v;
    (void)n;
    return 0;
#endif
}

/* Sums x[0..n) with variant v on `threads`-thread blocks under every thread order. */
static void check_sum(enum reduce_variant v, const int *x, size_t n, unsigned threads)
{
    struct gpu_buf in = gpu_alloc(n * sizeof(int)), out = gpu_alloc(sizeof(int)), scratch;
    size_t scratch_bytes = reduce_scratch_bytes(v, n, threads);
    long long want = reduce_sum_cpu(x, n);
    assert_true(want >= INT_MIN && want <= INT_MAX); /* the data must keep the sum an int */
    scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    gpu_upload(in, x, n * sizeof(int));
    for (int o = 0; o < testkit_orders(n); o++) {
        int got, status;
        testkit_set_order(o);
        testkit_case("%s, n = %zu, %u threads, order %s", reduce_variants[v].name, n, threads,
                     testkit_order_name(o));
        gpu_poison(out);
        gpu_poison(scratch);
        status = reduce_sum(v, in, n, threads, scratch, out);
        if (status != LAB_OK)
            fail_msg("%s, n = %zu, %u threads, order %s: returned %s, want LAB_OK %s",
                     reduce_variants[v].name, n, threads, testkit_order_name(o),
                     lab_status_name(status), status == LAB_ECUDA ? lab_cuda_failure() : "");
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        if (got != (int)want)
            fail_msg("%s, n = %zu, %u threads, order %s: sum %d, want %lld",
                     reduce_variants[v].name, n, threads, testkit_order_name(o), got, want);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static void sum_matches(int v)
{
    /* every size at the default block size, values of both signs */
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (n > testkit_max_size())
            continue;
        int *x = malloc(n * sizeof(int));
        if (skip_on_cpu_backend(v, n)) {
            free(x);
            continue;
        }
        testkit_ints(x, n, -1000, 1000);
        check_sum(v, x, n, REDUCE_THREADS);
        free(x);
    }
    /* a total near the top of the int range: NEAR_N values in 0..NEAR_MAX sum to about
     * 1.05e9 on average and at most 2.1e9 < INT_MAX = 2147483647 */
    if (testkit_max_size() >= NEAR_N) {
        size_t n = NEAR_N;
        int *x = malloc(n * sizeof(int));
        testkit_ints(x, n, 0, NEAR_MAX);
        check_sum(v, x, n, REDUCE_THREADS);
        free(x);
    }
    /* every block size the variant accepts, on a few small sizes */
    for (unsigned threads = 1; threads <= 1024; threads *= 2) {
        if (!reduce_threads_ok(v, threads))
            continue;
        for (size_t s = 0; s < sizeof block_sizes_n / sizeof block_sizes_n[0]; s++) {
            size_t n = block_sizes_n[s];
            int *x = malloc(n * sizeof(int));
            testkit_ints(x, n, -1000, 1000);
            check_sum(v, x, n, threads);
            free(x);
        }
    }
}

/* The atomic baselines take any block size, not only powers of two. */
static void atomic_odd_block_sizes(void)
{
    static const unsigned odd[] = {1, 3, 100, 1000};
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        size_t n = 5003;
        int *x = malloc(n * sizeof(int));
        testkit_ints(x, n, -1000, 1000);
        check_sum(REDUCE_GLOBAL_ATOMIC, x, n, odd[k]);
        check_sum(REDUCE_SHARED_ATOMIC, x, n, odd[k]);
        free(x);
    }
}

/* Running twice on the same scratch: single_pass's counter must start from 0 each time. */
static void single_pass_repeated(void)
{
    size_t n = 100003;
    int *x, got;
    long long want;
    struct gpu_buf in, out, scratch;
    x = malloc(n * sizeof(int));
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(sizeof(int));
    scratch = gpu_alloc(reduce_scratch_bytes(REDUCE_SINGLE_PASS, n, 256));
    testkit_ints(x, n, -1000, 1000);
    want = reduce_sum_cpu(x, n);
    gpu_upload(in, x, n * sizeof(int));
    for (int k = 0; k < 3; k++) {
        gpu_poison(out);
        assert_status(reduce_sum(REDUCE_SINGLE_PASS, in, n, 256, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        assert_int_equal(got, (int)want);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
    free(x);
}

static void reference_cpu(void)
{
    static const int x[] = {1, -2, 3, INT_MAX, INT_MAX, INT_MIN};
    assert_int_equal(reduce_sum_cpu(x, 3), 2);
    assert_true(reduce_sum_cpu(x, 5) == 2 + 2LL * INT_MAX); /* 64 bits: no overflow */
    assert_true(reduce_sum_cpu(x, 6) == 2 + 2LL * INT_MAX + INT_MIN);
    assert_true(reduce_sum_cpu(x, 0) == 0);
}

static void args_rejected(void)
{
    size_t n = 1000;
    struct gpu_buf in, out, scratch, none = {NULL, 0};
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(sizeof(int));
    scratch = gpu_alloc(reduce_scratch_bytes(REDUCE_INTERLEAVED_DIVERGENT, n, 2));
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        unsigned t = REDUCE_THREADS;
        assert_status(reduce_sum(v, none, n, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_sum(v, in, n, t, scratch, none), LAB_EINVAL);
        assert_status(reduce_sum(v, in, 0, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_sum(v, in, n + 1, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_sum(v, in, (size_t)INT_MAX + 1, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_sum(v, in, n, 0, scratch, out), LAB_EINVAL);
        assert_status(reduce_sum(v, in, n, 2048, scratch, out), LAB_EINVAL);
        if (!reduce_facts[v].atomic) {
            struct gpu_buf small = {scratch.ptr, reduce_scratch_bytes(v, n, t) - 1};
            assert_status(reduce_sum(v, in, n, 100, scratch, out), LAB_EINVAL); /* not 2^k */
            assert_int_equal(reduce_threads_ok(v, 100), 0);
            assert_status(reduce_sum(v, in, n, t, none, out), LAB_EINVAL);
            assert_status(reduce_sum(v, in, n, t, small, out), LAB_EINVAL);
        } else {
            assert_int_equal(reduce_threads_ok(v, 100), 1);
            assert_int_equal(reduce_scratch_bytes(v, n, t), 0);
        }
        assert_int_equal(reduce_scratch_bytes(v, 0, t), 0);
        assert_int_equal(reduce_scratch_bytes(v, n, 2048), 0);
    }
    /* each variant's smallest block size, from its row of the table, and the one below */
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        unsigned min = reduce_facts[v].min_threads;
        assert_int_equal(reduce_threads_ok(v, min), 1);
        if (min > 1) {
            assert_int_equal(reduce_threads_ok(v, min / 2), 0);
            assert_status(reduce_sum(v, in, n, min / 2, scratch, out), LAB_EINVAL);
        }
    }
    assert_status(reduce_sum(REDUCE_VARIANTS, in, n, 256, scratch, out), LAB_EINVAL);
    assert_status(reduce_sum((enum reduce_variant) - 1, in, n, 256, scratch, out), LAB_EINVAL);
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        struct gpu_buf odd = {(char *)in.ptr + 4, in.bytes - 4}; /* not 16-byte aligned */
        if (reduce_facts[v].int4_loads)
            assert_status(reduce_sum(v, odd, 10, 256, scratch, out), LAB_EINVAL);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),          TESTKIT_GIVEN(args_rejected),
    TESTKIT_VARIANTS(sum_matches),        TESTKIT_TEST(single_pass_repeated),
    TESTKIT_TEST(atomic_odd_block_sizes),
};

TESTKIT_MAIN("lab06_reduction", tests, reduce_variants, REDUCE_VARIANTS)
