/* lab07 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * matrices with more tiles down the grid than gridDim.y's 65535 (the launcher folds them into
 * gridDim.z), every width and height around the tiles and vector widths (and 0, which writes
 * nothing), and buffers at offsets that leave one side aligned and not the other. Every case
 * also checks that nothing around out was written. And every variant past 2^31 and 2^32
 * elements. The occupancy step: every amount of extra shared memory, block sizes that are not
 * a warp's multiple, every variant's kernel, and the padded launch around 48 KiB. Points and
 * visibility: tests/hidden/lab07.txt. */
#include <math.h>
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
#include "transpose.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Bytes of poison before and after out (and room before in): a multiple of 16, so an offset
 * into the buffer keeps the alignment the offset alone gives. */
enum { MARGIN = 64 };

static size_t elem(int v)
{
    return transpose_facts[v].elem;
}

/* Variant v on a w x h matrix of random elements, placed in_off bytes after an aligned
 * start, into an output out_off bytes after one, under the first `orders` thread orders:
 * out must be the transpose (the copy for the copy rows), and the poison around it intact.
 * With extra other than NO_EXTRA, v is tiled_padded launched by transpose_padded_extra with
 * extra bytes of dynamic shared memory a block. */
#define NO_EXTRA SIZE_MAX
static void check_extra(int v, size_t w, size_t h, size_t in_off, size_t out_off, int orders,
                        size_t extra)
{
    char name[64];
    size_t n = w * h, bytes = n * elem(v), cols = transpose_facts[v].copy ? w : h, bad;
    size_t span = MARGIN + out_off + bytes + MARGIN;
    unsigned char *in = malloc(bytes + 1), *want = malloc(span), *got = malloc(span);
    struct gpu_buf din = gpu_alloc(MARGIN + in_off + bytes), dout = gpu_alloc(span);
    struct gpu_buf a = {(char *)din.ptr + MARGIN + in_off, bytes},
                   b = {(char *)dout.ptr + MARGIN + out_off, bytes};
    if (elem(v) == sizeof(float))
        testkit_floats((float *)in, n, -1e3f, 1e3f);
    else
        testkit_bytes(in, bytes);
    memset(want, 0xFF, span); /* the poison gpu_poison writes */
    if (transpose_facts[v].copy)
        memcpy(want + MARGIN + out_off, in, bytes);
    else
        transpose_cpu(in, want + MARGIN + out_off, w, h, elem(v));
    if (extra == NO_EXTRA)
        snprintf(name, sizeof name, "%s", transpose_variants[v].name);
    else
        snprintf(name, sizeof name, "tiled_padded with %zu extra bytes", extra);
    if (bytes)
        gpu_upload(a, in, bytes);
    for (int o = 0; o < orders; o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, in at +%zu bytes, out at +%zu, order %s", name, w, h, in_off,
                     out_off, testkit_order_name(o));
        gpu_poison(dout);
        assert_status(extra == NO_EXTRA ? transpose((enum transpose_variant)v, a, b, w, h)
                                        : transpose_padded_extra(a, b, w, h, extra),
                      LAB_OK);
        gpu_sync();
        gpu_download(got, dout, span);
        bad = lab_first_diff(got + MARGIN + out_off, want + MARGIN + out_off, n, elem(v));
        if (bad < n)
            fail_msg("%s, %zu x %zu, in at +%zu bytes, out at +%zu, order %s: element %zu (row "
                     "%zu, column %zu of the result) is wrong",
                     name, w, h, in_off, out_off, testkit_order_name(o), bad, bad / cols,
                     bad % cols);
        bad = lab_first_diff(got, want, span, 1);
        if (bad < span)
            fail_msg("%s, %zu x %zu, in at +%zu bytes, out at +%zu, order %s: the byte %td "
                     "bytes from out's start was written, outside out",
                     name, w, h, in_off, out_off, testkit_order_name(o),
                     (ptrdiff_t)bad - (ptrdiff_t)(MARGIN + out_off));
    }
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(want);
    free(got);
}

static void check(int v, size_t w, size_t h, size_t in_off, size_t out_off, int orders)
{
    check_extra(v, w, h, in_off, out_off, orders, NO_EXTRA);
}

