/* lab00 tests: every variant's places against the CPU's, exactly, on shapes of its
 * dimensions and fewer (partial warps, blocks narrower than a warp, grids longer one way
 * than the other), under every thread order, on a poisoned buffer; shapes the device
 * refuses reported and the next launch fine; bad arguments rejected; the two ceilings on
 * known devices' figures, and the device at hand described: by the given query, and by
 * hello_query against it, every field, with device numbers that do not exist refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "hello.h"

struct launch {
    struct hello_shape grid, block;
};

/* By dimensions used: a variant runs those of its own dimensions and fewer. */
static const struct launch shapes[] = {
    {{1, 1, 1}, {1, 1, 1}},   {{1, 1, 1}, {33, 1, 1}},    {{3, 1, 1}, {32, 1, 1}},
    {{7, 1, 1}, {100, 1, 1}}, {{300, 1, 1}, {128, 1, 1}}, /* 1D */
    {{3, 2, 1}, {8, 8, 1}},   {{2, 5, 1}, {16, 3, 1}},    {{4, 3, 1}, {32, 2, 1}},
    {{1, 1, 1}, {1, 7, 1}},   {{5, 1, 1}, {3, 40, 1}}, /* 2D */
    {{2, 3, 2}, {4, 4, 4}},   {{3, 1, 2}, {5, 3, 2}},     {{1, 2, 3}, {2, 1, 16}},
    {{2, 2, 2}, {1, 1, 33}}, /* 3D */
};

static unsigned dims_of(struct launch l)
{
    struct hello_shape g = l.grid, b = l.block;
    return g.z > 1 || b.z > 1 ? 3 : g.y > 1 || b.y > 1 ? 2 : 1;
}

static void place_text(char *out, size_t size, const struct thread_place *p)
{
    snprintf(out, size, "{global %u, block %u, thread %u, warp %u, lane %u}", p->global, p->block,
             p->thread, p->warp, p->lane);
}

/* Runs v on l into a poisoned buffer and compares every place with the CPU's. */
static void matches_cpu_on(int v, struct launch l, int order)
{
    size_t n = (size_t)hello_threads(l.grid, l.block), bytes = n * sizeof(struct thread_place), bad;
    struct thread_place *got = malloc(bytes), *want = malloc(bytes);
    struct gpu_buf out = gpu_alloc(bytes);
    char g[96], w[96];
    testkit_set_order(order);
    testkit_case("%s, grid (%u, %u, %u), block (%u, %u, %u), order %s", hello_variants[v].name,
                 l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z,
                 testkit_order_name(order));
    hello_places_cpu(l.grid, l.block, want);
    assert_status(hello_places(v, l.grid, l.block, out), LAB_OK);
    gpu_sync();
    gpu_download(got, out, bytes);
    bad = lab_first_diff(got, want, n, sizeof *got);
    if (bad < n) {
        place_text(g, sizeof g, &got[bad]);
        place_text(w, sizeof w, &want[bad]);
        fail_msg("%s, grid (%u, %u, %u), block (%u, %u, %u): out[%zu] = %s, want %s%s",
                 hello_variants[v].name, l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y,
                 l.block.z, bad, g, w,
                 got[bad].global == 0xffffffffu ? " (never written: a thread missing?)" : "");
    }
    gpu_free(&out);
    free(got);
    free(want);
}

static void matches_cpu(int v)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t n = (size_t)hello_threads(shapes[s].grid, shapes[s].block);
        if (dims_of(shapes[s]) > hello_facts[v].dims)
            continue;
        for (int o = 0; o < testkit_orders(n); o++)
            matches_cpu_on(v, shapes[s], o);
    }
}

/* Shapes the device refuses: the launcher says LAB_ECUDA, writes nothing, and the next
 * launch works (a launch's configuration error is cleared by cudaGetLastError). */
