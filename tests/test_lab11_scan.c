/* lab11 tests: every variant against the CPU, exactly. The scans inclusive and exclusive (int
 * adds are exact while no prefix leaves the int range, and the data keeps them inside it), on
 * sizes around a warp, a block, a tile and a power of two, a total near INT_MAX, and a million
 * elements (the look-back's chain of hundreds of tiles); the float scan within the bound of
 * its order of adds (reference.c, the handout derives it), on floats whose sums cancel; the
 * thresholds on odd widths, pitches and offsets; compaction's count and indices in order.
 * Fresh random data, outputs and scratch poisoned before each run and the bytes around them
 * checked untouched; every thread order of the CPU backend, and the look-backs with blocks on
 * two workers at once. Bad arguments: LAB_EINVAL. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "scan.h"
#include "testkit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { GUARD = 64 }; /* poisoned ints after the output, which no variant may write */

static const char *const mode_names[] = {"inclusive", "exclusive"};

/* Scans x[0..n) with variant v in both modes under every thread order: the output must be
 * the CPU's and the GUARD ints after it still poison. */
static void check_scan(enum scan_variant v, const int *x, size_t n)
{
    size_t scratch_bytes = scan_scratch_bytes(v, n), all = n + GUARD;
    int *got = malloc(all * sizeof(int)), *want = malloc(all * sizeof(int));
    struct gpu_buf in = gpu_alloc(n * sizeof(int)), dout = gpu_alloc(all * sizeof(int)),
                   scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    struct gpu_buf out = {dout.ptr, n * sizeof(int)};
    gpu_upload(in, x, n * sizeof(int));
    for (int m = SCAN_INCLUSIVE; m <= SCAN_EXCLUSIVE; m++) {
        gpu_poison(dout);
        gpu_download(want, dout, all * sizeof(int)); /* the poison, where nothing is written */
        scan_cpu((enum scan_mode)m, x, want, n);
        for (int o = 0; o < testkit_orders(n); o++) {
            size_t bad;
            testkit_set_order(o);
            testkit_case("%s, %s, n = %zu, order %s", scan_variants[v].name, mode_names[m], n,
                         testkit_order_name(o));
            gpu_poison(dout);
            gpu_poison(scratch);
            assert_status(scan(v, (enum scan_mode)m, in, out, n, scratch), LAB_OK);
            gpu_sync();
            gpu_download(got, dout, all * sizeof(int));
            if ((bad = lab_first_diff(got, want, all, sizeof(int))) < all)
                fail_msg("%s, %s, n = %zu, order %s: out[%zu] = %d, want %d%s",
                         scan_variants[v].name, mode_names[m], n, testkit_order_name(o), bad,
                         got[bad], want[bad], bad >= n ? " (past the end: nothing is)" : "");
        }
    }
    gpu_free(&in);
    gpu_free(&dout);
    gpu_free(&scratch);
    free(got);
    free(want);
}

static void check_random(enum scan_variant v, size_t n, int lo, int hi)
{
    int *x = malloc(n * sizeof(int));
    testkit_ints(x, n, lo, hi);
    check_scan(v, x, n);
    free(x);
}

/* The one-block variants walk a million elements as they walk 2^16, tile after tile: on the
 * CPU backend, where every thread is a fiber, a million runs for the tiled variants only. */
static int too_slow_here(enum scan_variant v, size_t n)
{
#ifdef BACKEND_CPU
    return n >= 1000003 && !scan_facts[v].grid;
#else
    (void)v;
    (void)n;
    return 0;
#endif
}

/* 1, a warp and its neighbours, a block, a warp's part of a tile (+1), a tile and twice one
 * (each +-1), powers of two +-1, a million: values in -1000..1000, so that no prefix leaves
 * the int range. Then a total near INT_MAX: 2^17 + 3 values in 0..16000 sum to at most
 * 2.098e9 < 2^31 - 1. */
