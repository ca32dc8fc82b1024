/* lab08 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * widths one below, at and one above the multiples that the kernels' loops turn on (4 for
 * the float4 stores, 32 for a warp's row, 256 for tile_rows_vec4's block), against
 * repeaters from 1 to 33 wide, and targets that start 1, 2 or 3 floats past an aligned
 * address (tile_rows_vec4 must find the first 16-byte boundary of every row itself), with
 * poison on either side of the target that must stay; and targets past 2^32 points. Case 2
 * uses integer grey levels, exact in any order of addition (test_lab08_repeater.c). Points and
 * visibility: tests/hidden/lab08.txt. */
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

/* Past 2^31 and 2^32 points, where a target offset y W + x computed in int or unsigned wraps:
 * a 2^20 x 4097 target (W x H, the widest the API takes: 2^32 + 2^20 floats, 17.2 GB), whose
 * offsets pass 2^31 and 2^32 at the starts of rows 2048 and 4096. The test checks 64 points at
 * either end of rows 0, 2047, 2048, 4095 and 4096. A 37 x 11 repeater (and the lattice
 * u = (6, 1), v = (-1, 6) over it), but for tile_grid_over_repeater, whose threads walk the
 * target by the repeater's steps: a repeater as wide as the target and one row high, so that
 * a thread walks one column. The reference of case 2: one period of its target, which repeats
 * (the copies sit everywhere, so that shifting by a period changes neither which copies cover
 * a point nor their order). On a GPU every block runs (one without the target, the scratch and
 * 1 GB skips, which scores nothing); on the CPU backend only the blocks that hold the points'
 * threads (testkit_window), on memory mapped where touched: for the 2D grids, 32 x 8 blocks,
 * 2^15 across; a block per row for tile_rows_vec4 and the tiling of lattice_periodic, which
 * gathers its period with a grid of its own first, whose blocks all run. Not the atomic
 * scatter: a block per copy of the repeater, it needs more than 2^31 blocks at this size, which
 * launch.cu refuses (LAB_EINVAL) on any backend. */
enum { FAR_W = 1 << 20, FAR_H = 4097, FAR_ROWS = 5, FAR_SIDE = 64, FAR_RW = 37, FAR_RH = 11 };

static void past_2_32(int v)
{
    static const size_t rows[FAR_ROWS] = {0, 2047, 2048, 4095, 4096};
    static const size_t cols[2] = {0, FAR_W - FAR_SIDE};
    static const int uv[4] = {6, 1, -1, 6};
    const size_t n = (size_t)FAR_W * FAR_H, bytes = n * sizeof(float);
    const int lattice = repeater_facts[v].lattice, walker = v == TILE_GRID_OVER_REPEATER;
    const size_t rw = walker ? FAR_W : FAR_RW, rh = walker ? 1 : FAR_RH;
    const char *name = repeater_variants[v].name;
    size_t ranks[2 * FAR_ROWS + 1][2], count = 0,
                                       scratch_bytes = repeat_scratch_bytes(v, FAR_W, FAR_H);
    float *rep = malloc(rw * rh * sizeof(float)), *period = NULL, got[FAR_SIDE];
    char why[1200] = "";
    int *k = malloc(rw * rh * sizeof(int));
    struct lattice l;
#ifdef BACKEND_CUDA
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK ||
        info.global_bytes < bytes + scratch_bytes + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n",
                (bytes + scratch_bytes) / 1e9 + 1);
        skip();
    }
