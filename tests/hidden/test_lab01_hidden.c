/* lab01 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open: each variant writes
 * nothing past c[n - 1] (a test per variant, blind to the sum, which the visible tests
 * check), and the float4 kernel gets every tail length (n % 4 = 1, 2, 3) right. Their points and visibility are in tests/hidden/lab01.txt. */
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

/* Adds n elements into a buffer of n + SPARE and checks the untouched spare, and the sum
 * when asked. */
enum { SPARE = 300 };

static void check_sum_and_spare(enum vector_add_variant v, size_t n, int check_sum)
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
        assert_status(vector_add(v, da, db, dc, n), LAB_OK);
        gpu_sync();
        gpu_download(got, dc, bytes);
        bad = check_sum ? lab_first_diff(got, want, cap, sizeof(float))
                        : n + lab_first_diff(got + n, want + n, SPARE, sizeof(float));
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

static void no_writes_past_n(int v)
{
    check_sum_and_spare((enum vector_add_variant)v, 1000, 0);
}

static void float4_tails(void)
{
    static const size_t sizes[] = {2, 3, 5, 6, 7, 4094, 4095, 4097};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_sum_and_spare(ADD_GRID_STRIDE_FLOAT4, sizes[s], 1);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(no_writes_past_n),
    TESTKIT_TEST(float4_tails),
};

TESTKIT_MAIN("lab01_vector_add_hidden", tests, vector_add_variants, ADD_VARIANTS)