static void scan_matches(enum scan_variant v)
{
    static const size_t sizes[] = {1,    2,    31,    32,    33,    1023,   1025,
                                   4095, 4097, 65535, 65536, 65537, 1000003};
    const size_t block = scan_facts[v].threads, tile = block * scan_facts[v].items;
    const size_t edges[] = {block,    block + 1,   32 * scan_facts[v].items + 1, tile - 1, tile,
                            tile + 1, 2 * tile + 1};
    for (size_t s = 0; s < COUNT(sizes); s++)
        if (sizes[s] <= testkit_max_size() && !too_slow_here(v, sizes[s]))
            check_random(v, sizes[s], -1000, 1000);
    for (size_t s = 0; s < COUNT(edges); s++)
        check_random(v, edges[s], -1000, 1000);
    if (testkit_max_size() >= (1u << 17) + 3)
        check_random(v, (1u << 17) + 3, 0, 16000);
}

/* n floats of mixed signs and magnitudes, +-(1 + f) 2^e with f in [0, 1) at float's precision
 * and e from -20 to 4, every 8th the negative of the one before: prefix sums that cancel far
 * below the sum of the magnitudes. A tolerance relative to the sum would fail a right kernel
 * there; the bound in the magnitudes holds, and still catches a term lost or added, or a sum
 * kept in an int (most terms are below 1). */
static void mixed_floats(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = testkit_next();
        const float m = 1.0f + (float)(r & 0x7fffff) / 0x800000;
        x[i] = i % 8 == 7 ? -x[i - 1] : ldexpf(r >> 63 ? -m : m, (int)(r >> 23 & 0xffff) % 25 - 20);
    }
}

/* Scans the floats x[0..n) with variant v in both modes under every thread order: each out[i]
 * within scan_float_bound of the sum in double, and the GUARD floats after it still poison. */
static void check_float_scan(enum scan_variant v, const float *x, size_t n)
{
    size_t scratch_bytes = scan_scratch_bytes(v, n), all = n + GUARD;
    float *got = malloc(all * sizeof(float));
    double *sum = malloc(n * sizeof(double)), *abs_sum = malloc(n * sizeof(double));
    struct gpu_buf in = gpu_alloc(n * sizeof(float)), dout = gpu_alloc(all * sizeof(float)),
                   scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    struct gpu_buf out = {dout.ptr, n * sizeof(float)};
    gpu_upload(in, x, n * sizeof(float));
    for (int m = SCAN_INCLUSIVE; m <= SCAN_EXCLUSIVE; m++) {
        scan_float_cpu((enum scan_mode)m, x, sum, abs_sum, n);
        for (int o = 0; o < testkit_orders(n); o++) {
            testkit_set_order(o);
            testkit_case("%s, %s, n = %zu, order %s", scan_variants[v].name, mode_names[m], n,
                         testkit_order_name(o));
            gpu_poison(dout);
            gpu_poison(scratch);
            assert_status(scan_float(v, (enum scan_mode)m, in, out, n, scratch), LAB_OK);
            gpu_sync();
            gpu_download(got, dout, all * sizeof(float));
            for (size_t i = 0; i < all; i++) {
                const double bound = i < n ? scan_float_bound(i, n, abs_sum[i]) : 0;
                uint32_t bits;
                memcpy(&bits, &got[i], sizeof bits);
                if (i < n ? !(fabs(got[i] - sum[i]) <= bound) : bits != 0xffffffffu)
                    fail_msg("%s, %s, n = %zu, order %s: out[%zu] = %.9g, want %.9g%s%.3g%s",
                             scan_variants[v].name, mode_names[m], n, testkit_order_name(o), i,
                             got[i], i < n ? sum[i] : NAN, i < n ? " within " : "",
                             i < n ? bound : 0.0,
                             i < n ? " (the bound of the kernel's order of adds)"
                                   : " (past the end: nothing is)");
            }
        }
    }
    gpu_free(&in);
    gpu_free(&dout);
    gpu_free(&scratch);
    free(got);
    free(sum);
    free(abs_sum);
}

/* The float scan on the sizes of scan_matches, mixed_floats: 1, a warp and its neighbours, a
 * block, a warp's part of a tile (+1), a tile and twice one (each +-1), powers of two +-1, and
 * a million (a chain of hundreds of tiles, whose bound is the loosest), that one again with
 * blocks on two workers at once (as lookback_concurrent; one under the race checker). */
