/* lab06 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * sizes one below, at and one above every multiple that a variant's loops and passes turn on,
 * and inputs that start 1, 2 or 3 ints past an aligned address (summed right, or refused by
 * the int4 variants' launcher), with the result's slot inside a poisoned buffer. For minmax,
 * whose visible tests place the extremes first, last and in the tail: the min and the max at
 * every edge of its loops, one position at a time. Points and visibility:
 * tests/hidden/lab06.txt. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "reduction.h"
#include "testkit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Ints of poison on either side of the result's slots (out[0] of the API, and out[1] for
 * minmax). */
enum { SPARE = 16 };

/* Reduces x[0..n) placed `shift` ints past an aligned start with variant v on
 * REDUCE_THREADS-thread blocks, under every thread order: the sum (or the min and the max)
 * must be right and the SPARE ints on either side of the results untouched. */
static void check_data(enum reduce_variant v, const int *x, size_t n, size_t shift)
{
    const char *name = reduce_variants[v].name;
    int minmax = reduce_facts[v].op == OP_MINMAX, results = minmax ? 2 : 1;
    size_t scratch_bytes = reduce_scratch_bytes(v, n, REDUCE_THREADS);
    int got[2 * SPARE + 2], want[2];
    struct gpu_buf din = gpu_alloc((n + shift) * sizeof(int)), dout = gpu_alloc(sizeof got),
                   scratch = gpu_alloc(scratch_bytes + 1);
    struct gpu_buf in = {(int *)din.ptr + shift, n * sizeof(int)},
                   out = {(int *)dout.ptr + SPARE, results * sizeof(int)};
    if (minmax)
        reduce_extrema_cpu(x, n, &want[0], &want[1]);
    else
        want[0] = (int)reduce_sum_cpu(x, n);
    gpu_upload(in, x, n * sizeof(int));
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, in at +%zu ints, order %s", name, n, shift,
                     testkit_order_name(o));
        gpu_poison(dout);
        gpu_poison(scratch);
        if (minmax)
            assert_status(reduce_extrema(v, in, n, REDUCE_THREADS, scratch, out), LAB_OK);
        else
            assert_status(reduce_sum(v, in, n, REDUCE_THREADS, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, sizeof got);
        if (!minmax && got[SPARE] != want[0])
            fail_msg("%s, n = %zu, in at +%zu ints, order %s: sum %d, want %d", name, n, shift,
                     testkit_order_name(o), got[SPARE], want[0]);
        if (minmax && (got[SPARE] != want[0] || got[SPARE + 1] != want[1]))
            fail_msg("%s, n = %zu, in at +%zu ints, order %s: min %d and max %d, want %d and %d",
                     name, n, shift, testkit_order_name(o), got[SPARE], got[SPARE + 1], want[0],
                     want[1]);
        for (int k = 0; k < 2 * SPARE + 2; k++)
            if ((k < SPARE || k >= SPARE + results) && got[k] != -1)
                fail_msg("%s, n = %zu, in at +%zu ints, order %s: out[%d] was written, but the "
                         "result is out[0]%s alone",
                         name, n, shift, testkit_order_name(o), k - SPARE,
                         minmax ? " and out[1]" : "");
    }
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&scratch);
}

/* check_data on n random ints (-1000..1000; for minmax one -1001 and one 1001 at random
 * places, so that each answer is one element). */
static void check(enum reduce_variant v, size_t n, size_t shift)
{
    int *x = malloc(n * sizeof(int));
    testkit_ints(x, n, -1000, 1000);
    if (reduce_facts[v].op == OP_MINMAX) {
        x[testkit_next() % n] = -1001;
        x[testkit_next() % n] = 1001;
    }
    check_data(v, x, n, shift);
    free(x);
}

/* The grid that launch.cu gives the grid-stride variants: every SM full, at most 32 blocks
 * or 2048 threads on each (those of an H100 and of the CPU backend). */
static size_t device_blocks(void)
{
    struct gpu_info info;
    size_t per_sm = 2048 / REDUCE_THREADS < 32 ? 2048 / REDUCE_THREADS : 32;
    if (gpu_query(&info) != LAB_OK)
        fail_msg("no device to size the grid from");
    return (size_t)info.sms * per_sm;
}

