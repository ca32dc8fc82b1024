/* lab10 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check what the visible tests leave open, a test per variant:
 * lines whose input starts 1 to 3 ints past an aligned start, on sizes around block and tile
 * multiples; grids whose rows are padded further than heat_pitch pads them, inside poison
 * that no variant may touch (the ends of rows included); and long runs with the most
 * sources, on the corners and the tiles' edges, over sides that are no multiple of a tile;
 * images whose rows are padded further than sobel_pitch pads them, inside poison, and for
 * sobel_shared starting 1 to 3 bytes past an aligned start, rows 1 to 3 bytes past the width.
 * Points: tests/hidden/lab10.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "stencil.h"

/* Ints of poison before and after an output: 256 bytes, so that a grid placed after them
 * keeps the alignment a texture needs. */
enum { SPARE = 64 };

/* The first difference of got and want (count ints), or count. */
static size_t first_diff(const int *got, const int *want, size_t count)
{
    return lab_first_diff(got, want, count, sizeof(int));
}

static void check_line(int v, size_t n, size_t shift)
{
    size_t bytes = n * sizeof(int), all = (n + 2 * SPARE) * sizeof(int), bad;
    int *in = malloc(bytes), *got = malloc(all), *want = malloc(all);
    struct gpu_buf din = gpu_alloc(bytes + shift * sizeof(int)), dout = gpu_alloc(all);
    struct gpu_buf moved = {(int *)din.ptr + shift, bytes}, out = {(int *)dout.ptr + SPARE, bytes};
    testkit_case("%s, n = %zu, input at +%zu ints", stencil_variants[v].name, n, shift);
    testkit_ints(in, n, -(1 << 20), 1 << 20);
    gpu_upload(moved, in, bytes);
    gpu_poison(dout);
    gpu_download(want, dout, all); /* the poison, where nothing may be written */
    (stencil_facts[v].kind == LINE_ADJACENT ? adjacent_cpu : stencil1d_cpu)(in, want + SPARE, n);
    assert_status(stencil_line((enum stencil_variant)v, moved, out, n), LAB_OK);
    gpu_sync();
    gpu_download(got, dout, all);
    if ((bad = first_diff(got, want, n + 2 * SPARE)) < n + 2 * SPARE)
        fail_msg("%s, n = %zu, input at +%zu ints: out[%td] = %d, want %d",
                 stencil_variants[v].name, n, shift, (ptrdiff_t)bad - SPARE, got[bad], want[bad]);
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(got);
    free(want);
}

/* Around 1 to 4 blocks of threads and 1 and 2 tiles. */
static void unaligned_edges(int v)
{
    static const size_t ends[] = {LINE_THREADS,     2 * LINE_THREADS, 3 * LINE_THREADS,
                                  4 * LINE_THREADS, LINE_TILE,        2 * LINE_TILE};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        for (size_t n = ends[k] - 1; n <= ends[k] + 1; n++)
            check_line(v, n, (k + 1) % 4);
}

/* Variant v from a random grid of w x h cells, `pitch` ints a row, with the given sources:
 * the output's cells against the reference, and everything else of the output's buffer (the
 * ends of rows, SPARE ints either side) still poison. */
static void check_grid(int v, size_t w, size_t h, size_t pitch, const struct heat_source *src,
                       size_t nsrc, unsigned steps)
{
    size_t cells = pitch * h, all = cells + 2 * SPARE, bad;
    int *in = malloc(cells * sizeof(int)), *scratch = malloc(cells * sizeof(int));
    int *want = malloc(all * sizeof(int)), *got = malloc(all * sizeof(int));
    struct gpu_buf din = gpu_alloc(all * sizeof(int)), dout = gpu_alloc(all * sizeof(int));
    struct gpu_buf dscratch = gpu_alloc(all * sizeof(int));
    struct gpu_buf a = {(int *)din.ptr + SPARE, cells * sizeof(int)};
    struct gpu_buf b = {(int *)dout.ptr + SPARE, cells * sizeof(int)};
    struct gpu_buf c = {(int *)dscratch.ptr + SPARE, cells * sizeof(int)};
    testkit_ints(in, cells, 0, (1 << 20) - 1);
    gpu_upload(a, in, cells * sizeof(int));
    gpu_poison(dout);
    gpu_download(want, dout, all * sizeof(int));
    heat_cpu(in, want + SPARE, scratch, w, h, pitch, src, nsrc, steps);
    for (int o = 0; o < testkit_orders(w * h); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu (pitch %zu), %zu sources, %u steps, order %s",
                     stencil_variants[v].name, w, h, pitch, nsrc, steps, testkit_order_name(o));
        gpu_poison(dout);
        assert_status(heat((enum stencil_variant)v, a, b, c, w, h, pitch, src, nsrc, steps),
                      LAB_OK);
        gpu_sync();
        gpu_download(got, dout, all * sizeof(int));
        if ((bad = first_diff(got, want, all)) < all) {
            ptrdiff_t at = (ptrdiff_t)bad - SPARE;
            fail_msg("%s, %zu x %zu (pitch %zu), %u steps, order %s: int %td of out (row %td, "
                     "column %td) = %d, want %d",
                     stencil_variants[v].name, w, h, pitch, steps, testkit_order_name(o), at,
                     at / (ptrdiff_t)pitch, at % (ptrdiff_t)pitch, got[bad], want[bad]);
        }
    }
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&dscratch);
    free(in);
    free(scratch);
    free(want);
    free(got);
}