static void float_matches(enum scan_variant v)
{
    static const size_t sizes[] = {1,    2,    31,    32,    33,    1023,   1025,
                                   4095, 4097, 65535, 65536, 65537, 1000003};
    const size_t block = scan_facts[v].threads, tile = block * scan_facts[v].items;
    const size_t edges[] = {block,    block + 1,   32 * scan_facts[v].items + 1, tile - 1, tile,
                            tile + 1, 2 * tile + 1};
    float *x = malloc(1000003 * sizeof(float));
    for (size_t s = 0; s < COUNT(sizes) + COUNT(edges); s++) {
        const size_t n = s < COUNT(sizes) ? sizes[s] : edges[s - COUNT(sizes)];
        if (n > testkit_max_size())
            continue;
        mixed_floats(x, n);
        check_float_scan(v, x, n);
        if (n == 1000003 && !testkit_race_checker()) {
            testkit_setenv("CUDA_CPU_WORKERS", "2");
            check_float_scan(v, x, n);
            testkit_setenv("CUDA_CPU_WORKERS", NULL);
        }
    }
    free(x);
}

/* The look-back with its blocks on two workers at once (CUDA_CPU_WORKERS; a GPU runs its
 * blocks side by side anyway): a tile now waits for the tiles before it, which are still at
 * work, so the tiles' words and the ticket are what keep the chain of hundreds of tiles
 * right, run after run on the same scratch. Under the race checker, which keeps its
 * bookkeeping per worker, one worker (the plain run has the two). */
static void lookback_concurrent(void)
{
    const enum scan_variant v = SCAN_DECOUPLED_LOOKBACK;
    size_t n = testkit_max_size() < 1000003 ? testkit_max_size() : 1000003;
    int *x = malloc(n * sizeof(int)), *got = malloc(n * sizeof(int)),
        *want = malloc(n * sizeof(int));
    struct gpu_buf in = gpu_alloc(n * sizeof(int)), out = gpu_alloc(n * sizeof(int)),
                   scratch = gpu_alloc(scan_scratch_bytes(v, n));
    testkit_ints(x, n, -1000, 1000);
    scan_cpu(SCAN_INCLUSIVE, x, want, n);
    gpu_upload(in, x, n * sizeof(int));
    if (!testkit_race_checker())
        testkit_setenv("CUDA_CPU_WORKERS", "2");
    for (int k = 0; k < 4; k++) {
        size_t bad;
        testkit_case("%s, n = %zu, two workers, run %d", scan_variants[v].name, n, k + 1);
        gpu_poison(out);
        assert_status(scan(v, SCAN_INCLUSIVE, in, out, n, scratch), LAB_OK);
        gpu_sync();
        gpu_download(got, out, n * sizeof(int));
        if ((bad = lab_first_diff(got, want, n, sizeof(int))) < n)
            fail_msg("%s, n = %zu, two workers, run %d: out[%zu] = %d, want %d",
                     scan_variants[v].name, n, k + 1, bad, got[bad], want[bad]);
    }
    testkit_setenv("CUDA_CPU_WORKERS", NULL);
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
    free(x);
    free(got);
    free(want);
}

/* dst = max(src, thr) on an image of width x height pixels, rows pitch bytes apart, both
 * images `shift` bytes past an aligned start, under every thread order: every pixel the
 * CPU's, and every other byte (the gaps between width and pitch, GUARD bytes after) poison. */
static void check_threshold(enum scan_variant v, size_t width, size_t height, size_t pitch,
                            size_t shift, unsigned block_rows, unsigned char thr)
{
    size_t bytes = (height - 1) * pitch + width, all = shift + bytes + GUARD, bad;
    unsigned char *src = malloc(bytes), *got = malloc(all), *want = malloc(all);
    struct gpu_buf dsrc = gpu_alloc(shift + bytes), ddst = gpu_alloc(all);
    struct gpu_buf in = {(char *)dsrc.ptr + shift, bytes}, out = {(char *)ddst.ptr + shift, bytes};
    testkit_bytes(src, bytes);
    gpu_upload(in, src, bytes);
    gpu_poison(ddst);
    gpu_download(want, ddst, all);
    threshold_cpu(src, want + shift, width, height, pitch, thr);
    for (int o = 0; o < testkit_orders(bytes); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, pitch %zu, at +%zu, 32 x %u blocks, threshold %d, order %s",
                     scan_variants[v].name, width, height, pitch, shift, block_rows, thr,
                     testkit_order_name(o));
        gpu_poison(ddst);
        assert_status(threshold(v, in, out, width, height, pitch, thr, block_rows), LAB_OK);
        gpu_sync();
        gpu_download(got, ddst, all);
        if ((bad = lab_first_diff(got, want, all, 1)) < all)
            fail_msg("%s, %zu x %zu, pitch %zu, at +%zu, 32 x %u blocks, threshold %d, order %s: "
                     "byte %td (row %td, column %td) = %d, want %d",
                     scan_variants[v].name, width, height, pitch, shift, block_rows, thr,
                     testkit_order_name(o), (ptrdiff_t)(bad - shift),
                     (ptrdiff_t)(bad - shift) / (ptrdiff_t)pitch,
                     (ptrdiff_t)(bad - shift) % (ptrdiff_t)pitch, got[bad], want[bad]);
    }
    gpu_free(&dsrc);
    gpu_free(&ddst);
    free(src);
    free(got);
    free(want);
}