/* 1 x L or L x 1 with more tile rows than gridDim.y reaches (the tall one, or the wide one
 * for naive_cols, whose grid lies over out): the launcher folds them into gridDim.z, and a
 * block must take its tile row from blockIdx.z * gridDim.y + blockIdx.y (tile_y()). The
 * handout promises 1 x 3,000,000. On a GPU, 65537 tile rows; on the CPU backend the virtual
 * device is told that gridDim.y stops at 64 (CUDA_CPU_MAX_GRID_YZ), so 66 tile rows fold
 * the same way in a fraction of a second. One order: folding does not depend on it. */
static void folded_grids(int v)
{
    size_t rows = 65537;
#ifdef BACKEND_CPU
    rows = 66;
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", "64");
#endif
    size_t side = rows * transpose_facts[v].tile_h - 1;
    if (transpose_facts[v].over_out)
        check(v, side, 1, 0, 0, 1);
    else
        check(v, 1, side, 0, 0, 1);
#ifdef BACKEND_CPU
    testkit_setenv("CUDA_CPU_MAX_GRID_YZ", NULL);
#endif
}

/* Every width and height around the vector widths (2, 4), the 32-wide tile and the variant
 * family's larger tile (64 rows for floats, 128 pixels for images): partial and whole tiles,
 * partial and whole 4-element words on either side, in all 100 combinations. And 0 x 32,
 * 32 x 0: LAB_OK, nothing written. */
static void tile_edges(int v)
{
    static const size_t floats[] = {2, 3, 4, 5, 31, 32, 33, 63, 64, 65};
    static const size_t bytes[] = {2, 3, 4, 5, 31, 32, 33, 127, 128, 129};
    const size_t *sides = elem(v) == 1 ? bytes : floats;
    check(v, 0, 32, 0, 0, 1);
    check(v, 32, 0, 0, 0, 1);
    for (size_t i = 0; i < COUNT(floats); i++)
        for (size_t j = 0; j < COUNT(floats); j++)
            check(v, sides[i], sides[j], 0, 0, testkit_orders(sides[i] * sides[j]));
}

/* in and out at different offsets from an aligned start: one side aligned and the other not
 * (each vector path must follow its own side's flag), and images at +2 and +3 bytes, which
 * are neither word aligned nor +1. The sides are multiples of 4, so only the offsets stop
 * the vector paths. launch.cu takes any offset (it falls back to scalar accesses). */
static void odd_offsets(int v)
{
    static const size_t offsets[][2] = {{0, 1}, {1, 0}, {0, 2}, {2, 0}, {2, 3}, {3, 2}, {2, 2}};
    for (size_t k = 0; k < COUNT(offsets); k++)
        check(v, 260, 132, offsets[k][0] * elem(v), offsets[k][1] * elem(v),
              testkit_orders(260 * 132));
}

/* Past 2^31 and 2^32 elements, where an index computed in int or unsigned wraps, in in and
 * in out: a 32 x (2^27 + 64) matrix (W x H), 2^32 + 2048 elements, 17.2 GB of floats or 4.3 GB
 * of bytes in each buffer. in's index passes 2^31 and 2^32 at rows 2^26 and 2^27, out's (it
 * has W rows of H) at in's rows 2^27 - 960 (out's row 15) and 2^27 - 1984 (row 31). The test
 * fills three bands of in's rows with random elements, the first 64, 2^26 +- 64 and the last
 * 2112 (zero elsewhere), and checks their transpose in out (for the copies, their copy). On a
 * GPU every block runs (one without 2 n + 1 GB skips, which scores nothing); on the CPU backend
 * only the blocks of the bands' tiles (testkit_window), on memory mapped where touched: one
 * tile across, so the tiles down are the blocks' linear indices, whichever matrix the grid
 * lies over and however it folds into gridDim.z. */
enum { WRAP_W = 32, BANDS = 3 };

