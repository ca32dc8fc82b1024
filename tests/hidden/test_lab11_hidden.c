/* lab11 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check what the visible tests leave open, a test per variant: sizes
 * (and image widths) one below, at and one above every multiple that a variant's loops turn
 * on, and buffers that start 1 to 3 elements past an aligned address, each output inside
 * poison that must stay untouched (the float scan's on wider magnitudes than the visible
 * tests', within its bound). Points and visibility: tests/hidden/lab11.txt. */
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

enum { SPARE = 16 }; /* ints of poison on either side of the output */

static const char *const mode_names[] = {"inclusive", "exclusive"};

/* Scans n random ints placed `shift` ints past an aligned start into an output `shift` ints
 * past SPARE ints of poison, with variant v in both modes under every thread order. */
static void check(enum scan_variant v, size_t n, size_t shift)
{
    const char *name = scan_variants[v].name;
    size_t all = n + 2 * SPARE + shift, scratch_bytes = scan_scratch_bytes(v, n), bad;
    int *x = malloc(n * sizeof(int)), *got = malloc(all * sizeof(int)),
        *want = malloc(all * sizeof(int));
    struct gpu_buf din = gpu_alloc((n + shift) * sizeof(int)), dout = gpu_alloc(all * sizeof(int)),
                   scratch = gpu_alloc(scratch_bytes + 1);
    struct gpu_buf in = {(int *)din.ptr + shift, n * sizeof(int)},
                   out = {(int *)dout.ptr + SPARE + shift, n * sizeof(int)};
    testkit_ints(x, n, -1000, 1000);
    gpu_upload(in, x, n * sizeof(int));
    for (int m = SCAN_INCLUSIVE; m <= SCAN_EXCLUSIVE; m++) {
        gpu_poison(dout);
        gpu_download(want, dout, all * sizeof(int));
        scan_cpu((enum scan_mode)m, x, want + SPARE + shift, n);
        for (int o = 0; o < testkit_orders(n); o++) {
            testkit_set_order(o);
            testkit_case("%s, %s, n = %zu, buffers at +%zu ints, order %s", name, mode_names[m], n,
                         shift, testkit_order_name(o));
            gpu_poison(dout);
            gpu_poison(scratch);
            assert_status(scan(v, (enum scan_mode)m, in, out, n, scratch), LAB_OK);
            gpu_sync();
            gpu_download(got, dout, all * sizeof(int));
            if ((bad = lab_first_diff(got, want, all, sizeof(int))) < all)
                fail_msg("%s, %s, n = %zu, buffers at +%zu ints, order %s: out[%td] = %d, want "
                         "%d%s",
                         name, mode_names[m], n, shift, testkit_order_name(o),
                         (ptrdiff_t)bad - SPARE - (ptrdiff_t)shift, got[bad], want[bad],
                         bad < SPARE + shift || bad >= SPARE + shift + n
                             ? " (outside the output: nothing may be written there)"
                             : "");
        }
    }
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&scratch);
    free(x);
    free(got);
    free(want);
}

/* The float scan of n floats of mixed signs and magnitudes (+-(1 + f) 2^e, e from -30 to 10,
 * every 5th cancelling the one before) placed as check places its ints, in both modes under
 * every thread order: each out[i] within scan_float_bound of the sum in double, the poison
 * around it untouched. */
static void check_float(enum scan_variant v, size_t n, size_t shift)
{
    const char *name = scan_variants[v].name;
    size_t all = n + 2 * SPARE + shift, scratch_bytes = scan_scratch_bytes(v, n);
    float *x = malloc(n * sizeof(float)), *got = malloc(all * sizeof(float));
    double *sum = malloc(n * sizeof(double)), *abs_sum = malloc(n * sizeof(double));
    struct gpu_buf din = gpu_alloc((n + shift) * sizeof(float)),
                   dout = gpu_alloc(all * sizeof(float)), scratch = gpu_alloc(scratch_bytes + 1);
    struct gpu_buf in = {(float *)din.ptr + shift, n * sizeof(float)},
                   out = {(float *)dout.ptr + SPARE + shift, n * sizeof(float)};
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = testkit_next();
        const float m = 1.0f + (float)(r & 0x7fffff) / 0x800000;
        x[i] = i % 5 == 4 ? -x[i - 1] : ldexpf(r >> 63 ? -m : m, (int)(r >> 23 & 0xffff) % 41 - 30);
    }
    gpu_upload(in, x, n * sizeof(float));
    for (int m = SCAN_INCLUSIVE; m <= SCAN_EXCLUSIVE; m++) {
        scan_float_cpu((enum scan_mode)m, x, sum, abs_sum, n);
        for (int o = 0; o < testkit_orders(n); o++) {
            testkit_set_order(o);
            testkit_case("%s, %s, n = %zu, buffers at +%zu floats, order %s", name, mode_names[m],
                         n, shift, testkit_order_name(o));
            gpu_poison(dout);
            gpu_poison(scratch);
            assert_status(scan_float(v, (enum scan_mode)m, in, out, n, scratch), LAB_OK);
            gpu_sync();
            gpu_download(got, dout, all * sizeof(float));
            for (size_t k = 0; k < all; k++) {
                const size_t i = k - SPARE - shift; /* past the end (or wrapped below 0): >= n */
                uint32_t bits;
                memcpy(&bits, &got[k], sizeof bits);
                if (i < n ? !(fabs(got[k] - sum[i]) <= scan_float_bound(i, n, abs_sum[i]))
                          : bits != 0xffffffffu)
                    fail_msg("%s, %s, n = %zu, buffers at +%zu floats, order %s: out[%td] = %.9g%s",
                             name, mode_names[m], n, shift, testkit_order_name(o),
                             (ptrdiff_t)k - SPARE - (ptrdiff_t)shift, got[k],
                             i < n ? ", out of the bound of the kernel's order of adds"
                                   : " (outside the output: nothing may be written there)");
            }
        }
    }
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&scratch);
    free(x);
    free(got);
    free(sum);
    free(abs_sum);
}