/* Odd widths around a warp, a uint4, a block of warps and a warp's uint4s, pitches that start
 * the rows at every offset from a 4- and a 16-byte boundary, both images at +0..3 bytes,
 * thresholds 0, 255 and random;
 * threshold_pixel with every block height, and with the grid folded (on the CPU backend, a
 * device of 4 rows of blocks: CUDA_CPU_MAX_GRID_YZ). */
static void threshold_matches(enum scan_variant v)
{
    static const size_t shapes[][3] = {
        {1, 1, 1},     {3, 2, 3},     {17, 4, 19},     {31, 3, 33},     {32, 4, 32}, {33, 5, 34},
        {127, 9, 130}, {529, 3, 535}, {1921, 5, 1923}, {4099, 3, 4101}, {7, 300, 7}};
    static const unsigned rows[] = {1, 2, 4, 6, 8, 16, 32};
    for (size_t s = 0; s < COUNT(shapes); s++)
        for (size_t shift = 0; shift < 4; shift++)
            check_threshold(v, shapes[s][0], shapes[s][1], shapes[s][2], shift, 1,
                            shift == 0   ? 0
                            : shift == 1 ? 255
                                         : (unsigned char)testkit_next());
    if (v != SCAN_THRESHOLD_PIXEL)
        return;
    for (size_t r = 0; r < COUNT(rows); r++)
        check_threshold(v, 45, 70, 47, 1, rows[r], 100);
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", "4");
    check_threshold(v, 33, 300, 35, 0, 2, 100);
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", NULL);
}

/* The indices of src[i] >= thr, under every thread order: the count and the indices the CPU's,
 * every other word of out (GUARD after n) and of the count's buffer still poison. */
static void check_compact(enum scan_variant v, const unsigned char *src, size_t n,
                          unsigned char thr)
{
    size_t all = n + GUARD, want_count, bad;
    unsigned *got = malloc(all * sizeof(unsigned)), *want = malloc(all * sizeof(unsigned)),
             count[2];
    struct gpu_buf dsrc = gpu_alloc(n), dout = gpu_alloc(all * sizeof(unsigned)),
                   dcount = gpu_alloc(sizeof count), scratch = gpu_alloc(scan_scratch_bytes(v, n));
    struct gpu_buf out = {dout.ptr, n * sizeof(unsigned)}, one = {dcount.ptr, sizeof(unsigned)};
    gpu_upload(dsrc, src, n);
    memset(want, 0xff, all * sizeof(unsigned));
    want_count = compact_cpu(src, n, thr, want);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, threshold %d, order %s", scan_variants[v].name, n, thr,
                     testkit_order_name(o));
        gpu_poison(dout);
        gpu_poison(dcount);
        gpu_poison(scratch);
        assert_status(compact(v, dsrc, n, thr, out, one, scratch), LAB_OK);
        gpu_sync();
        gpu_download(count, dcount, sizeof count);
        gpu_download(got, dout, all * sizeof(unsigned));
        if (count[0] != want_count || count[1] != 0xffffffffu)
            fail_msg("%s, n = %zu, threshold %d, order %s: count %u, want %zu%s",
                     scan_variants[v].name, n, thr, testkit_order_name(o), count[0], want_count,
                     count[1] != 0xffffffffu ? " (and the word after it written)" : "");
        if ((bad = lab_first_diff(got, want, all, sizeof(unsigned))) < all)
            fail_msg("%s, n = %zu, threshold %d, order %s: out[%zu] = %u, want %u%s",
                     scan_variants[v].name, n, thr, testkit_order_name(o), bad, got[bad], want[bad],
                     bad >= want_count ? " (past the count: nothing is)" : "");
    }
    gpu_free(&dsrc);
    gpu_free(&dout);
    gpu_free(&dcount);
    gpu_free(&scratch);
    free(got);
    free(want);
}

