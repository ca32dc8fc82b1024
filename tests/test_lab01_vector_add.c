/* lab01 tests: every variant against the CPU loop, exact (one float add rounds the same
 * on both), on sizes around the block size and past one grid dimension, with fresh random
 * inputs and a poisoned output (on the CPU backend, the largest in two windows: WINDOWED_N);
 * and bad arguments rejected with an error code. On the CPU backend, each variant's work
 * too (work_in_proportion.VARIANT): the basic blocks its kernel
 * threads execute, which the backend counts (cucc --count-work, which lab.mk asks for), must
 * stay within a constant factor of the elements and threads, so a grid-stride loop that
 * steps by blockDim.x, right answer and all, fails. One launch timed by two events
 * (vector_add_timed): a time above 0 and within the host's wait for the call, the sum right,
 * the events destroyed and the launch waited for (the CPU backend counts both), the launch's
 * error passed on (timed_launch_errors, on the CPU backend, whose device can refuse a grid). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "vector_add.h"
#include "test_lab01_buffers.h"

/* Around a block (256) and a warp; 65537, 1000003 and 2^24 + 1 end in a ragged last row of
 * grid_2d's matrix (rows of 1024) and a partly idle last block of every 1D grid. */
static const size_t sizes[] = {0, 1, 31, 33, 65537, 1000003, (1u << 24) + 1};

/* From this size on, the CPU backend runs and checks the first and last 16384 elements
 * alone (lab01_add_in_windows: the blocks of the rest do not run), what an index wrong at the
 * end shows in: its strict run's slowest case, and the elements between are those of the
 * smaller sizes' arithmetic. one_block's one block walks all n, which no window shortens. */
enum { WINDOWED_N = 1 << 20 };

/* Variant v on n elements in two windows (the CPU backend): the first 16384, and the last
 * block row of grid_2d's and 8192 elements before it. */
static int windowed_sum(int v, size_t n)
{
#ifdef BACKEND_CPU
    const size_t w[2][2] = {{0, 16384}, {(n - 1) / 8192 * 8192 - 8192, n}};
    char why[400] = "";
    if (v == ADD_ONE_BLOCK || n < WINDOWED_N || n > testkit_max_size())
        return 0;
    testkit_case("%s, n = %zu, the first and last 16384 elements", vector_add_variants[v].name, n);
    assert_status(lab01_add_in_windows(v, n, w, 2, why, sizeof why, "the grid misses it?"), LAB_OK);
    if (why[0])
        fail_msg("%s, n = %zu (c = a + a in place, only the first and last 16384 elements run "
                 "on the CPU backend): %s",
                 vector_add_variants[v].name, n, why);
    return 1;
#else
    (void)v, (void)n;
    return 0;
#endif
}

/* Every size under every thread order, against the CPU loop. */
static void sum_matches(int v)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (n > testkit_max_size() || windowed_sum(v, n))
            continue;
        struct lab01_bufs t = lab01_bufs_new(n, LAB01_DEVICE);
        for (int o = 0; o < testkit_orders(n); o++) {
            testkit_set_order(o);
            testkit_case("%s, n = %zu, order %s", vector_add_variants[v].name, n,
                         testkit_order_name(o));
            gpu_poison(t.dc);
            assert_status(vector_add((enum vector_add_variant)v, t.da, t.db, t.dc, n), LAB_OK);
            gpu_sync();
            lab01_check(&t, NULL, "%s, n = %zu, order %s", vector_add_variants[v].name, n,
                        testkit_order_name(o));
        }
        lab01_bufs_free(&t);
    }
}

static void host_round_trip(void)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (n > testkit_max_size())
            continue;
        struct lab01_bufs t = lab01_bufs_new(n, LAB01_HOST);
        testkit_floats(t.got, n, 1e30f, 1e31f); /* poison: no sum of inputs is this large */
        testkit_case("vector_add_host, n = %zu", n);
        assert_status(vector_add_host(t.a, t.b, t.got, n), LAB_OK);
        lab01_check(&t, NULL, "n = %zu", n);
        lab01_bufs_free(&t);
    }
}