static void past_2_32(int v)
{
    const struct transpose_facts *f = &transpose_facts[v];
    const size_t h = ((size_t)1 << 27) + 64, n = WRAP_W * h, e = elem(v);
    const size_t band[BANDS][2] = {
        {0, 64}, {((size_t)1 << 26) - 64, ((size_t)1 << 26) + 64}, {h - 2112, h}};
    const size_t tile = f->over_out ? f->tile_w : f->tile_h, threads = f->threads_x * f->threads_y;
    const char *name = transpose_variants[v].name;
    size_t ranks[BANDS][2];
    unsigned char *rows[BANDS], *got = malloc(2112 * WRAP_W * e);
#ifdef BACKEND_CUDA
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK || info.global_bytes < 2 * n * e + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n", 2 * n * e / 1e9 + 1);
        skip();
    }
#endif
    struct gpu_buf both = gpu_alloc_zeroed(2 * n * e); /* at once: gpu.h says why */
    struct gpu_buf din = {both.ptr, n * e}, dout = {(char *)both.ptr + n * e, n * e};
    for (int k = 0; k < BANDS; k++) {
        size_t count = (band[k][1] - band[k][0]) * WRAP_W;
        struct gpu_buf part = {(char *)din.ptr + band[k][0] * WRAP_W * e, count * e};
        rows[k] = malloc(count * e);
        if (e == sizeof(float))
            testkit_floats((float *)rows[k], count, -1e3f, 1e3f);
        else
            testkit_bytes(rows[k], count);
        gpu_upload(part, rows[k], part.bytes);
        ranks[k][0] = band[k][0] / tile * threads;
        ranks[k][1] = (band[k][1] + tile - 1) / tile * threads;
    }
    testkit_window(ranks, BANDS);
    testkit_case("%s, %d x %zu", name, WRAP_W, h);
    assert_status(transpose((enum transpose_variant)v, din, dout, WRAP_W, h), LAB_OK);
    gpu_sync();
    testkit_window(NULL, 0);
    for (int k = 0; k < BANDS; k++)
        for (size_t c = 0; c < (f->copy ? 1 : WRAP_W); c++) {
            /* a copy's band at once; a transpose's column c of the band, a row of out */
            size_t r0 = band[k][0], len = band[k][1] - r0, cols = f->copy ? WRAP_W : h;
            size_t at = f->copy ? r0 * WRAP_W : c * h + r0, span = f->copy ? len * WRAP_W : len;
            struct gpu_buf part = {(char *)dout.ptr + at * e, span * e};
            gpu_download(got, part, part.bytes);
            for (size_t j = 0; j < span; j++) {
                size_t i = at + j, r = f->copy ? i / WRAP_W : r0 + j,
                       col = f->copy ? i % WRAP_W : c;
                if (memcmp(got + j * e, rows[k] + ((r - r0) * WRAP_W + col) * e, e))
                    fail_msg("%s, %d x %zu: out's element %zu (row %zu, column %zu), from in's "
                             "element %zu (row %zu, column %zu), is wrong (an index that wraps "
                             "at 2^31 or 2^32?)",
                             name, WRAP_W, h, i, i / cols, i % cols, r * WRAP_W + col, r, col);
            }
        }
    for (int k = 0; k < BANDS; k++)
        free(rows[k]);
    gpu_free(&both);
    free(got);
}

/* ------------------------------------------------------------- occupancy, measured */

enum { PADDED_THREADS = TILE * BLOCK_ROWS };

/* transpose_occupancy(v, threads, extra) is LAB_OK with the fraction of its blocks' threads;
 * on the CPU backend, want blocks (its occupancy calculator's count); on a GPU, no more than
 * `most` (the count with less, or -1) and what the SM's threads and shared memory allow. */