/* Sizes around a warp, a warp's part of a tile, a tile and a power of two, and a million (a
 * chain of tens of tiles): thresholds that keep all (0), none of the zeros (1), about half
 * (128) and a 256th (255) of random bytes; then the million on two workers at once, as
 * lookback_concurrent. */
static void compact_matches(enum scan_variant v)
{
    const size_t part = 32 * scan_facts[v].items, tile = scan_facts[v].threads * part / 32;
    const size_t sizes[] = {1,        31,       32,   33,       part - 1, part,
                            part + 1, tile - 1, tile, tile + 1, 65537,    1000003};
    static const unsigned char thresholds[] = {0, 1, 128, 255};
    for (size_t s = 0; s < COUNT(sizes); s++) {
        unsigned char *src;
        if (sizes[s] > testkit_max_size())
            continue;
        src = malloc(sizes[s]);
        testkit_bytes(src, sizes[s]);
        for (size_t t = 0; t < COUNT(thresholds); t++)
            if (sizes[s] < 65536 || thresholds[t] == 128)
                check_compact(v, src, sizes[s], thresholds[t]);
        if (sizes[s] == 1000003 && !testkit_race_checker()) {
            testkit_setenv("CUDA_CPU_WORKERS", "2");
            check_compact(v, src, sizes[s], 128);
            testkit_setenv("CUDA_CPU_WORKERS", NULL);
        }
        free(src);
    }
}

/* Each variant's own job against the CPU. */
static void matches_cpu(int v)
{
    switch (scan_facts[v].job) {
    case SCAN_JOB_THRESHOLD:
        threshold_matches((enum scan_variant)v);
        break;
    case SCAN_JOB_COMPACT:
        compact_matches((enum scan_variant)v);
        break;
    case SCAN_JOB_SCAN_FLOAT:
        float_matches((enum scan_variant)v);
        break;
    default:
        scan_matches((enum scan_variant)v);
    }
}

static void reference_cpu(void)
{
    static const int x[] = {3, -1, 4, 1, INT_MAX};
    static const int incl[] = {3, 2, 6, 7, INT_MIN + 6}, excl[] = {0, 3, 2, 6, 7};
    int out[5];
    scan_cpu(SCAN_INCLUSIVE, x, out, 5);
    assert_memory_equal(out, incl, sizeof incl); /* the last one wraps, as a GPU's add does */
    scan_cpu(SCAN_EXCLUSIVE, x, out, 5);
    assert_memory_equal(out, excl, sizeof excl);
}

/* scan (ints) and scan_float, each with the variants of its job; the others refused. */
typedef int (*scan_fn)(enum scan_variant, enum scan_mode, struct gpu_buf, struct gpu_buf, size_t,
                       struct gpu_buf);

/* The float reference and its bound: sums in double, and the depth of lookback_float's adds:
 * 2 SCAN_LB_ITEMS + 11 in the first tiles, 7 more for each tile of the chain after. */
static void float_reference_cpu(void)
{
    static const float x[] = {1.5f, -0.25f, 3.0f};
    static const double incl[] = {1.5, 1.25, 4.25}, excl[] = {0, 1.5, 1.25};
    static const double abs_incl[] = {1.5, 1.75, 4.75}, abs_excl[] = {0, 1.5, 1.75};
    const size_t tile = (size_t)SCAN_LB_THREADS * SCAN_LB_ITEMS;
    double sum[3], abs_sum[3];
    scan_float_cpu(SCAN_INCLUSIVE, x, sum, abs_sum, 3);
    assert_memory_equal(sum, incl, sizeof incl);
    assert_memory_equal(abs_sum, abs_incl, sizeof abs_incl);
    scan_float_cpu(SCAN_EXCLUSIVE, x, sum, abs_sum, 3);
    assert_memory_equal(sum, excl, sizeof excl);
    assert_memory_equal(abs_sum, abs_excl, sizeof abs_excl);
    assert_int_equal(scan_float_depth(0), 2 * SCAN_LB_ITEMS + 11);
    assert_int_equal(scan_float_depth(100 * tile), SCAN_LB_ITEMS + 10 + 700);
    assert_true(scan_float_bound(0, 1, 1.0) > (2 * SCAN_LB_ITEMS + 11) * 0x1p-24);
    assert_true(scan_float_bound(0, 1, 1.0) < (2 * SCAN_LB_ITEMS + 12) * 0x1p-24);
}

