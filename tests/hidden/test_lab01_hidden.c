/* lab01 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open: each variant writes
 * every c[i] for i < n and nothing past c[n - 1] (a test per variant, blind to the values,
 * which the visible tests check), the float4 kernel gets every tail length (n % 4 = 1, 2, 3) right, and grid_2d
 * takes a matrix of more than 65535 rows. Their points and visibility are in tests/hidden/lab01.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpu.h"
#include "lab.h"
#include "testkit.h"
#include "vector_add.h"

/* Adds n elements into a buffer of n + SPARE and checks the untouched spare, and the sum
 * when asked (else only that each of the n elements was written: no longer the poison). */
enum { SPARE = 300 };

static size_t first_unwritten(const float *got, size_t n)
{
    static const unsigned char poison[sizeof(float)] = {0xFF, 0xFF, 0xFF, 0xFF};
    size_t i = 0;
    while (i < n && memcmp(&got[i], poison, sizeof poison))
        i++;
    return i;
}

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
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, order %s", vector_add_variants[v].name, n,
                     testkit_order_name(o));
        gpu_poison(dc);
        assert_status(vector_add(v, da, db, dc, n), LAB_OK);
        gpu_sync();
        gpu_download(got, dc, bytes);
        bad = check_sum ? lab_first_diff(got, want, cap, sizeof(float)) : first_unwritten(got, n);
        if (bad < n && check_sum)
            fail_msg("%s, n = %zu, order %s: c[%zu] = %g, want %g", vector_add_variants[v].name, n,
                     testkit_order_name(o), bad, got[bad], want[bad]);
        if (bad < n)
            fail_msg("%s, n = %zu, order %s: c[%zu] was not written", vector_add_variants[v].name,
                     n, testkit_order_name(o), bad);
        if (!check_sum)
            bad = n + lab_first_diff(got + n, want + n, SPARE, sizeof(float));
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

static void writes_exactly_n(int v)
{
    check_sum_and_spare((enum vector_add_variant)v, 1000, 0);
}

static void float4_tails(void)
{
    static const size_t sizes[] = {2, 3, 5, 6, 7, 4094, 4095, 4097};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        check_sum_and_spare(ADD_GRID_STRIDE_FLOAT4, sizes[s], 1);
}

/* grid_2d on 65536 rows of 1024 floats and one more element (3 x 268 MB on the device, 2 on
 * the host): the visible sizes stop at 16385 rows. A grid of 32 x 8 blocks needs 8193 of
 * them down; a launcher that gives each row its own block row (forgetting blockDim.y) asks
 * for 65537 > 65535 and refuses with LAB_EINVAL, and a kernel that drops blockIdx.y's rows
 * past 65535 is caught too. The solution refuses only past 65535 * 8 rows (n > 536,862,720:
 * 6.4 GB, too large here). One thread order: it does not change which rows a grid covers.
 * Under the race checker (2^15 elements at most) the largest size it allows. */
static void grid_2d_many_rows(void)
{
    size_t n = 65535 * (size_t)1024 + 1, bytes, bad;
    if (n > testkit_max_size())
        n = testkit_max_size() + 1;
    bytes = n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes);
    struct gpu_buf da = gpu_alloc(bytes), db = gpu_alloc(bytes), dc = gpu_alloc(bytes);
    testkit_floats(a, n, -1e3f, 1e3f);
    testkit_floats(b, n, -1e3f, 1e3f);
    gpu_upload(da, a, bytes);
    gpu_upload(db, b, bytes);
    vector_add_cpu(a, b, a, n); /* a becomes the sum, b the result read back */
    testkit_set_order(0);
    testkit_case("grid_2d, n = %zu, order %s", n, testkit_order_name(0));
    assert_status(vector_add(ADD_GRID_2D, da, db, dc, n), LAB_OK);
    gpu_sync();
    gpu_download(b, dc, bytes);
    bad = lab_first_diff(b, a, n, sizeof(float));
    if (bad < n)
        fail_msg("grid_2d, n = %zu, order %s: c[%zu] (row %zu) = %g, want %g", n,
                 testkit_order_name(0), bad, bad / 1024, b[bad], a[bad]);
    gpu_free(&da);
    gpu_free(&db);
    gpu_free(&dc);
    free(a);
    free(b);
}

#ifdef BACKEND_CUDA
/* Past 2^31 elements (a GPU's business: 8.6 GB, more than a CPU backend test can take): an
 * index computed in int (or a grid's product in unsigned) wraps there. The three vectors are
 * one buffer, c = a + a, so that GPUs of 12 GB run it; values i % 4096 keep the sums exact.
 * grid_2d may refuse (it has more rows than gridDim.y reaches); a GPU without the memory
 * skips, which scores nothing, with the reason. */
static void past_2_31(int v)
{
    size_t n = ((size_t)1 << 31) + 4099, bytes = n * sizeof(float), bad = n;
    struct gpu_info info;
    int status;
    if (gpu_query(&info) != LAB_OK || info.global_bytes < bytes + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n", bytes / 1e9 + 1);
        skip();
    }
    float *x = malloc(bytes);
    assert_non_null(x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(i % 4096);
    struct gpu_buf d = gpu_alloc(bytes);
    gpu_upload(d, x, bytes);
    testkit_case("%s, n = %zu", vector_add_variants[v].name, n);
    status = vector_add((enum vector_add_variant)v, d, d, d, n);
    if (v == ADD_GRID_2D && status == LAB_EINVAL)
        n = 0; /* refused, and nothing to check */
    else
        assert_status(status, LAB_OK);
    gpu_sync();
    gpu_download(x, d, bytes);
    for (size_t i = 0; i < n && bad == n; i++)
        if (x[i] != 2.0f * (float)(i % 4096))
            bad = i;
    if (bad < n)
        fail_msg("%s, n = %zu: c[%zu] = %g, want %g (an index that wraps at 2^31 or 2^32?)",
                 vector_add_variants[v].name, n, bad, x[bad], 2.0f * (float)(bad % 4096));
    gpu_free(&d);
    free(x);
}
#endif

static const struct testkit_test tests[] = {
    TESTKIT_EACH(writes_exactly_n),
    TESTKIT_TEST(float4_tails),
    TESTKIT_TEST(grid_2d_many_rows),
#ifdef BACKEND_CUDA
    TESTKIT_EACH(past_2_31),
#endif
};

TESTKIT_MAIN("lab01_vector_add_hidden", tests, vector_add_variants, ADD_VARIANTS)
