/* lab01 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open: each variant writes
 * every c[i] for i < n and nothing past c[n - 1] (a test per variant, blind to the values,
 * which the visible tests check), the float4 kernel gets every tail length (n % 4 = 1, 2, 3)
 * right, grid_2d takes a matrix of more than 65535 rows, every variant is right past 2^31 and
 * 2^32 elements, and one launch of every variant is timed right with work still in flight
 * before it. Their points and visibility are in tests/hidden/lab01.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "gpu.h"
#include "lab.h"
#include "testkit.h"
#include "vector_add.h"
#include "../test_lab01_buffers.h"

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
    size_t cap = n + SPARE, bad;
    struct lab01_bufs t = lab01_bufs_new(cap, LAB01_DEVICE); /* want: the sum of all cap */
    float *got = t.got, *want = t.want;
    memset(want + n, 0xFF, SPARE * sizeof(float)); /* the poison gpu_poison writes */
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, order %s", vector_add_variants[v].name, n,
                     testkit_order_name(o));
        gpu_poison(t.dc);
        assert_status(vector_add(v, t.da, t.db, t.dc, n), LAB_OK);
        gpu_sync();
        gpu_download(got, t.dc, t.bytes);
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
    lab01_bufs_free(&t);
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

/* Past 2^31 and 2^32 elements, where an index computed in int or unsigned wraps: c = a + a in
 * place, in one buffer of n = 2^32 + 4099 floats (17.2 GB), zero but for three windows that the
 * test fills with i % 4096 + 1 and alone checks: its start, 2^31 +- 8192, and 2^32 - 8192 to
 * its end. Each element must come back doubled: as it was, no thread wrote it (an index that
 * wrapped to a negative int fails i < n); doubled twice, a thread whose index wrapped past
 * 2^32 wrote it again. On a GPU every block runs (one without 18.2 GB of memory skips, which
 * scores nothing); on the CPU backend only those that hold the windows' threads
 * (testkit_window, under which the grid-stride launchers' grids cover n in one pass), on
 * memory mapped where touched. The windows are whole rows of grid_2d's 32 x 8 blocks (8192
 * elements); it may refuse (65535 x 8 rows of 1024 stop short of 2^31). one_block's one block
 * walks all n, which no window shortens: a GPU's alone. */
static void past_2_32(int v)
{
    const size_t n = ((size_t)1 << 32) + 4099, bytes = n * sizeof(float);
    const size_t w[3][2] = {{0, 8192},
                            {((size_t)1 << 31) - 8192, ((size_t)1 << 31) + 8192},
                            {((size_t)1 << 32) - 8192, n}};
    const char *name = vector_add_variants[v].name;
    char why[600] = "";
    int status;
#ifdef BACKEND_CUDA
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK || info.global_bytes < bytes + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n", bytes / 1e9 + 1);
        skip();
    }
#else
    (void)bytes;
#endif
    testkit_case("%s, n = %zu", name, n);
    status = lab01_add_in_windows(v, n, w, 3, why, sizeof why,
                                  "an index that wraps at 2^31 or 2^32 skips it?");
    if (v != ADD_GRID_2D || status != LAB_EINVAL) /* grid_2d: refused, nothing to check */
        assert_status(status, LAB_OK);
    if (why[0])
        fail_msg("%s, n = %zu: %s", name, n, why);
}

/* grid_2d on 65536 rows of 1024 floats and one more element: the visible sizes stop at 16385
 * rows. A grid of 32 x 8 blocks needs 8193 of them down; a launcher that gives each row its
 * own block row (forgetting blockDim.y) asks for 65537 > 65535 and refuses with LAB_EINVAL,
 * and a kernel that drops blockIdx.y's rows past 65535 is caught too. The solution refuses
 * only past 65535 * 8 rows (n > 536,862,720: 6.4 GB, too large here). On a GPU every element
 * is checked (3 x 268 MB on the device, 2 on the host); on the CPU backend, whose one core a
 * sum of 67 million threads keeps busy for seconds, the first and last 2 block rows alone, as
 * past_2_32 does (the rows in between are grid_2d's visible test's business). One thread
 * order: it does not change which rows a grid covers. Under the race checker (2^15 elements
 * at most) the largest size it allows. */
