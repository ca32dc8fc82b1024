/* lab01 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open: a kernel writes
 * c[i] for i < n and nothing after it, and the float4 kernel gets every tail length
 * (n % 4 = 1, 2, 3) right. Their points and visibility are in tests/hidden/lab01.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "vector_add.h"

/* Adds n elements into a buffer of n + SPARE and checks the sum and the untouched spare. */
enum { SPARE = 300 };

static void check_sum_and_spare(enum vector_add_variant v, size_t n)
{
    size_t cap = n + SPARE, bytes = cap * sizeof(float), bad;
    float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
    struct gpu_buf da = gpu_alloc(bytes), db = gpu_alloc(bytes), dc = gpu_alloc(bytes);
    testkit_floats(a, cap, -1e3f, 1e3f);
    testkit_floats(b, cap, -1e3f, 1e3f);
    vector_add_cpu(a, b, want, n);
    memset(want + n, 0xFF, SPARE * sizeof(float)); /* the poison gpu_poison writes */
    gpu_upload(da, a, bytes);
    gpu_upload(db, b, bytes);
    for (int o = 0; o < testkit_orders(); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, order %s", vector_add_variants[v].name, n,
                     testkit_order_name(o));
        gpu_poison(dc);
        assert_int_equal(vector_add(v, da, db, dc, n), LAB_OK);
        gpu_sync();
        gpu_download(got, dc, bytes);
        bad = lab_first_diff(got, want, cap, sizeof(float));
        if (bad < n)
            fail_msg("%s, n = %zu, order %s: c[%zu] = %g, want %g", vector_add_variants[v].name, n,
                     testkit_order_name(o), bad, got[bad], want[bad]);
        if (bad < cap)
            fail_msg("%s, n = %zu, order %s: c[%zu] was written, past the n elements asked for",
                     vector_add_variants[v].name, n, testkit_order_name(o), bad);
    }
    gpu_free(&da);
    gpu_free(&db);
    gpu_free(&dc);
    free(a);
    free(b);
    free(got);
    free(want);
}

static void no_writes_past_n(void)
{
    for (int v = 0; v < ADD_VARIANTS; v++)
        check_sum_and_spare(v, 1000);
}

static void float4_tails(void)
{
    static const size_t sizes[] = {2, 3, 5, 6, 7, 4094, 4095, 4097};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_sum_and_spare(ADD_GRID_STRIDE_FLOAT4, sizes[s]);
}

static const struct testkit_test tests[] = {
    TESTKIT_TEST(no_writes_past_n),
    TESTKIT_TEST(float4_tails),
};

TESTKIT_MAIN("lab01_vector_add_hidden", tests, vector_add_variants, ADD_VARIANTS)