static int occupancy_is(int v, unsigned threads, size_t extra, int want, int most)
{
    struct transpose_occupancy occ = {-1, -1.0};
    struct gpu_info gpu;
    const char *name = transpose_variants[v].name;
    assert_status(gpu_query(&gpu), LAB_OK);
    testkit_case("transpose_occupancy(%s, %u threads, %zu extra bytes)", name, threads, extra);
    assert_status(transpose_occupancy((enum transpose_variant)v, threads, extra, &occ), LAB_OK);
#ifdef BACKEND_CPU
    (void)most;
    if (occ.blocks != want)
        fail_msg("%s, %u threads, %zu extra bytes: %d blocks per SM, where the CPU backend's "
                 "occupancy calculator says %d",
                 name, threads, extra, occ.blocks, want);
#else
    (void)want;
    if (occ.blocks < 1 || (most >= 0 && occ.blocks > most) ||
        occ.blocks * ((threads + 31) / 32 * 32) > (unsigned)gpu.max_threads_per_sm ||
        (extra && occ.blocks * extra > gpu.smem_per_sm))
        fail_msg("%s, %u threads, %zu extra bytes: %d blocks per SM cannot be (%d with fewer "
                 "bytes; an SM has %d threads and %zu bytes of shared memory)",
                 name, threads, extra, occ.blocks, most, gpu.max_threads_per_sm, gpu.smem_per_sm);
#endif
    if (fabs(occ.fraction - (double)occ.blocks * threads / gpu.max_threads_per_sm) > 1e-12)
        fail_msg("%s, %u threads, %zu extra bytes: occupancy %g for %d blocks, not their %d "
                 "threads over the SM's %d",
                 name, threads, extra, occ.fraction, occ.blocks, occ.blocks * threads,
                 gpu.max_threads_per_sm);
    return occ.blocks;
}

static int least(int a, int b)
{
    return a < b ? a : b;
}

/* tiled_padded from no extra bytes to the most a block can have, in steps of 1 KiB and the
 * last byte: on the CPU backend min(8, 96 KiB / extra) blocks, on a GPU never more as the
 * bytes grow, one block at the end. Block sizes that are not multiples of a warp, or reach
 * the 32-block limit, and the most a block can have (1024; 1025 is LAB_EINVAL). Every
 * variant's kernel at 256 threads. */
static void occupancy_sweep(void)
{
    static const unsigned threads[] = {1, 31, 32, 33, 100, 255, 257, 1000, 1024};
    struct transpose_occupancy occ;
    size_t most;
    int last = -1;
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    for (size_t step = 0;; step += 1024) {
        size_t extra = step < most ? step : most;
        last = occupancy_is(TR_TILED_PADDED, PADDED_THREADS, extra,
                            extra ? least(8, (int)((96 << 10) / extra)) : 8, last);
        if (extra == most)
            break;
    }
    if (last != 1)
        fail_msg("tiled_padded with the most extra bytes a block can have (%zu): %d blocks "
                 "per SM, not 1",
                 most, last);
    for (size_t k = 0; k < COUNT(threads); k++)
        occupancy_is(TR_TILED_PADDED, threads[k], 0,
                     least(2048 / (int)((threads[k] + 31) / 32 * 32), 32), -1);
    assert_status(transpose_occupancy(TR_TILED_PADDED, 1025, 0, &occ), LAB_EINVAL);
    assert_status(transpose_occupancy((enum transpose_variant) - 1, PADDED_THREADS, 0, &occ),
                  LAB_EINVAL);
    for (int v = 0; v < TR_VARIANTS; v++)
        occupancy_is(v, PADDED_THREADS, 0, 8, -1);
}

/* The padded tile with extra bytes around the 48 KiB a block has without asking (its own
 * tile of 4224 bytes included or not) and the most it can have, on shapes with partial tiles
 * every way and a single row or column; nothing around out written. */
static void padded_extra_edges(void)
{
    static const size_t sides[][2] = {{1, 1000}, {1000, 1}, {65, 63}, {130, 67}};
    size_t most;
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    const size_t extras[] = {1, (48 << 10) - 4224, 48 << 10, (48 << 10) + 1, most - 1, most};
    for (size_t i = 0; i < COUNT(sides); i++)
        for (size_t e = 0; e < COUNT(extras); e++)
            check_extra(TR_TILED_PADDED, sides[i][0], sides[i][1], 0, 0,
                        testkit_orders(sides[i][0] * sides[i][1]), extras[e]);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(folded_grids), TESTKIT_EACH(tile_edges),      TESTKIT_EACH(odd_offsets),
    TESTKIT_EACH(past_2_32),    TESTKIT_TEST(occupancy_sweep), TESTKIT_TEST(padded_extra_edges),
};

TESTKIT_MAIN("lab07_transpose_hidden", tests, transpose_variants, TR_VARIANTS)
