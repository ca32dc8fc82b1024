/* lab09 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * sizes one below, at and one above the 32 x 8 block; distances past 1024 pixels, where
 * a * 4095 no longer fits 32 bits (the profile's index) and D up to the limit, 32768; and
 * an output inside a poisoned buffer, nothing written outside it. Exact, against the CPU
 * reference. Points and visibility: tests/hidden/lab09.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "distance.h"
#include "lab.h"
#include "testkit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* 4-byte words of poison on either side of the output. */
enum { SPARE = 64 };

/* v on the mask, its output SPARE words into a poisoned buffer, under every thread order:
 * the reference's a (or z, through the default table), and the spare words untouched. */
static void check(enum distance_variant v, const unsigned char *mask, unsigned w, unsigned h,
                  unsigned dmax, const char *what)
{
    size_t n = (size_t)w * h, scratch_bytes = distance_scratch_bytes(v, w, h, dmax);
    uint32_t *want = malloc(4 * n), *got = malloc(4 * (n + 2 * SPARE));
    float table[DISTANCE_LUT];
    struct gpu_buf dmask = gpu_alloc(n), whole = gpu_alloc(4 * (n + 2 * SPARE)),
                   scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    struct gpu_buf out = {(uint32_t *)whole.ptr + SPARE, 4 * n};
    distance_profile_table(table);
    assert_status(distance_set_profile(table), LAB_OK);
    distance_cpu(mask, w, h, dmax, want);
    if (distance_facts[v].profile)
        distance_profile_cpu(want, n, dmax, table, (float *)want);
    gpu_upload(dmask, mask, n);
    for (int o = 0; o < testkit_orders(n); o++) {
        size_t bad;
        testkit_set_order(o);
        testkit_case("%s, %s, %u x %u, D = %u, order %s", distance_variants[v].name, what, w, h,
                     dmax, testkit_order_name(o));
        gpu_poison(whole);
        gpu_poison(scratch);
        assert_status(distance(v, dmask, w, h, dmax, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(got, whole, whole.bytes);
        if ((bad = lab_first_diff(got + SPARE, want, n, 4)) < n)
            fail_msg("%s, %s, %u x %u, D = %u, order %s: pixel (%zu, %zu) is %u, want %u (as "
                     "words)",
                     distance_variants[v].name, what, w, h, dmax, testkit_order_name(o), bad % w,
                     bad / w, got[SPARE + bad], want[bad]);
        for (size_t k = 0; k < SPARE; k++)
            if (got[k] != 0xFFFFFFFFu || got[SPARE + n + k] != 0xFFFFFFFFu)
                fail_msg("%s, %s, %u x %u: a word %s the output was written",
                         distance_variants[v].name, what, w, h,
                         got[k] != 0xFFFFFFFFu ? "before" : "after");
    }
    gpu_free(&dmask);
    gpu_free(&whole);
    gpu_free(&scratch);
    free(want);
    free(got);
}

/* Widths 31, 32, 33 and 63, 64, 65 by heights 7, 8, 9: the points and lines masks, D = 5. */
static void block_edges(int v)
{
    static const unsigned ws[] = {31, 32, 33, 63, 64, 65}, hs[] = {7, 8, 9};
    for (size_t i = 0; i < COUNT(ws); i++)
        for (size_t j = 0; j < COUNT(hs); j++)
            for (int k = DISTANCE_POINTS; k <= DISTANCE_LINES; k++) {
                unsigned char *mask = malloc((size_t)ws[i] * hs[j]);
                distance_mask_fill(mask, ws[i], hs[j], k, testkit_next());
                check(v, mask, ws[i], hs[j], 5, distance_mask_names[k]);
                free(mask);
            }
}

/* One white pixel at an end of a 1 x 1500 or 1500 x 1 line, D = 2000 and the limit: a up
 * to 1499^2 = 2247001, whose a * 4095 is past 2^32; and D^2 = 2^30 on a black 5 x 5. */
static void far_distances(int v)
{
    static const unsigned ds[] = {2000, DISTANCE_MAX_D};
    unsigned char *line = calloc(1500, 1), black[25] = {0};
    line[1499] = 1;
    for (size_t d = 0; d < COUNT(ds); d++) {
        check(v, line, 1500, 1, ds[d], "one white pixel at the right end");
        check(v, line, 1, 1500, ds[d], "one white pixel at the bottom");
    }
    check(v, black, 5, 5, DISTANCE_MAX_D, "black");
    free(line);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(far_distances),
};

TESTKIT_MAIN("lab09_distance_hidden", tests, distance_variants, DISTANCE_VARIANTS)