/* The host's monotonic clock in ms (the test's own: the grader's judge links no timing.c). */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* What the runtime holds after a call against before it (testkit_held: the CPU backend counts
 * them, a GPU does not): the events made must be destroyed, and after a launch that went well
 * the work timed waited for (after a refused one, nothing need wait for the start's record). */
static void nothing_held(const char *what, const int64_t before[2], const int64_t after[2],
                         int launched)
{
    if (after[0] > before[0])
        fail_msg("%s: %lld CUDA events more alive after the call than before: destroy both", what,
                 (long long)(after[0] - before[0]));
    if (launched && after[1] > 0)
        fail_msg("%s: the call returned with %lld pieces of device work still to run: record the "
                 "stop event after the launch, and wait for it",
                 what, (long long)after[1]);
}

/* On a real GPU (not the CPU backend's nominal figures), from 2^24 elements (201 MB moved, past
 * any L2) a time is also checked against the memory: a kernel cannot move its bytes at twice
 * the memory's ceiling, and a stop recorded before the launch times nothing. */
enum { CEILING_N = 1 << 24 };

/* Variant v on n random elements, timed once by vector_add_timed: LAB_OK and the sum right; a
 * time above 0 (start before stop) and no longer than the host waited for the call (it is in
 * milliseconds), nor too short for the bytes moved; no event left alive and no work left to
 * run when it returns. */
static void timed_case(int v, size_t n)
{
    struct lab01_bufs t = lab01_bufs_new(n, LAB01_DEVICE);
    const char *name = vector_add_variants[v].name;
    int64_t before[2], after[2];
    struct gpu_info d;
    char what[64];
    float ms = -1; /* the poison: a time is above 0 */
    double wall;
    int status;
    gpu_poison(t.dc);
    gpu_sync();
    snprintf(what, sizeof what, "%s, n = %zu", name, n);
    testkit_case("vector_add_timed: %s", what);
    testkit_held(before);
    wall = now_ms();
    status = vector_add_timed((enum vector_add_variant)v, t.da, t.db, t.dc, n, &ms);
    wall = now_ms() - wall;
    testkit_held(after);
    assert_status(status, LAB_OK);
    nothing_held(what, before, after, 1);
    if (!(ms > 0))
        fail_msg("%s: %g ms; the time from start to stop is above 0 "
                 "(cudaEventElapsedTime(&ms, start, stop))",
                 what, ms);
    if (ms > wall * 1.01 + 0.01)
        fail_msg("%s: %g ms, but the whole call took %.3f ms on the host's clock "
                 "(cudaEventElapsedTime gives milliseconds)",
                 what, ms, wall);
    assert_status(gpu_query(&d), LAB_OK);
    if (n >= CEILING_N && !d.nominal && 12.0 * n / (ms * 1e6) > 2 * d.peak_gbs)
        fail_msg("%s: %g ms is %.0f GB/s, over twice the memory's ceiling (%.0f GB/s): is the "
                 "stop event recorded after the launch?",
                 what, ms, 12.0 * n / (ms * 1e6), d.peak_gbs);
    lab01_check(&t, "the launch timed must add", "%s", what);
    lab01_bufs_free(&t);
}

/* Two variants, one thread per element and the float4 loop, on one element, an awkward size
 * and, on a GPU, past its L2. */
static void timed_launch(void)
{
    static const int variants[] = {ADD_THREAD_PER_ELEMENT, ADD_GRID_STRIDE_FLOAT4};
    struct gpu_info d;
    assert_status(gpu_query(&d), LAB_OK);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        timed_case(variants[k], 1);
        timed_case(variants[k], testkit_max_size() < 1000003 ? testkit_max_size() : 1000003);
        if (!d.nominal)
            timed_case(variants[k], CEILING_N + 1);
    }
}

#ifdef BACKEND_CPU
/* The launch's error comes back, and the events still go: the device refuses grid_2d's grid
 * of three rows of blocks where gridDim.y may reach 1 (CUDA_CPU_MAX_GRID_YZ, which a GPU has no
 * knob for: LAB_ECUDA from the launch's check); then a call that works. */
static void timed_launch_errors(void)
{
    size_t n = 2 * 8 * 1024 + 1, bytes = n * sizeof(float);
    struct gpu_buf a = gpu_alloc(bytes), b = gpu_alloc(bytes), c = gpu_alloc(bytes);
    int64_t before[2], after[2];
    float ms = -1;
    int status;
    testkit_case("vector_add_timed: grid_2d, n = %zu, gridDim.y at most 1", n);
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", "1");
    testkit_held(before);
    status = vector_add_timed(ADD_GRID_2D, a, b, c, n, &ms);
    testkit_held(after);
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", NULL);
    assert_status(status, LAB_ECUDA);
    nothing_held("grid_2d refused by the device", before, after, 0);
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
    timed_case(ADD_GRID_2D, n);
}
#endif

#ifdef BACKEND_CPU
/* Work in proportion: the CPU backend counts the basic blocks of code that kernel threads
 * execute (testkit_work; no clock can tell here), and a variant may execute at most
 * WORK_FACTOR per element and per thread launched. A grid-stride loop that steps by
 * blockDim.x instead of the whole grid gives the right answer, every block redoing the rest
 * of the vector after its part: as many times the work as the grid has blocks, which the
 * other tests cannot see. The grid-stride variants size their grid to the device, 8 blocks
 * of 256 per SM: on a device of WORK_SMS SMs (the backend's CUDA_CPU_SMS), 256 blocks.
 *
 * The factor, from the counts at n = 2^20 (the same with and without ASan and UBSan): per
 * element, one_block 1.0, thread_per_element 3.0 and grid_2d 4.0 (a thread each: 1.5 and
 * 2.0 per element and thread), grid_stride 1.12, grid_stride_float4 0.50; with the stride
 * blockDim.x, grid_stride 248 and grid_stride_float4 56. 8 is 4 times the most that a right
 * variant does, and 6.6 times under the least that the wrong stride does. The race checker
 * runs n = 2^15 (testkit_max_size), where the counts per element are about the same and
 * the wrong stride is reported first as what it also is: a race between blocks writing the
 * same elements. */
