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

/* The sizes at the default block size. 2^24 + 1 runs on a GPU; on the CPU backend, where
 * every thread is a fiber, it runs only for the grid-stride variants (few threads) so that
 * the whole suite stays fast there. */
static const size_t sizes[] = {1, 2, 31, 33, 1u << 16, 1000003, (1u << 24) + 1};
/* The sizes every block size runs on: below, at and above a warp, and a few blocks' worth. */
static const size_t block_sizes_n[] = {1, 31, 33, 5003};

static int skip_on_cpu_backend(enum reduce_variant v, size_t n)
{
#ifdef BACKEND_CPU
    return n > 1000003 && !(v == REDUCE_CASCADED || v == REDUCE_WARP_SHUFFLE ||
                          v == REDUCE_VECTOR_LOAD || v == REDUCE_SINGLE_PASS);
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
    for (int o = 0; o < testkit_orders(); o++) {
        int got, status;
        testkit_set_order(o);
        gpu_poison(out);
        gpu_poison(scratch);
        status = reduce_sum(v, in, n, threads, scratch, out);
        if (status != LAB_OK)
            fail_msg("%s, n = %zu, %u threads, order %s: %s", reduce_names[v], n, threads,
                     testkit_order_name(o), lab_strerror(status));
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        if (got != (int)want)
            fail_msg("%s, n = %zu, %u threads, order %s: sum %d, want %lld", reduce_names[v], n,
                     threads, testkit_order_name(o), got, want);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static void check_variant(enum reduce_variant v)
{
    REQUIRE_DEVICE();
    /* every size at the default block size, values of both signs */
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        int *x = malloc(n * sizeof(int));
        if (skip_on_cpu_backend(v, n)) {
            free(x);
            continue;
        }
        testkit_ints(x, n, -1000, 1000);
        check_sum(v, x, n, REDUCE_THREADS);
        free(x);
    }
    /* a total near the top of the int range: 1000003 values in 0..2100 sum to about
     * 1.05e9 on average and at most 2.1e9 < INT_MAX = 2147483647 */
    {
        size_t n = 1000003;
        int *x = malloc(n * sizeof(int));
        testkit_ints(x, n, 0, 2100);
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

static void interleaved_divergent(void **state) { (void)state; check_variant(REDUCE_INTERLEAVED_DIVERGENT); }
static void interleaved_strided(void **state) { (void)state; check_variant(REDUCE_INTERLEAVED_STRIDED); }
static void sequential(void **state) { (void)state; check_variant(REDUCE_SEQUENTIAL); }
static void first_add_during_load(void **state) { (void)state; check_variant(REDUCE_FIRST_ADD_DURING_LOAD); }
static void unroll_last_warp(void **state) { (void)state; check_variant(REDUCE_UNROLL_LAST_WARP); }
static void complete_unroll(void **state) { (void)state; check_variant(REDUCE_COMPLETE_UNROLL); }
static void cascaded(void **state) { (void)state; check_variant(REDUCE_CASCADED); }
static void warp_shuffle(void **state) { (void)state; check_variant(REDUCE_WARP_SHUFFLE); }
static void vector_load(void **state) { (void)state; check_variant(REDUCE_VECTOR_LOAD); }
static void single_pass(void **state) { (void)state; check_variant(REDUCE_SINGLE_PASS); }
static void global_atomic(void **state) { (void)state; check_variant(REDUCE_GLOBAL_ATOMIC); }
static void shared_atomic(void **state) { (void)state; check_variant(REDUCE_SHARED_ATOMIC); }

/* The atomic baselines take any block size, not only powers of two. */
static void atomic_odd_block_sizes(void **state)
{
    static const unsigned odd[] = {1, 3, 100, 1000};
    (void)state;
    REQUIRE_DEVICE();
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
static void single_pass_repeated(void **state)
{
    size_t n = 100003;
    int *x, got;
    long long want;
    struct gpu_buf in, out, scratch;
    (void)state;
    REQUIRE_DEVICE();
    x = malloc(n * sizeof(int));
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(sizeof(int));
    scratch = gpu_alloc(reduce_scratch_bytes(REDUCE_SINGLE_PASS, n, 256));
    testkit_ints(x, n, -1000, 1000);
    want = reduce_sum_cpu(x, n);
    gpu_upload(in, x, n * sizeof(int));
    for (int k = 0; k < 3; k++) {
        gpu_poison(out);
        assert_int_equal(reduce_sum(REDUCE_SINGLE_PASS, in, n, 256, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(&got, out, sizeof got);
        assert_int_equal(got, (int)want);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
    free(x);
}

static void reference_cpu(void **state)
{
    static const int x[] = {1, -2, 3, INT_MAX, INT_MAX, INT_MIN};
    (void)state;
    assert_int_equal(reduce_sum_cpu(x, 3), 2);
    assert_true(reduce_sum_cpu(x, 5) == 2 + 2LL * INT_MAX); /* 64 bits: no overflow */
    assert_true(reduce_sum_cpu(x, 6) == 2 + 2LL * INT_MAX + INT_MIN);
    assert_true(reduce_sum_cpu(x, 0) == 0);
}

static void args_rejected(void **state)
{
    size_t n = 1000;
    struct gpu_buf in, out, scratch, none = {NULL, 0};
    (void)state;
    REQUIRE_DEVICE();
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(sizeof(int));
    scratch = gpu_alloc(reduce_scratch_bytes(REDUCE_INTERLEAVED_DIVERGENT, n, 2));
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        unsigned t = REDUCE_THREADS;
        assert_int_equal(reduce_sum(v, none, n, t, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, n, t, scratch, none), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, 0, t, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, n + 1, t, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, (size_t)INT_MAX + 1, t, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, n, 0, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(v, in, n, 2048, scratch, out), LAB_EINVAL);
        if (v != REDUCE_GLOBAL_ATOMIC && v != REDUCE_SHARED_ATOMIC) {
            struct gpu_buf small = {scratch.ptr, reduce_scratch_bytes(v, n, t) - 1};
            assert_int_equal(reduce_sum(v, in, n, 100, scratch, out), LAB_EINVAL); /* not 2^k */
            assert_int_equal(reduce_threads_ok(v, 100), 0);
            assert_int_equal(reduce_sum(v, in, n, t, none, out), LAB_EINVAL);
            assert_int_equal(reduce_sum(v, in, n, t, small, out), LAB_EINVAL);
        } else {
            assert_int_equal(reduce_threads_ok(v, 100), 1);
            assert_int_equal(reduce_scratch_bytes(v, n, t), 0);
        }
        assert_int_equal(reduce_scratch_bytes(v, 0, t), 0);
        assert_int_equal(reduce_scratch_bytes(v, n, 2048), 0);
    }
    /* below each variant's smallest block size */
    assert_int_equal(reduce_threads_ok(REDUCE_INTERLEAVED_DIVERGENT, 1), 0);
    assert_int_equal(reduce_threads_ok(REDUCE_UNROLL_LAST_WARP, 32), 0);
    assert_int_equal(reduce_threads_ok(REDUCE_WARP_SHUFFLE, 16), 0);
    assert_int_equal(reduce_threads_ok(REDUCE_COMPLETE_UNROLL, 1), 1);
    assert_int_equal(reduce_sum(REDUCE_UNROLL_LAST_WARP, in, n, 32, scratch, out), LAB_EINVAL);
    assert_int_equal(reduce_sum(REDUCE_SEQUENTIAL, in, n, 1, scratch, out), LAB_EINVAL);
    assert_int_equal(reduce_sum(REDUCE_VARIANTS, in, n, 256, scratch, out), LAB_EINVAL);
    assert_int_equal(reduce_sum((enum reduce_variant)-1, in, n, 256, scratch, out), LAB_EINVAL);
    {
        struct gpu_buf odd = {(char *)in.ptr + 4, in.bytes - 4}; /* not 16-byte aligned */
        assert_int_equal(reduce_sum(REDUCE_VECTOR_LOAD, odd, 10, 256, scratch, out), LAB_EINVAL);
        assert_int_equal(reduce_sum(REDUCE_SINGLE_PASS, odd, 10, 256, scratch, out), LAB_EINVAL);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(reference_cpu),
    cmocka_unit_test(args_rejected),
    cmocka_unit_test(interleaved_divergent),
    cmocka_unit_test(interleaved_strided),
    cmocka_unit_test(sequential),
    cmocka_unit_test(first_add_during_load),
    cmocka_unit_test(unroll_last_warp),
    cmocka_unit_test(complete_unroll),
    cmocka_unit_test(cascaded),
    cmocka_unit_test(warp_shuffle),
    cmocka_unit_test(vector_load),
    cmocka_unit_test(single_pass),
    cmocka_unit_test(single_pass_repeated),
    cmocka_unit_test(global_atomic),
    cmocka_unit_test(shared_atomic),
    cmocka_unit_test(atomic_odd_block_sizes),
};

TESTKIT_MAIN("lab06_reduction", tests)