static void refused_shapes(int v)
{
    static const struct launch refused[] = {
        {{1, 1, 1}, {1025, 1, 1}},  /* 1D: over 1024 threads a block */
        {{1, 1, 1}, {32, 33, 1}},   /* 2D: 1056 threads a block */
        {{1, 65536, 1}, {1, 1, 1}}, /* 2D: a grid y over 65535 */
        {{1, 1, 1}, {1, 1, 65}},    /* 3D: a block z over 64 */
        {{1, 1, 65536}, {1, 1, 1}}, /* 3D: a grid z over 65535 */
    };
    struct gpu_buf out = gpu_alloc(65536 * sizeof(struct thread_place));
    struct thread_place first;
    for (size_t s = 0; s < sizeof refused / sizeof refused[0]; s++) {
        struct launch l = refused[s];
        if (dims_of(l) > hello_facts[v].dims)
            continue;
        testkit_case("%s, refused grid (%u, %u, %u), block (%u, %u, %u)", hello_variants[v].name,
                     l.grid.x, l.grid.y, l.grid.z, l.block.x, l.block.y, l.block.z);
        gpu_poison(out);
        assert_status(hello_places(v, l.grid, l.block, out), LAB_ECUDA);
        gpu_sync();
        gpu_download(&first, out, sizeof first);
        if (first.global != 0xffffffffu)
            fail_msg("%s: a refused launch wrote out[0]", hello_variants[v].name);
        matches_cpu_on(v, shapes[2], 0);
    }
    gpu_free(&out);
}

static void hello_prints(void)
{
    struct hello_shape one = {1, 1, 1}, two = {2, 1, 1}, four = {4, 1, 1}, deep = {1, 1, 65};
    assert_status(hello_print(two, four), LAB_OK);
    assert_status(hello_print(one, deep), LAB_ECUDA); /* the device refuses a block z of 65 */
    assert_status(hello_print(two, four), LAB_OK);
}

/* A field of hello_query(device)'s answer against the runtime's; -1 is the poison's. */
static void same(int device, const char *field, long long got, long long want)
{
    if (got != want)
        fail_msg("hello_query(%d): %s = %lld, want %lld%s", device, field, got, want,
                 got == -1 ? " (never written)" : "");
}

/* hello_query(device) against the device as the runtime describes it to the tests (gpu_query,
 * common/device.cu's own query; under the grader, the grader's), field by field, into a struct
 * poisoned first (0xff bytes: -1 in every number, a name with no end), so that a field left
 * unset shows as one never written. */
static void facts_match(int device)
{
    struct device_facts got;
    struct gpu_info want;
    assert_status(gpu_query(&want), LAB_OK);
    memset(&got, 0xff, sizeof got);
    testkit_case("hello_query(%d)", device);
    assert_status(hello_query(device, &got), LAB_OK);
    if (!memchr(got.name, '\0', sizeof got.name))
        fail_msg("hello_query(%d): the name was never written, want \"%s\"", device, want.name);
    if (strcmp(got.name, want.name))
        fail_msg("hello_query(%d): name \"%s\", want \"%s\"", device, got.name, want.name);
    same(device, "cc_major", got.cc_major, want.cc_major);
    same(device, "cc_minor", got.cc_minor, want.cc_minor);
    same(device, "sms", got.sms, want.sms);
    same(device, "warp_size", got.warp_size, want.warp_size);
    same(device, "max_threads_per_block", got.max_threads_per_block, want.max_threads_per_block);
    same(device, "smem_per_block", (long long)got.smem_per_block, (long long)want.smem_per_block);
    same(device, "global_bytes", (long long)got.global_bytes, (long long)want.global_bytes);
    same(device, "sm_clock_khz", got.sm_clock_khz, want.sm_clock_khz);
    same(device, "mem_clock_khz", got.mem_clock_khz, want.mem_clock_khz);
    same(device, "bus_width_bits", got.bus_width_bits, want.bus_width_bits);
}

/* The device this thread uses, by HELLO_THIS_DEVICE and by its number (0: no test changes it). */
static void device_query(void)
{
    facts_match(HELLO_THIS_DEVICE);
    facts_match(0);
}

/* No such device: CUDA's error comes back as LAB_ECUDA, and the next launch is fine. */
static void device_query_refused(void)
{
    static const int none[] = {1 << 16, -2};
    struct device_facts d;
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        testkit_case("hello_query(%d)", none[k]);
        memset(&d, 0xff, sizeof d);
        assert_status(hello_query(none[k], &d), LAB_ECUDA);
        matches_cpu_on(HELLO_PLACE_1D, shapes[2], 0);
    }
    facts_match(HELLO_THIS_DEVICE);
}