static void scan_args_of(scan_fn scan, enum scan_job job)
{
    const size_t n = 1000;
    struct gpu_buf in = gpu_alloc(n * sizeof(int)), out = gpu_alloc(n * sizeof(int)),
                   scratch = gpu_alloc(scan_scratch_bytes(SCAN_DECOUPLED_LOOKBACK, n) + 64),
                   none = {NULL, 0}, huge = {in.ptr, SIZE_MAX};
    int first;
    for (int v = 0; v < SCAN_VARIANTS; v++) {
        const enum scan_mode m = SCAN_INCLUSIVE;
        const size_t tiles = (size_t)1 << 31; /* a grid holds 2^31 - 1 blocks */
        if (scan_facts[v].job != job) {
            assert_status(scan(v, m, in, out, n, scratch), LAB_EINVAL);
            continue;
        }
        assert_status(scan(v, m, none, out, n, scratch), LAB_EINVAL);
        assert_status(scan(v, m, in, none, n, scratch), LAB_EINVAL);
        assert_status(scan(v, m, in, out, n + 1, scratch), LAB_EINVAL);
        assert_status(scan(v, (enum scan_mode)2, in, out, n, scratch), LAB_EINVAL);
        assert_status(scan(v, (enum scan_mode) - 1, in, out, n, scratch), LAB_EINVAL);
        assert_int_equal(scan_scratch_bytes(v, 0), 0);
        if (scan_facts[v].grid) {
            struct gpu_buf small = {scratch.ptr, scan_scratch_bytes(v, n) - 1},
                           askew = {(char *)scratch.ptr + 2, scratch.bytes - 2};
            assert_true(scan_scratch_bytes(v, n) > 0);
            assert_status(scan(v, m, in, out, n, none), LAB_EINVAL);
            assert_status(scan(v, m, in, out, n, small), LAB_EINVAL);
            assert_status(scan(v, m, in, out, n, askew), LAB_EINVAL); /* not on its words */
        } else {
            assert_int_equal(scan_scratch_bytes(v, n), 0);
        }
        /* more tiles than a grid has blocks (buffers that claim the room) */
        assert_status(
            scan(v, m, huge, huge, tiles * scan_facts[v].threads * scan_facts[v].items, huge),
            LAB_EINVAL);
        /* n = 0 is a scan of nothing: done, nothing written */
        gpu_poison(out);
        assert_status(scan(v, m, in, out, 0, none), LAB_OK);
        gpu_sync();
        gpu_download(&first, out, sizeof first);
        assert_int_equal(first, -1);
    }
    assert_status(scan(SCAN_VARIANTS, SCAN_INCLUSIVE, in, out, n, scratch), LAB_EINVAL);
    assert_status(scan((enum scan_variant) - 1, SCAN_INCLUSIVE, in, out, n, scratch), LAB_EINVAL);
    assert_int_equal(scan_scratch_bytes(SCAN_VARIANTS, n), 0);
    gpu_free(&in);
    gpu_free(&out);
    gpu_free(&scratch);
}

static void scan_args_rejected(void)
{
    scan_args_of(scan, SCAN_JOB_SCAN);
    scan_args_of(scan_float, SCAN_JOB_SCAN_FLOAT);
}