/* The threshold of a width x height image, rows pitch bytes apart, src `src_shift` and dst
 * `dst_shift` bytes past an aligned start, SPARE bytes of poison on either side of dst. */
static void check_threshold(enum scan_variant v, size_t width, size_t height, size_t pitch,
                            size_t src_shift, size_t dst_shift)
{
    const unsigned char thr = 77;
    size_t bytes = (height - 1) * pitch + width, all = 2 * SPARE + dst_shift + bytes, bad;
    unsigned char *x = malloc(bytes), *got = malloc(all), *want = malloc(all);
    struct gpu_buf dsrc = gpu_alloc(src_shift + bytes), ddst = gpu_alloc(all);
    struct gpu_buf in = {(char *)dsrc.ptr + src_shift, bytes},
                   out = {(char *)ddst.ptr + SPARE + dst_shift, bytes};
    testkit_bytes(x, bytes);
    gpu_upload(in, x, bytes);
    gpu_poison(ddst);
    gpu_download(want, ddst, all);
    threshold_cpu(x, want + SPARE + dst_shift, width, height, pitch, thr);
    for (int o = 0; o < testkit_orders(bytes); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, pitch %zu, src at +%zu, dst at +%zu, order %s",
                     scan_variants[v].name, width, height, pitch, src_shift, dst_shift,
                     testkit_order_name(o));
        gpu_poison(ddst);
        assert_status(threshold(v, in, out, width, height, pitch, thr, 4), LAB_OK);
        gpu_sync();
        gpu_download(got, ddst, all);
        if ((bad = lab_first_diff(got, want, all, 1)) < all)
            fail_msg("%s, %zu x %zu, pitch %zu, src at +%zu, dst at +%zu, order %s: byte %td of "
                     "dst = %d, want %d",
                     scan_variants[v].name, width, height, pitch, src_shift, dst_shift,
                     testkit_order_name(o), (ptrdiff_t)bad - SPARE - (ptrdiff_t)dst_shift, got[bad],
                     want[bad]);
    }
    gpu_free(&dsrc);
    gpu_free(&ddst);
    free(x);
    free(got);
    free(want);
}

/* The compaction of n random bytes at src_shift, threshold 128, into an output out_shift ints
 * past SPARE ints of poison: the count and the indices the CPU's, the rest poison. */
