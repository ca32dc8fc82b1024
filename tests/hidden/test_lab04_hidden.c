/* lab04 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * sizes one below, at and one above every multiple that a variant's loops turn on, and
 * vectors that start 1, 2 or 3 floats past an aligned address (summed right, or refused by
 * the vec4 variants' launcher), with the result's slot inside a poisoned buffer and NaN
 * after the vectors' ends (a read past the end is a wrong sum on any backend, with or
 * without a sanitizer: the visible tests' vectors end where their buffers do). The data
 * are small integers, so every order of summation gives the exact sum (test_lab04_dot.c).
 * Points and visibility: tests/hidden/lab04.txt. */
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

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Floats of poison on either side of the result's slot, and after the vectors. */
enum { SPARE = 16 };

static void small_ints(float *x, size_t n)
{
    int *k = malloc(n * sizeof(int) + 1);
    testkit_ints(k, n, -1, 1);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)k[i];
    free(k);
}

/* a . b for n values in {-1, 0, 1} placed `shift` floats past an aligned start and followed
 * by SPARE NaNs, under every thread order: the exact sum, and the SPARE floats on either side
 * of it untouched. */
static void check(enum dot_variant v, size_t n, size_t shift)
{
    const char *name = dot_variants[v].name;
    size_t scratch_bytes = dot_scratch_bytes(v, n);
    float *a = malloc(n * sizeof(float) + 1), *b = malloc(n * sizeof(float) + 1);
    float got[2 * SPARE + 1], poison;
    struct gpu_buf da = gpu_alloc((shift + n + SPARE) * sizeof(float)),
                   db = gpu_alloc((shift + n + SPARE) * sizeof(float)),
                   dout = gpu_alloc(sizeof got), scratch = gpu_alloc(scratch_bytes + 1);
    struct gpu_buf ma = {(float *)da.ptr + shift, n * sizeof(float)},
                   mb = {(float *)db.ptr + shift, n * sizeof(float)},
                   out = {(float *)dout.ptr + SPARE, sizeof(float)};
    long double want;
    testkit_setenv("CUDA_CPU_STRICT", "1");
    small_ints(a, n);
    small_ints(b, n);
    want = dot_exact(a, b, n);
    gpu_poison(da);
    gpu_poison(db);
    gpu_upload(ma, a, n * sizeof(float));
    gpu_upload(mb, b, n * sizeof(float));
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, a and b at +%zu floats, order %s", name, n, shift,
                     testkit_order_name(o));
        gpu_poison(dout);
        gpu_poison(scratch);
        assert_status(dot(v, ma, mb, n, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, sizeof got);
        if (got[SPARE] != (float)want)
            fail_msg("%s, n = %zu, a and b at +%zu floats, order %s: %.9g, want exactly %.0Lf",
                     name, n, shift, testkit_order_name(o), got[SPARE], want);
        poison = got[0];
        for (int k = 0; k < 2 * SPARE + 1; k++)
            if (k != SPARE && memcmp(&got[k], &poison, sizeof poison))
                fail_msg("%s, n = %zu, order %s: out[%d] was written, but the result is out[0] "
                         "alone",
                         name, n, testkit_order_name(o), k - SPARE);
    }
    gpu_free(&da);
    gpu_free(&db);
    gpu_free(&dout);
    gpu_free(&scratch);
    free(a);
    free(b);
}

/* The grid that launch.cu gives the grid-stride variants: every SM full, at most 2048
 * threads on each (an H100's, and the CPU backend's). */
static size_t device_blocks(void)
{
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK)
        fail_msg("no device to size the grid from");
    return (size_t)info.sms * (2048 / DOT_THREADS);
}

/* n = k m - 1, k m and k m + 1 for k = 1, 2 and every m a variant's loops turn on: a warp,
 * a block, and for the thread-per-element variants a block of blocks (the finishing block's
 * strided share); for the vec4 ones 4 floats, a whole grid's float4s and the two-per-trip
 * loop's (its leftover float4 and tail). Under the race checker, the sizes up to its 2^15. */
static void block_edges(int v)
{
    int vec4 = dot_facts[v].vec4;
    size_t grid = vec4 ? device_blocks() * DOT_THREADS * 4 : 0;
    size_t units[] = {4, 32, DOT_THREADS, vec4 ? 0 : DOT_THREADS * DOT_THREADS, grid, 2 * grid};
    for (size_t u = 0; u < COUNT(units); u++)
        for (size_t k = 1; units[u] && k <= 2; k++)
            for (size_t n = k * units[u] - 1; n <= k * units[u] + 1; n++)
                if (n <= testkit_max_size())
                    check((enum dot_variant)v, n, 0);
}

/* a and b 1, 2 and 3 floats past a 16-byte boundary (and 4, which is one): only the vec4
 * variants may refuse them (LAB_EINVAL), and their launcher does. */
static void unaligned_input(int v)
{
    static const size_t sizes[] = {5003, 100003};
    for (size_t s = 0; s < COUNT(sizes); s++)
        for (size_t shift = 1; shift <= 4; shift++) {
            size_t n = sizes[s];
            if (n > testkit_max_size())
                continue; /* under the race checker: 25 s a variant, the strict run has it */
            if (dot_facts[v].vec4 && shift % 4) {
                struct gpu_buf a = gpu_alloc((n + shift) * sizeof(float)), out = gpu_alloc(4),
                               scratch = gpu_alloc(dot_scratch_bytes(v, n));
                struct gpu_buf moved = {(float *)a.ptr + shift, n * sizeof(float)};
                testkit_case("%s, n = %zu, a at +%zu floats: refused", dot_variants[v].name, n,
                             shift);
                assert_status(dot(v, moved, moved, n, scratch, out), LAB_EINVAL);
                gpu_free(&a);
                gpu_free(&out);
                gpu_free(&scratch);
                continue;
            }
            check((enum dot_variant)v, n, shift);
        }
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(unaligned_input),
};

TESTKIT_MAIN("lab04_dot_hidden", tests, dot_variants, DOT_VARIANTS)
