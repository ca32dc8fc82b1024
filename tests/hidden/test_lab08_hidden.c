/* lab08 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * widths one below, at and one above the multiples that the kernels' loops turn on (4 for
 * the float4 stores, 32 for a warp's row, 256 for tile_rows_vec4's block), against
 * repeaters from 1 to 33 wide, and targets that start 1, 2 or 3 floats past an aligned
 * address (tile_rows_vec4 must find the first 16-byte boundary of every row itself), with
 * poison on either side of the target that must stay. Case 2 uses integer grey levels, exact
 * in any order of addition (test_lab08_repeater.c). Points and visibility:
 * tests/hidden/lab08.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "repeater.h"
#include "testkit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { MARGIN = 16 }; /* poisoned floats before and after the target */

/* Variant v on a width x height target `shift` floats past an aligned start, the repeater
 * rw x rh (case 2: u = (ux, uy), v = (vx, vy)), under every thread order: the reference's
 * target bit for bit, the MARGIN floats on either side untouched. */
static void check(enum repeater_variant v, size_t width, size_t height, size_t rw, size_t rh,
                  const int uv[4], size_t shift)
{
    size_t n = width * height, cells = rw * rh, total = n + 2 * MARGIN;
    float *rep = malloc(cells * sizeof(float)), *want = malloc(n * sizeof(float) + 1);
    float *got = malloc(total * sizeof(float));
    int *k = malloc(cells * sizeof(int));
    struct gpu_buf all = gpu_alloc(total * sizeof(float)), drep = gpu_alloc(cells * 4);
    struct gpu_buf target = {(float *)all.ptr + MARGIN + shift - (shift ? 4 : 0), n * 4};
    struct gpu_buf scratch = gpu_alloc(repeat_scratch_bytes(v, width, height) + 1);
    size_t at = MARGIN + shift - (shift ? 4 : 0);
    struct lattice l;
    testkit_ints(k, cells, -100, 255);
    for (size_t i = 0; i < cells; i++)
        rep[i] = k[i] > 0 ? (float)k[i] : 0.0f;
    if (repeater_facts[v].lattice) {
        assert_int_equal(lattice_plan(&l, uv[0], uv[1], uv[2], uv[3], rw, rh), LAB_OK);
        lattice_cpu_target(want, width, height, rep, &l);
    } else {
        tile_cpu_basic(want, width, height, rep, rw, rh);
    }
    gpu_upload(drep, rep, cells * 4);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, repeater %zu x %zu, target at +%zu floats, order %s",
                     repeater_variants[v].name, width, height, rw, rh, shift,
                     testkit_order_name(o));
        gpu_poison(all);
        gpu_poison(scratch);
        if (repeater_facts[v].lattice)
            assert_status(repeat_lattice(v, target, width, height, drep, rw, rh, uv[0], uv[1],
                                         uv[2], uv[3], scratch),
                          LAB_OK);
        else
            assert_status(repeat_tile(v, target, width, height, drep, rw, rh), LAB_OK);
        gpu_sync();
        gpu_download(got, all, total * sizeof(float));
        for (size_t i = 0; i < total; i++) {
            int inside = i >= at && i < at + n;
            float w = inside ? want[i - at] : got[0];
            if (memcmp(&got[i], &w, sizeof w))
                fail_msg("%s, %zu x %zu, repeater %zu x %zu, target at +%zu floats, order %s: "
                         "%s %zd is %g, want %g",
                         repeater_variants[v].name, width, height, rw, rh, shift,
                         testkit_order_name(o), inside ? "target float" : "the float at",
                         inside ? (ssize_t)(i - at) : (ssize_t)i - (ssize_t)at, got[i], w);
        }
    }
    gpu_free(&all);
    gpu_free(&drep);
    gpu_free(&scratch);
    free(rep);
    free(want);
    free(got);
    free(k);
}

/* Widths around 4, 32 and 256, against repeaters 1 to 33 wide; case 2 on a lattice of rows
 * that overlap (v.y below rh), sheared by one column a row. */
static void width_edges(int v)
{
    static const size_t widths[] = {3, 4, 5, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025};
    static const size_t sides[] = {1, 2, 3, 4, 5, 7, 32, 33};
    for (size_t w = 0; w < COUNT(widths); w++)
        for (size_t s = 0; s < COUNT(sides); s++) {
            int side = (int)sides[s], uv[4] = {side, 0, 1, side / 3 > 1 ? side / 3 : 1};
            check((enum repeater_variant)v, widths[w], 9, sides[s], sides[s] / 2 + 1, uv, 0);
        }
}

/* Targets 1, 2 and 3 floats past a 16-byte boundary (4 less, so that they start inside the
 * margin's last 16 bytes), on widths that keep or break the rows' alignment. */
static void unaligned_target(int v)
{
    static const size_t widths[] = {8, 13, 100, 258};
    for (size_t shift = 1; shift <= 3; shift++)
        for (size_t w = 0; w < COUNT(widths); w++) {
            int uv[4] = {6, 1, -1, 6};
            check((enum repeater_variant)v, widths[w], 11, 10, 10, uv, shift);
        }
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(width_edges),
    TESTKIT_EACH(unaligned_target),
};

TESTKIT_MAIN("lab08_hidden", tests, repeater_variants, REPEATER_VARIANTS)