static void check_compact(enum scan_variant v, size_t n, size_t src_shift, size_t out_shift)
{
    size_t all = 2 * SPARE + out_shift + n, count, bad;
    unsigned char *x = malloc(n);
    unsigned *got = malloc(all * sizeof(unsigned)), *want = malloc(all * sizeof(unsigned)), c;
    struct gpu_buf dsrc = gpu_alloc(src_shift + n), dout = gpu_alloc(all * sizeof(unsigned)),
                   dcount = gpu_alloc(sizeof c), scratch = gpu_alloc(scan_scratch_bytes(v, n));
    struct gpu_buf in = {(char *)dsrc.ptr + src_shift, n},
                   out = {(unsigned *)dout.ptr + SPARE + out_shift, n * sizeof(unsigned)};
    testkit_bytes(x, n);
    gpu_upload(in, x, n);
    memset(want, 0xff, all * sizeof(unsigned));
    count = compact_cpu(x, n, 128, want + SPARE + out_shift);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, n = %zu, src at +%zu, out at +%zu ints, order %s", scan_variants[v].name,
                     n, src_shift, out_shift, testkit_order_name(o));
        gpu_poison(dout);
        gpu_poison(scratch);
        assert_status(compact(v, in, n, 128, out, dcount, scratch), LAB_OK);
        gpu_sync();
        gpu_download(&c, dcount, sizeof c);
        gpu_download(got, dout, all * sizeof(unsigned));
        if (c != count)
            fail_msg("%s, n = %zu, order %s: count %u, want %zu", scan_variants[v].name, n,
                     testkit_order_name(o), c, count);
        if ((bad = lab_first_diff(got, want, all, sizeof(unsigned))) < all)
            fail_msg("%s, n = %zu, src at +%zu, out at +%zu ints, order %s: out[%td] = %u, want "
                     "%u",
                     scan_variants[v].name, n, src_shift, out_shift, testkit_order_name(o),
                     (ptrdiff_t)bad - SPARE - (ptrdiff_t)out_shift, got[bad], want[bad]);
    }
    gpu_free(&dsrc);
    gpu_free(&dout);
    gpu_free(&dcount);
    gpu_free(&scratch);
    free(x);
    free(got);
    free(want);
}

/* The sizes k u - 1, k u and k u + 1 for k = 1, 2, for each unit u the variant turns on. */
static void around(enum scan_variant v, const size_t *units, size_t count)
{
    for (size_t u = 0; u < count; u++)
        for (size_t k = 1; units[u] && k <= 2; k++)
            for (size_t n = k * units[u] - 1; n <= k * units[u] + 1; n++) {
                if (n > testkit_max_size())
                    continue;
                if (scan_facts[v].job == SCAN_JOB_SCAN)
                    check(v, n, 0);
                else if (scan_facts[v].job == SCAN_JOB_SCAN_FLOAT)
                    check_float(v, n, 0);
                else if (scan_facts[v].job == SCAN_JOB_COMPACT)
                    check_compact(v, n, 0, 0);
                else
                    check_threshold(v, n, 3, n + 1, 0, 0); /* rows at every offset */
            }
}

/* n = k u - 1, k u and k u + 1 for k = 1, 2 and every u a variant turns on: a warp, a block,
 * a warp's part of a tile, a tile; for three_phase also a block of its second launch's tiles
 * (the tile sums scanned by one block of warp_shuffle: at 256 tiles its loop takes a second
 * trip); for the thresholds the widths around a word, a uint4, a warp, a block of warps and a
 * warp's uint4s. Under the race checker, the sizes up to its 2^15 only. */
static void block_edges(int v)
{
    const size_t block = scan_facts[v].threads, tile = block * scan_facts[v].items;
    const size_t scan_units[] = {
        32, block, scan_facts[v].grid ? 32 * scan_facts[v].items : 0, tile,
        v == SCAN_THREE_PHASE ? tile * scan_facts[SCAN_WARP_SHUFFLE].threads : 0};
    const size_t threshold_units[] = {4, 16, 32, 128, 512};
    if (scan_facts[v].job == SCAN_JOB_THRESHOLD)
        around((enum scan_variant)v, threshold_units, COUNT(threshold_units));
    else
        around((enum scan_variant)v, scan_units, COUNT(scan_units));
}

/* Buffers 1, 2 and 3 elements past a 16-byte boundary: a kernel may assume an element's
 * alignment and no more. The thresholds' two images at the same offset (and, but for the
 * SIMD variant, which refuses them, at different ones). Under the race checker, the first
 * size only. */
static void unaligned_buffers(int v)
{
    static const size_t sizes[] = {5003, 100003};
    for (size_t s = 0; s < COUNT(sizes) && sizes[s] <= testkit_max_size(); s++)
        for (size_t shift = 1; shift <= 3; shift++) {
            if (scan_facts[v].job == SCAN_JOB_SCAN)
                check((enum scan_variant)v, sizes[s], shift);
            else if (scan_facts[v].job == SCAN_JOB_SCAN_FLOAT)
                check_float((enum scan_variant)v, sizes[s], shift);
            else if (scan_facts[v].job == SCAN_JOB_COMPACT)
                check_compact((enum scan_variant)v, sizes[s], shift, 4 - shift);
            else {
                check_threshold((enum scan_variant)v, sizes[s] / 50, 50, sizes[s] / 50 + shift,
                                shift, shift);
                if (v != SCAN_THRESHOLD_SIMD)
                    check_threshold((enum scan_variant)v, sizes[s] / 50, 50, sizes[s] / 50, shift,
                                    4 - shift);
            }
        }
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(unaligned_buffers),
};

TESTKIT_MAIN("lab11_scan_hidden", tests, scan_variants, SCAN_VARIANTS)