/* Sobel variant v on a random image of w x h pixels, `pitch` bytes a row, starting `shift`
 * bytes into its buffer: the output's pixels against the reference, and everything else of
 * the output's buffer (the ends of rows, SPARE ints either side) still poison. */
static void check_image(int v, size_t w, size_t h, size_t pitch, size_t shift)
{
    size_t bytes = pitch * h, all = bytes + 2 * SPARE * sizeof(int), bad;
    unsigned char *in = malloc(bytes), *want = malloc(all), *got = malloc(all);
    struct gpu_buf din = gpu_alloc(bytes + shift), dout = gpu_alloc(all);
    struct gpu_buf a = {(char *)din.ptr + shift, bytes};
    struct gpu_buf b = {(char *)dout.ptr + SPARE * sizeof(int), bytes};
    testkit_bytes(in, bytes);
    gpu_upload(a, in, bytes);
    gpu_poison(dout);
    gpu_download(want, dout, all);
    sobel_cpu(in, want + SPARE * sizeof(int), w, h, pitch);
    for (int o = 0; o < testkit_orders(w * h); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu (pitch %zu), input at +%zu bytes, order %s",
                     stencil_variants[v].name, w, h, pitch, shift, testkit_order_name(o));
        gpu_poison(dout);
        assert_status(sobel((enum stencil_variant)v, a, b, w, h, pitch), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, all);
        if ((bad = lab_first_diff(got, want, all, 1)) < all) {
            ptrdiff_t at = (ptrdiff_t)bad - SPARE * (ptrdiff_t)sizeof(int);
            fail_msg("%s, %zu x %zu (pitch %zu), input at +%zu bytes, order %s: byte %td of out "
                     "(row %td, column %td) = %d, want %d",
                     stencil_variants[v].name, w, h, pitch, shift, testkit_order_name(o), at,
                     at / (ptrdiff_t)pitch, at % (ptrdiff_t)pitch, got[bad], want[bad]);
        }
    }
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(want);
    free(got);
}

static void padded_images(int v)
{
    check_image(v, 45, 29, sobel_pitch(45) + SOBEL_ROW_ALIGN, 0);
    check_image(v, 97, 33, sobel_pitch(97) + 2 * SOBEL_ROW_ALIGN, 0);
    if (v != ST_SOBEL_TEXTURE) /* a texture takes aligned starts and rows only */
        for (size_t shift = 1; shift <= 3; shift++)
            check_image(v, 45 + 2 * shift, 29, 45 + 3 * shift, shift);
}

static void padded_rows(int v)
{
    if (stencil_facts[v].kind == IMAGE_SOBEL) {
        padded_images(v);
        return;
    }
    const struct heat_source src[] = {{0, 0, 99999}, {44, 28, 12345}, {20, 10, 0}};
    for (unsigned steps = 1; steps <= HEAT_T_STEPS + 1; steps += HEAT_T_STEPS) {
        check_grid(v, 45, 29, heat_pitch(45) + HEAT_ROW_ALIGN, src, 3, steps);
        check_grid(v, 97, 33, heat_pitch(97) + 2 * HEAT_ROW_ALIGN, src, 3, steps);
    }
}

/* HEAT_MAX_SOURCES sources: the 4 corners, cells on both sides of the blocks' and the
 * temporal outputs' edges, and the rest at random, each on a cell of its own. */
static void long_runs(int v)
{
    const size_t w = 150, h = 70;
    static struct heat_source src[HEAT_MAX_SOURCES];
    static const unsigned fixed[][2] = {{0, 0},
                                        {149, 0},
                                        {0, 69},
                                        {149, 69},
                                        {HEAT_BX - 1, HEAT_TY - 1},
                                        {HEAT_BX, HEAT_TY},
                                        {3 * HEAT_BX - 1, 2 * HEAT_TY - 1},
                                        {3 * HEAT_BX, 2 * HEAT_TY},
                                        {HEAT_T_OW - 1, HEAT_T_OH - 1},
                                        {HEAT_T_OW, HEAT_T_OH},
                                        {2 * HEAT_T_OW - 1, 0},
                                        {2 * HEAT_T_OW, HEAT_T_OH - 1}};
    size_t n = 0;
    for (size_t f = 0; n < HEAT_MAX_SOURCES; f++) {
        struct heat_source s = {(unsigned)(testkit_next() % w), (unsigned)(testkit_next() % h),
                                (int)(testkit_next() % (1 << 20))};
        size_t k = 0;
        if (f < sizeof fixed / sizeof fixed[0])
            s = (struct heat_source){fixed[f][0] % w, fixed[f][1] % h, (int)(f * 50000)};
        while (k < n && (src[k].x != s.x || src[k].y != s.y))
            k++;
        if (k == n)
            src[n++] = s;
    }
    check_grid(v, w, h, heat_pitch(w), src, n, 2 * HEAT_T_STEPS + 3);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH_EXCEPT(unaligned_edges, ST_HEAT_GLOBAL, ST_HEAT_SHARED, ST_HEAT_TEXTURE,
                        ST_HEAT_TEMPORAL, ST_SOBEL_SHARED, ST_SOBEL_TEXTURE),
    TESTKIT_EACH_EXCEPT(padded_rows, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO),
    TESTKIT_EACH_EXCEPT(long_runs, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO,
                        ST_SOBEL_SHARED, ST_SOBEL_TEXTURE),
};

TESTKIT_MAIN("lab10_stencil_hidden", tests, stencil_variants, STENCIL_VARIANTS)