static void threshold_args_rejected(void)
{
    const size_t w = 100, h = 10, pitch = 103, bytes = (h - 1) * pitch + w;
    struct gpu_buf a = gpu_alloc(bytes + 8), b = gpu_alloc(bytes + 8), none = {NULL, 0};
    struct gpu_buf small = {b.ptr, bytes - 1}, huge = {a.ptr, SIZE_MAX};
    struct gpu_buf a1 = {(char *)a.ptr + 1, bytes}, b2 = {(char *)b.ptr + 2, bytes},
                   a4 = {(char *)a.ptr + 4, bytes};
    unsigned char first;
    for (int v = 0; v < SCAN_VARIANTS; v++) {
        if (scan_facts[v].job != SCAN_JOB_THRESHOLD) {
            assert_status(threshold(v, a, b, w, h, pitch, 9, 1), LAB_EINVAL);
            continue;
        }
        assert_status(threshold(v, none, b, w, h, pitch, 9, 1), LAB_EINVAL);
        assert_status(threshold(v, a, none, w, h, pitch, 9, 1), LAB_EINVAL);
        assert_status(threshold(v, a, small, w, h, pitch, 9, 1), LAB_EINVAL);
        assert_status(threshold(v, a, b, w, h, w - 1, 9, 1), LAB_EINVAL); /* pitch < width */
        assert_status(threshold(v, a, b, w, h, pitch, 9, 0), LAB_EINVAL);
        assert_status(threshold(v, a, b, w, h, pitch, 9, 33), LAB_EINVAL);
        /* (height - 1) x pitch past SIZE_MAX */
        assert_status(threshold(v, huge, huge, 1, 5, SIZE_MAX / 4 + 1, 9, 1), LAB_EINVAL);
        /* rows at different offsets from 16 bytes: the SIMD variant's uint4s cannot be aligned */
        assert_status(threshold(v, a1, b2, w, h, pitch, 9, 1),
                      v == SCAN_THRESHOLD_SIMD ? LAB_EINVAL : LAB_OK);
        assert_status(threshold(v, a4, b, w, h, pitch, 9, 1),
                      v == SCAN_THRESHOLD_SIMD ? LAB_EINVAL : LAB_OK);
        /* an empty image: done, nothing written */
        gpu_sync();
        gpu_poison(b);
        assert_status(threshold(v, a, b, 0, h, pitch, 9, 1), LAB_OK);
        assert_status(threshold(v, a, b, w, 0, pitch, 9, 1), LAB_OK);
        gpu_sync();
        gpu_download(&first, b, 1);
        assert_int_equal(first, 0xff);
    }
    gpu_free(&a);
    gpu_free(&b);
}

static void compact_args_rejected(void)
{
    const size_t n = 1000;
    struct gpu_buf src = gpu_alloc(n), out = gpu_alloc(n * sizeof(unsigned)),
                   count = gpu_alloc(sizeof(unsigned)), none = {NULL, 0},
                   scratch = gpu_alloc(scan_scratch_bytes(SCAN_COMPACT, n)),
                   huge = {src.ptr, SIZE_MAX};
    struct gpu_buf small_out = {out.ptr, n * sizeof(unsigned) - 1}, small_count = {count.ptr, 3},
                   small_scratch = {scratch.ptr, scratch.bytes - 1},
                   askew_scratch = {(char *)scratch.ptr + 4, scratch.bytes};
    for (int v = 0; v < SCAN_VARIANTS; v++) {
        if (scan_facts[v].job != SCAN_JOB_COMPACT) {
            assert_status(compact(v, src, n, 9, out, count, scratch), LAB_EINVAL);
            continue;
        }
        assert_status(compact(v, none, n, 9, out, count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n + 1, 9, out, count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, 0, 9, out, count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, none, count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, small_out, count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, out, none, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, out, small_count, scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, out, count, none), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, out, count, small_scratch), LAB_EINVAL);
        assert_status(compact(v, src, n, 9, out, count, askew_scratch), LAB_EINVAL);
        assert_status(compact(v, huge, (size_t)INT_MAX + 1, 9, huge, count, huge), LAB_EINVAL);
    }
    gpu_free(&src);
    gpu_free(&out);
    gpu_free(&count);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),          TESTKIT_HOST(float_reference_cpu),
    TESTKIT_GIVEN(scan_args_rejected),    TESTKIT_GIVEN(threshold_args_rejected),
    TESTKIT_GIVEN(compact_args_rejected), TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_TEST(lookback_concurrent),
};

TESTKIT_MAIN("lab11_scan", tests, scan_variants, SCAN_VARIANTS)