static const char WORK_SMS[] = "32";
static const double WORK_FACTOR = 8;

/* Variant v on n random elements, checked; *work and *threads: what its launch counted. */
static void add_counted(int v, size_t n, uint64_t *work, uint64_t *threads)
{
    struct lab01_bufs t = lab01_bufs_new(n, LAB01_DEVICE);
    int status;
    testkit_setenv("CUDA_CPU_SMS", WORK_SMS);
    testkit_work_begin();
    status = vector_add((enum vector_add_variant)v, t.da, t.db, t.dc, n);
    gpu_sync();
    testkit_setenv("CUDA_CPU_SMS", NULL);
    *work = testkit_work();
    *threads = testkit_work_threads();
    assert_status(status, LAB_OK);
    lab01_check(&t, NULL, "%s, n = %zu", vector_add_variants[v].name, n);
    lab01_bufs_free(&t);
}

static void work_in_proportion(int v)
{
    size_t n = testkit_max_size() < (1u << 20) ? testkit_max_size() : (1u << 20);
    uint64_t work, threads;
    const char *name = vector_add_variants[v].name;
    testkit_case("%s, n = %zu, %s SMs", name, n, WORK_SMS);
    add_counted(v, n, &work, &threads);
    print_message("%s: %.2f basic blocks per element, %llu threads\n", name, (double)work / n,
                  (unsigned long long)threads);
    if (work > WORK_FACTOR * (double)(n + threads))
        fail_msg("%s: %.1f basic blocks of kernel code per element at n = %zu, at most %.1f "
                 "expected (%g per element and per thread launched, %llu threads): does one "
                 "thread do each element, once? A grid-stride loop steps by the whole grid",
                 name, (double)work / n, n, WORK_FACTOR * (double)(n + threads) / n, WORK_FACTOR,
                 (unsigned long long)threads);
}
#endif

static void args_rejected(void)
{
    struct gpu_buf a, b, c, none = {NULL, 0};
    a = gpu_alloc(100 * sizeof(float));
    b = gpu_alloc(100 * sizeof(float));
    c = gpu_alloc(50 * sizeof(float));
    for (int v = 0; v < ADD_VARIANTS; v++) {
        assert_status(vector_add(v, none, b, a, 10), LAB_EINVAL);
        assert_status(vector_add(v, a, none, b, 10), LAB_EINVAL);
        assert_status(vector_add(v, a, b, none, 10), LAB_EINVAL);
        assert_status(vector_add(v, a, b, c, 51), LAB_EINVAL); /* c holds 50 */
        assert_status(vector_add(v, a, b, c, 0), LAB_OK);
    }
    assert_status(vector_add(ADD_VARIANTS, a, b, c, 10), LAB_EINVAL);
    assert_status(vector_add((enum vector_add_variant) - 1, a, b, c, 10), LAB_EINVAL);
    {
        struct gpu_buf odd = {(char *)a.ptr + 4, a.bytes - 4}; /* not 16-byte aligned */
        assert_status(vector_add(ADD_GRID_STRIDE_FLOAT4, odd, b, c, 10), LAB_EINVAL);
    }
    {
        float x[10] = {0}, ms = -1;
        assert_status(vector_add_host(NULL, x, x, 10), LAB_EINVAL);
        assert_status(vector_add_timed(ADD_THREAD_PER_ELEMENT, a, b, c, 10, NULL), LAB_EINVAL);
        assert_status(vector_add_timed(ADD_THREAD_PER_ELEMENT, a, b, c, 51, &ms), LAB_EINVAL);
        assert_status(vector_add_timed(ADD_VARIANTS, a, b, c, 10, &ms), LAB_EINVAL);
        assert_status(vector_add_timed(ADD_THREAD_PER_ELEMENT, a, b, c, 0, &ms), LAB_OK);
        assert_true(ms == 0); /* nothing launched, nothing timed */
    }
    assert_status(vector_add_host(NULL, NULL, NULL, 0), LAB_OK);
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
}

static const struct testkit_test tests[] = {
    TESTKIT_GIVEN(args_rejected),      TESTKIT_VARIANTS(sum_matches),
    TESTKIT_TEST(host_round_trip),     TESTKIT_TEST(timed_launch),
#ifdef BACKEND_CPU
    TESTKIT_TEST(timed_launch_errors), TESTKIT_EACH(work_in_proportion),
#endif
};

TESTKIT_MAIN("lab01_vector_add", tests, vector_add_variants, ADD_VARIANTS)