static void args_rejected(void)
{
    struct gpu_buf out = gpu_alloc(64 * sizeof(struct thread_place)), none = {NULL, 0};
    struct hello_shape one = {1, 1, 1}, row = {64, 1, 1}, wide = {65, 1, 1}, square = {8, 8, 1};
    struct hello_shape cube = {4, 4, 4}, zero = {0, 1, 1}, huge = {65535, 65535, 2};
    for (int v = 0; v < HELLO_VARIANTS; v++) {
        assert_status(hello_places(v, one, row, none), LAB_EINVAL);
        assert_status(hello_places(v, one, wide, out), LAB_EINVAL); /* out holds 64 places */
        assert_status(hello_places(v, zero, row, out), LAB_EINVAL);
        assert_status(hello_places(v, row, zero, out), LAB_EINVAL);
        assert_status(hello_places(v, huge, huge, out), LAB_EINVAL); /* over 2^32 threads */
        if (hello_facts[v].dims < 2)
            assert_status(hello_places(v, one, square, out), LAB_EINVAL);
        if (hello_facts[v].dims < 3)
            assert_status(hello_places(v, one, cube, out), LAB_EINVAL);
    }
    assert_status(hello_places(HELLO_VARIANTS, one, row, out), LAB_EINVAL);
    assert_status(hello_print(zero, row), LAB_EINVAL);
    assert_status(hello_print(row, wide), LAB_EINVAL); /* 4160 lines: 4096 at most */
    assert_status(hello_query(HELLO_THIS_DEVICE, NULL), LAB_EINVAL);
    gpu_free(&out);
}

static void reference_cpu(void)
{
    struct hello_shape grid = {2, 1, 1}, block = {3, 2, 1}; /* rows of 6 threads, 2 high */
    struct thread_place p[12];
    hello_places_cpu(grid, block, p);
    /* Thread (1, 1) of block 1 is at x = 4, y = 1: global 10, its block's thread 4. */
    assert_int_equal(p[10].global, 10);
    assert_int_equal(p[10].block, 1);
    assert_int_equal(p[10].thread, 4);
    assert_int_equal(hello_threads(grid, block), 12);
}

/* The ceilings from known devices' published figures (clocks as cudaDeviceGetAttribute
 * reports them: the boost clock, and the memory clock of the double-data-rate bus). */
static void ceilings_of_known_devices(void)
{
    static const struct {
        const char *name;
        int major, minor, sms, clock_khz, mem_clock_khz, bus_bits;
        double tflops, gbs;
    } known[] = {
        {"H100 SXM", 9, 0, 132, 1980000, 2619000, 5120, 66.9, 3352},
        {"A100 SXM 40GB", 8, 0, 108, 1410000, 1215000, 5120, 19.5, 1555},
        {"V100 SXM2", 7, 0, 80, 1530000, 877000, 4096, 15.7, 898},
        {"RTX 4090", 8, 9, 128, 2520000, 10501000, 384, 82.6, 1008},
        {"T4", 7, 5, 40, 1590000, 5001000, 256, 8.1, 320},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        int lanes = fp32_lanes_per_sm(known[i].major, known[i].minor);
        double tflops = ceiling_fp32_gflops(known[i].sms, lanes, known[i].clock_khz) / 1e3;
        double gbs = ceiling_bandwidth_gbs(known[i].mem_clock_khz, known[i].bus_bits);
        if (tflops < known[i].tflops - 0.05 || tflops > known[i].tflops + 0.05 ||
            gbs < known[i].gbs - 1 || gbs > known[i].gbs + 1)
            fail_msg("%s: %.2f TFLOP/s and %.0f GB/s, want %.1f and %.0f", known[i].name, tflops,
                     gbs, known[i].tflops, known[i].gbs);
    }
    assert_int_equal(fp32_lanes_per_sm(2, 0), 0); /* not known: no ceiling made up */
}

static void device_described(void)
{
    struct gpu_info d;
    assert_status(gpu_query(&d), LAB_OK);
    assert_int_equal(d.warp_size, 32);
    assert_true(d.sms > 0 && d.fp32_lanes > 0 && d.sm_clock_khz > 0);
    assert_true(d.peak_gflops == ceiling_fp32_gflops(d.sms, d.fp32_lanes, d.sm_clock_khz));
#ifdef BACKEND_CPU
    assert_int_equal(d.nominal, 1);
    assert_non_null(strstr(d.name, "CPU backend"));
#else
    assert_int_equal(d.nominal, 0);
#endif
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),        TESTKIT_HOST(ceilings_of_known_devices),
    TESTKIT_GIVEN(device_described),    TESTKIT_GIVEN(args_rejected),
    TESTKIT_TEST(hello_prints),         TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_EACH(refused_shapes),       TESTKIT_TEST(device_query),
    TESTKIT_TEST(device_query_refused),
};

TESTKIT_MAIN("lab00_hello", tests, hello_variants, HELLO_VARIANTS)