static void grid_2d_many_rows(void)
{
    size_t n = 65535 * (size_t)1024 + 1, bad;
    testkit_set_order(0);
#ifdef BACKEND_CPU
    if (n <= testkit_max_size()) {
        const size_t w[2][2] = {{0, 2 * 8192}, {(n - 1) / 8192 * 8192 - 8192, n}};
        char why[600] = "";
        testkit_case("grid_2d, n = %zu, order %s, the first and last 2 block rows", n,
                     testkit_order_name(0));
        assert_status(
            lab01_add_in_windows(ADD_GRID_2D, n, w, 2, why, sizeof why, "a row past the grid's?"),
            LAB_OK);
        if (why[0])
            fail_msg("grid_2d, n = %zu: %s", n, why);
        return;
    }
#endif
    if (n > testkit_max_size())
        n = testkit_max_size() + 1;
    struct lab01_bufs t = lab01_bufs_new(n, LAB01_DEVICE_IN_PLACE); /* want is a, got is b */
    testkit_case("grid_2d, n = %zu, order %s", n, testkit_order_name(0));
    assert_status(vector_add(ADD_GRID_2D, t.da, t.db, t.dc, n), LAB_OK);
    gpu_sync();
    bad = lab01_first_wrong(&t);
    if (bad < n)
        fail_msg("grid_2d, n = %zu, order %s: c[%zu] (row %zu) = %g, want %g", n,
                 testkit_order_name(0), bad, bad / 1024, t.got[bad], t.want[bad]);
    lab01_bufs_free(&t);
}

/* vector_add_timed on every variant, each call while the launch before it (the same sum, not
 * waited for) may still be running: the time above 0 and within the host's wait for the call,
 * the sum right, and, where the CPU backend counts them, no event left alive and no work left
 * to run. */
static void timed_every_variant(void)
{
    /* under the race checker its largest size: what is timed is not the point there */
    const size_t n = testkit_max_size() < 65537 ? testkit_max_size() : 65537;
    struct lab01_bufs t = lab01_bufs_new(n, LAB01_DEVICE);
    for (int v = 0; v < ADD_VARIANTS; v++) {
        const char *name = vector_add_variants[v].name;
        int64_t before[2], after[2];
        struct timespec t0, t1;
        float ms = -1;
        double wall;
        testkit_case("vector_add_timed: %s, n = %zu, after a launch not waited for", name, n);
        gpu_poison(t.dc);
        assert_status(vector_add((enum vector_add_variant)v, t.da, t.db, t.dc, n), LAB_OK);
        testkit_held(before);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        assert_status(vector_add_timed((enum vector_add_variant)v, t.da, t.db, t.dc, n, &ms),
                      LAB_OK);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        testkit_held(after);
        wall = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
        if (after[0] > before[0] || after[1] > 0)
            fail_msg("%s: %lld events more alive after the call, %lld pieces of work left to run",
                     name, (long long)(after[0] - before[0]), (long long)after[1]);
        if (!(ms > 0) || ms > wall * 1.01 + 0.01)
            fail_msg("%s: %g ms, for a call of %.3f ms on the host's clock", name, ms, wall);
        lab01_check(&t, NULL, "%s", name);
    }
    lab01_bufs_free(&t);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(writes_exactly_n),  TESTKIT_TEST(float4_tails),
    TESTKIT_TEST(grid_2d_many_rows), TESTKIT_TEST(timed_every_variant),
#ifdef BACKEND_CUDA
    TESTKIT_EACH(past_2_32),
#else
    TESTKIT_EACH_EXCEPT(past_2_32, ADD_ONE_BLOCK),
#endif
};

TESTKIT_MAIN("lab01_vector_add_hidden", tests, vector_add_variants, ADD_VARIANTS)