/* n = k m - 1, k m and k m + 1 for k = 1, 2 and every m that a variant's loops turn on: a
 * warp, a block, a block's share of one pass (load x threads); for the pass-after-pass
 * variants that share squared (the second pass needs one block or two); for the grid-stride
 * ones one trip of the whole grid and, with int4 loads, one trip of the loop that keeps four
 * int4s in flight per thread. The visible sizes (31, 33, 2^16, 1000003...) meet few of these
 * edges exactly. Under the race checker, the sizes up to its 2^15 only. */
static void block_edges(int v)
{
    const struct reduce_facts *f = &reduce_facts[v];
    size_t share = (size_t)f->load * REDUCE_THREADS, grid = f->grid_stride ? device_blocks() : 0;
    size_t units[] = {32,           REDUCE_THREADS,
                      share,        f->grid_stride || f->atomic ? 0 : share * share,
                      share * grid, f->int4_loads ? 16 * REDUCE_THREADS * grid : 0};
    for (size_t u = 0; u < COUNT(units); u++)
        for (size_t k = 1; units[u] && k <= 2; k++)
            for (size_t n = k * units[u] - 1; n <= k * units[u] + 1; n++)
                if (n <= testkit_max_size())
                    check((enum reduce_variant)v, n, 0);
}

/* The input 1, 2 and 3 ints past a 16-byte boundary (and 4, which is one): a kernel must not
 * assume more alignment than an int's unless its launcher checks for it, as the int4 variants'
 * does (LAB_EINVAL). The result's slot sits in a poisoned buffer: nothing else is written.
 * Under the race checker, the first size only (its 2^15). */
static void unaligned_input(int v)
{
    static const size_t sizes[] = {5003, 100003};
    for (size_t s = 0; s < COUNT(sizes) && sizes[s] <= testkit_max_size(); s++)
        for (size_t shift = 1; shift <= 4; shift++) {
            size_t n = sizes[s];
            if (reduce_facts[v].int4_loads && shift % 4) {
                struct gpu_buf in = gpu_alloc((n + shift) * sizeof(int)), out = gpu_alloc(4),
                               scratch = gpu_alloc(reduce_scratch_bytes(v, n, REDUCE_THREADS));
                struct gpu_buf moved = {(int *)in.ptr + shift, n * sizeof(int)};
                testkit_case("%s, n = %zu, in at +%zu ints: refused", reduce_variants[v].name, n,
                             shift);
                assert_status(reduce_sum(v, moved, n, REDUCE_THREADS, scratch, out), LAB_EINVAL);
                gpu_free(&in);
                gpu_free(&out);
                gpu_free(&scratch);
                continue;
            }
            check((enum reduce_variant)v, n, shift);
        }
}

/* minmax with its min, then its max, alone at each place where one of its loops hands over
 * to the next: the first and the last element, either side of the first int4 boundary and of
 * one grid trip's int4s and of the four-int4 loop's trip, the last int before the tail and
 * the first in it. The min (1) on positive data, the max (-2, not the poison's -1) on
 * negative data, so that neither 0 nor any other value can pass for the identities. */
static void minmax_extremes_placed(void)
{
    size_t grid = device_blocks(), trip = 4 * REDUCE_THREADS * grid;
    size_t sizes[] = {4 * trip + 3, trip + 7, 4 * REDUCE_THREADS + 2, 37};
    for (size_t s = 0; s < COUNT(sizes); s++) {
        size_t n = sizes[s], tail = n / 4 * 4;
        size_t at[] = {0,        1,        3,    4,    n / 2, trip - 1, trip, 4 * trip - 1,
                       4 * trip, tail - 1, tail, n - 1};
        int *x;
        if (n > testkit_max_size())
            continue;
        x = malloc(n * sizeof(int));
        for (size_t a = 0; a < COUNT(at); a++) {
            if (at[a] >= n)
                continue;
            for (int sign = 0; sign < 2; sign++) {
                /* positive data with the min at at[a] and the max at the other end, or negative
                 * data with the max at at[a] and the min at the other end */
                size_t other = at[a] < n / 2 ? n - 1 : 0;
                testkit_ints(x, n, sign ? -1000 : 2, sign ? -3 : 1000);
                x[other] = sign ? -1001 : 1001;
                x[at[a]] = sign ? -2 : 1;
                testkit_case("minmax, n = %zu, the %s at %zu", n, sign ? "max" : "min", at[a]);
                check_data(REDUCE_MINMAX, x, n, 0);
            }
        }
        free(x);
    }
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(unaligned_input),
    TESTKIT_TEST(minmax_extremes_placed),
};

TESTKIT_MAIN("lab06_reduction_hidden", tests, reduce_variants, REDUCE_VARIANTS)
