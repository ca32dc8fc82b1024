/* lab06 tests: every variant against the CPU sum, exactly (int32 adds are exact while no
 * partial sum leaves the int range, and the test data keeps them inside it). Sizes that
 * are not multiples of any block size (1, 2, 31, 33, 1000003, 2^24 + 1) and a power of two;
 * every block size each variant accepts; fresh random data, output and scratch poisoned
 * before each run; every thread order of the CPU backend. minmax against the CPU's min and
 * max, exactly, at every edge of its loops, with the extremes placed first, last and in the
 * tail, on data that is all positive, all negative, all equal or at INT_MIN and INT_MAX.
 * Bad arguments: LAB_EINVAL. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "reduction.h"
#include "testkit.h"

enum { LABEL_SIZE = 160 }; /* a case's name: variant, size, data, threads, order */

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

/* One run of variant v (reduce_sum or reduce_extrema, as its op says) on `threads`-thread
 * blocks under the order set, `label` naming the case: out and scratch poisoned first, the
 * status checked, then out's ints downloaded into got. */
static void run_case(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
                     struct gpu_buf scratch, struct gpu_buf out, int *got, const char *label)
{
    int status;
    testkit_case("%s", label);
    gpu_poison(out);
    gpu_poison(scratch);
    status = reduce_facts[v].op == OP_SUM ? reduce_sum(v, in, n, threads, scratch, out)
                                          : reduce_extrema(v, in, n, threads, scratch, out);
    if (status != LAB_OK)
        fail_msg("%s: returned %s, want LAB_OK %s", label, lab_status_name(status),
                 status == LAB_ECUDA ? lab_cuda_failure() : "");
    gpu_sync();
    gpu_download(got, out, out.bytes);
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
        char label[LABEL_SIZE];
        int got;
        testkit_set_order(o);
        snprintf(label, sizeof label, "%s, n = %zu, %u threads, order %s", reduce_variants[v].name,
                 n, threads, testkit_order_name(o));
        run_case(v, in, n, threads, scratch, out, &got, label);
        if (got != (int)want)
            fail_msg("%s: sum %d, want %lld", label, got, want);
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

/* minmax's sizes: 1 to 5 (no int4 or one, and a tail of 0 to 3 ints), a warp -1, 0, +1, a
 * block of REDUCE_THREADS -1, 0, +1, a block's share (an int4 a thread: 4 x 256 ints) -1, 0,
 * +1, 2^12 +- 1, 2^16 +- 1, and the large sizes of the sums. */
static const size_t minmax_sizes[] = {
    1,   2,    3,    4,    5,    31,   32,    33,    255,     256,
    257, 1023, 1024, 1025, 4095, 4097, 65535, 65537, 1000003, (1u << 24) + 1};

/* The data minmax is checked on. The answers are never -1, the poison's value (gpu_poison):
 * a result never written cannot pass. */
enum {
    MM_RANDOM,   /* -1000..1000, one -1001 and one 1001 at random places */
    MM_POSITIVE, /* 2..1000, the min (1) first and the max (1001) last: 0 is no identity */
    MM_NEGATIVE, /* -1000..-3, the max (-2) first and the min (-1001) last */
    MM_TAIL,     /* -1000..1000, the min and the max among the last n % 4 ints (the tail
                    that the int4 loops leave), or in the last int4 when n % 4 == 0 */
    MM_EQUAL,    /* every element 7 */
    MM_LIMITS,   /* -1000..1000 with one INT_MIN and one INT_MAX at random places */
    MM_ALL_MAX,  /* every element INT_MAX (the min's identity itself) */
    MM_ALL_MIN,  /* every element INT_MIN */
    MM_KINDS
};
static const char *const mm_names[] = {"random",      "positive",   "negative",
                                       "tail",        "all 7",      "INT_MIN and INT_MAX",
                                       "all INT_MAX", "all INT_MIN"};

static size_t below(size_t n)
{
    return (size_t)(testkit_next() % n);
}

static void minmax_fill(int kind, int *x, size_t n)
{
    size_t tail = n % 4 ? n / 4 * 4 : n - (n < 4 ? n : 4), k;
    switch (kind) {
    case MM_RANDOM:
    case MM_LIMITS:
        testkit_ints(x, n, -1000, 1000);
        k = below(n);
        x[k] = kind == MM_RANDOM ? -1001 : INT_MIN;
        if (n > 1)
            x[(k + 1 + below(n - 1)) % n] = kind == MM_RANDOM ? 1001 : INT_MAX;
        break;
    case MM_POSITIVE:
        testkit_ints(x, n, 2, 1000);
        x[0] = 1;
        if (n > 1)
            x[n - 1] = 1001;
        break;
    case MM_NEGATIVE:
        testkit_ints(x, n, -1000, -3);
        x[0] = -2;
        if (n > 1)
            x[n - 1] = -1001;
        break;
    case MM_TAIL:
        testkit_ints(x, n, -1000, 1000);
        k = tail + below(n - tail);
        x[k] = -1001;
        if (n - tail > 1)
            x[tail + (k - tail + 1 + below(n - tail - 1)) % (n - tail)] = 1001;
        break;
    default:
        for (k = 0; k < n; k++)
            x[k] = kind == MM_EQUAL ? 7 : kind == MM_ALL_MAX ? INT_MAX : INT_MIN;
    }
}

/* The min and the max of x[0..n) with variant v on `threads`-thread blocks under every
 * thread order; out holds two ints, poisoned before each run. */
static void check_minmax(enum reduce_variant v, const int *x, size_t n, unsigned threads,
                         const char *data)
{
    struct gpu_buf in = gpu_alloc(n * sizeof(int)), out = gpu_alloc(2 * sizeof(int)), scratch;
    size_t scratch_bytes = reduce_scratch_bytes(v, n, threads);
    int want[2];
    reduce_extrema_cpu(x, n, &want[0], &want[1]);
    scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    gpu_upload(in, x, n * sizeof(int));
    for (int o = 0; o < testkit_orders(n); o++) {
        char label[LABEL_SIZE];
        int got[2];
        testkit_set_order(o);
        snprintf(label, sizeof label, "%s, n = %zu, %s, %u threads, order %s",
                 reduce_variants[v].name, n, data, threads, testkit_order_name(o));
        run_case(v, in, n, threads, scratch, out, got, label);
        if (got[0] != want[0] || got[1] != want[1])
            fail_msg("%s: min %d and max %d, want %d and %d", label, got[0], got[1], want[0],
                     want[1]);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static void minmax_matches(int v)
{
    /* every size and every kind of data at the default block size; past 2^16, where a run
     * takes the whole grid, random data and the tail only */
    for (size_t s = 0; s < sizeof minmax_sizes / sizeof minmax_sizes[0]; s++) {
        size_t n = minmax_sizes[s];
        int *x;
        if (n > testkit_max_size())
            continue;
        x = malloc(n * sizeof(int));
        for (int kind = 0; kind < MM_KINDS; kind++) {
            if (n > 65537 && kind != MM_RANDOM && kind != MM_TAIL)
                continue;
            minmax_fill(kind, x, n);
            check_minmax(v, x, n, REDUCE_THREADS, mm_names[kind]);
        }
        free(x);
    }
    /* every block size it accepts: with 32 threads warp 0 takes 31 identities for the warps
     * that the block does not have, with 1024 none */
    for (unsigned threads = 1; threads <= 1024; threads *= 2) {
        if (!reduce_threads_ok(v, threads))
            continue;
        for (size_t s = 0; s < sizeof block_sizes_n / sizeof block_sizes_n[0]; s++) {
            size_t n = block_sizes_n[s];
            int *x = malloc(n * sizeof(int));
            for (int kind = MM_RANDOM; kind <= MM_NEGATIVE; kind++) {
                minmax_fill(kind, x, n);
                check_minmax(v, x, n, threads, mm_names[kind]);
            }
            free(x);
        }
    }
}

/* Each variant's answer against the CPU's: the sum, or the min and the max. */
static void matches_cpu(int v)
{
    if (reduce_facts[v].op == OP_MINMAX)
        minmax_matches(v);
    else
        sum_matches(v);
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

/* Running twice on the same scratch: the counter of single_pass and minmax must start from 0
 * each time. */
static void repeated(enum reduce_variant v)
{
    size_t n = 100003;
    int *x, got[2], want[2];
    struct gpu_buf in, out, scratch;
    x = malloc(n * sizeof(int));
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(2 * sizeof(int));
    scratch = gpu_alloc(reduce_scratch_bytes(v, n, 256));
    testkit_ints(x, n, -1000, 1000);
    if (reduce_facts[v].op == OP_MINMAX)
        reduce_extrema_cpu(x, n, &want[0], &want[1]);
    else
        want[0] = (int)reduce_sum_cpu(x, n);
    gpu_upload(in, x, n * sizeof(int));
    for (int k = 0; k < 3; k++) {
        gpu_poison(out);
        if (reduce_facts[v].op == OP_MINMAX)
            assert_status(reduce_extrema(v, in, n, 256, scratch, out), LAB_OK);
        else
            assert_status(reduce_sum(v, in, n, 256, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(got, out, sizeof got);
        assert_int_equal(got[0], want[0]);
        if (reduce_facts[v].op == OP_MINMAX)
            assert_int_equal(got[1], want[1]);
    }
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
    free(x);
}

static void single_pass_repeated(void)
{
    repeated(REDUCE_SINGLE_PASS);
}

static void minmax_repeated(void)
{
    repeated(REDUCE_MINMAX);
}

static void reference_cpu(void)
{
    static const int x[] = {1, -2, 3, INT_MAX, INT_MAX, INT_MIN};
    assert_int_equal(reduce_sum_cpu(x, 3), 2);
    assert_true(reduce_sum_cpu(x, 5) == 2 + 2LL * INT_MAX); /* 64 bits: no overflow */
    assert_true(reduce_sum_cpu(x, 6) == 2 + 2LL * INT_MAX + INT_MIN);
    assert_true(reduce_sum_cpu(x, 0) == 0);
}

static void reference_extrema_cpu(void)
{
    static const int x[] = {1, -2, 3, INT_MAX, INT_MIN, 5};
    int min, max;
    reduce_extrema_cpu(x, 1, &min, &max);
    assert_true(min == 1 && max == 1);
    reduce_extrema_cpu(x, 3, &min, &max);
    assert_true(min == -2 && max == 3);
    reduce_extrema_cpu(x, 6, &min, &max);
    assert_true(min == INT_MIN && max == INT_MAX);
    reduce_extrema_cpu(x + 4, 2, &min, &max); /* the min first */
    assert_true(min == INT_MIN && max == 5);
    reduce_extrema_cpu(x, 0, &min, &max); /* the identities */
    assert_true(min == INT_MAX && max == INT_MIN);
}

/* v through its own function: reduce_sum, or reduce_extrema for minmax. */
static int reduce_run(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
                      struct gpu_buf scratch, struct gpu_buf out)
{
    if ((unsigned)v < REDUCE_VARIANTS && reduce_facts[v].op == OP_MINMAX)
        return reduce_extrema(v, in, n, threads, scratch, out);
    return reduce_sum(v, in, n, threads, scratch, out);
}

static void args_rejected(void)
{
    size_t n = 1000;
    struct gpu_buf in, out, scratch, none = {NULL, 0};
    in = gpu_alloc(n * sizeof(int));
    out = gpu_alloc(2 * sizeof(int)); /* minmax writes two */
    scratch = gpu_alloc(reduce_scratch_bytes(REDUCE_INTERLEAVED_DIVERGENT, n, 2));
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        unsigned t = REDUCE_THREADS;
        assert_status(reduce_run(v, none, n, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_run(v, in, n, t, scratch, none), LAB_EINVAL);
        assert_status(reduce_run(v, in, 0, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_run(v, in, n + 1, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_run(v, in, (size_t)INT_MAX + 1, t, scratch, out), LAB_EINVAL);
        assert_status(reduce_run(v, in, n, 0, scratch, out), LAB_EINVAL);
        assert_status(reduce_run(v, in, n, 2048, scratch, out), LAB_EINVAL);
        if (!reduce_facts[v].atomic) {
            struct gpu_buf small = {scratch.ptr, reduce_scratch_bytes(v, n, t) - 1};
            assert_status(reduce_run(v, in, n, 100, scratch, out), LAB_EINVAL); /* not 2^k */
            assert_int_equal(reduce_threads_ok(v, 100), 0);
            assert_status(reduce_run(v, in, n, t, none, out), LAB_EINVAL);
            assert_status(reduce_run(v, in, n, t, small, out), LAB_EINVAL);
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
            assert_status(reduce_run(v, in, n, min / 2, scratch, out), LAB_EINVAL);
        }
    }
    assert_status(reduce_run(REDUCE_VARIANTS, in, n, 256, scratch, out), LAB_EINVAL);
    assert_status(reduce_run((enum reduce_variant) - 1, in, n, 256, scratch, out), LAB_EINVAL);
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        struct gpu_buf odd = {(char *)in.ptr + 4, in.bytes - 4}; /* not 16-byte aligned */
        if (reduce_facts[v].int4_loads)
            assert_status(reduce_run(v, odd, 10, 256, scratch, out), LAB_EINVAL);
    }
    /* each function refuses the other's variants; minmax needs room for two results */
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        size_t bytes = reduce_scratch_bytes(v, n, 256);
        struct gpu_buf s = bytes ? scratch : none;
        assert_true(bytes <= scratch.bytes);
        if (reduce_facts[v].op == OP_MINMAX) {
            struct gpu_buf one = {out.ptr, sizeof(int)};
            assert_status(reduce_sum(v, in, n, 256, s, out), LAB_EINVAL);
            assert_status(reduce_extrema(v, in, n, 256, s, one), LAB_EINVAL);
        } else {
            assert_status(reduce_extrema(v, in, n, 256, s, out), LAB_EINVAL);
        }
    }
    assert_status(reduce_extrema(REDUCE_VARIANTS, in, n, 256, scratch, out), LAB_EINVAL);
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),          TESTKIT_HOST(reference_extrema_cpu),
    TESTKIT_GIVEN(args_rejected),         TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_TEST(single_pass_repeated),   TESTKIT_TEST(minmax_repeated),
    TESTKIT_TEST(atomic_odd_block_sizes),
};

TESTKIT_MAIN("lab06_reduction", tests, reduce_variants, REDUCE_VARIANTS)