#endif
    struct gpu_buf both = gpu_alloc_zeroed(bytes + scratch_bytes); /* at once: gpu.h says why */
    struct gpu_buf target = {both.ptr, bytes}, scratch = {(char *)both.ptr + bytes, scratch_bytes};
    struct gpu_buf drep = gpu_alloc(rw * rh * sizeof(float));
    testkit_ints(k, rw * rh, -100, 255);
    for (size_t i = 0; i < rw * rh; i++)
        rep[i] = k[i] > 0 ? (float)k[i] : 0.0f;
    gpu_upload(drep, rep, rw * rh * sizeof(float));
    if (lattice) {
        assert_int_equal(lattice_plan(&l, uv[0], uv[1], uv[2], uv[3], rw, rh), LAB_OK);
        period = malloc((size_t)l.px * l.py * sizeof(float));
        lattice_cpu_target(period, l.px, l.py, rep, &l);
    }
    for (int r = 0; r < FAR_ROWS; r++) /* the blocks that hold each row's points */
        if (v == TILE_ROWS_VEC4 || v == LATTICE_PERIODIC) { /* a block per row */
            ranks[count][0] = rows[r] * ROW_THREADS;
            ranks[count++][1] = (rows[r] + 1) * ROW_THREADS;
        } else {
            for (int c = 0; c < 2; c++) { /* 32 x 8 blocks, 2^15 across */
                size_t across = FAR_W / TILE_THREADS_X, by = walker ? 0 : rows[r] / TILE_THREADS_Y;
                size_t first = by * across + cols[c] / TILE_THREADS_X;
                ranks[count][0] = first * TILE_THREADS_X * TILE_THREADS_Y;
                ranks[count++][1] =
                    (first + FAR_SIDE / TILE_THREADS_X) * TILE_THREADS_X * TILE_THREADS_Y;
            }
        }
    if (v == LATTICE_PERIODIC) { /* the gather of the period, 32 x 8 blocks over it */
        ranks[count][0] = 0;
        ranks[count++][1] = ((size_t)l.px + TILE_THREADS_X - 1) / TILE_THREADS_X *
                            (((size_t)l.py + TILE_THREADS_Y - 1) / TILE_THREADS_Y) *
                            TILE_THREADS_X * TILE_THREADS_Y;
    }
    testkit_window(ranks, count);
    testkit_case("%s, %d x %d, repeater %zu x %zu", name, FAR_W, FAR_H, rw, rh);
    if (lattice)
        assert_status(repeat_lattice((enum repeater_variant)v, target, FAR_W, FAR_H, drep, rw, rh,
                                     uv[0], uv[1], uv[2], uv[3], scratch),
                      LAB_OK);
    else
        assert_status(repeat_tile((enum repeater_variant)v, target, FAR_W, FAR_H, drep, rw, rh),
                      LAB_OK);
    gpu_sync();
    testkit_window(NULL, 0);
    for (int r = 0; r < FAR_ROWS; r++)
        for (int c = 0; c < 2; c++) { /* the first wrong point of each piece, said in why */
            size_t y = rows[r], at = y * FAR_W + cols[c], used = strlen(why);
            struct gpu_buf part = {(float *)target.ptr + at, sizeof got};
            gpu_download(got, part, sizeof got);
            for (size_t j = 0; j < FAR_SIDE; j++) {
                size_t x = cols[c] + j;
                float want =
                    lattice ? period[y % l.py * l.px + x % l.px] : rep[y % rh * rw + x % rw];
                if (memcmp(&got[j], &want, sizeof want)) {
                    snprintf(why + used, sizeof why - used,
                             "%starget[%zu] (row %zu, column %zu) is %g, want %g", used ? "; " : "",
                             at + j, y, x, got[j], want);
                    break;
                }
            }
        }
    if (why[0])
        fail_msg("%s, %d x %d, repeater %zu x %zu: %s (an offset that wraps at 2^31 or 2^32?)",
                 name, FAR_W, FAR_H, rw, rh, why);
    gpu_free(&both);
    gpu_free(&drep);
    free(rep);
    free(period);
    free(k);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(width_edges),
    TESTKIT_EACH(unaligned_target),
    TESTKIT_EACH_EXCEPT(past_2_32, LATTICE_SCATTER_ATOMIC),
};

TESTKIT_MAIN("lab08_hidden", tests, repeater_variants, REPEATER_VARIANTS)
