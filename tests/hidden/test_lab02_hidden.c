/* lab02 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). A test per variant: an image taller than 65535 rows of 32x1 blocks
 * (the launcher folds the grid, the kernel must add row0), sides around the block's, a
 * buffer longer than the image whose places past the last pixel must stay as they were,
 * and an image past 2^32 pixels; and views inside out rejected. Points and visibility:
 * tests/hidden/lab02.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "mandelbrot.h"

/* v's counts of img in a buffer of `spare` places more, poisoned: every count within the
 * tolerance of the reference's, and the spare places untouched. */
static void check(int v, const struct mandelbrot_image *img, size_t spare)
{
    size_t n = img->width * img->height, bad, first;
    unsigned *got = malloc((n + spare) * sizeof *got), *want = malloc(n * sizeof *want);
    struct gpu_buf d = gpu_alloc((n + spare) * sizeof *got);
    testkit_case("%s, %zu x %zu, block %ux%u", mandelbrot_variants[v].name, img->width, img->height,
                 img->shape / 1000, img->shape % 1000);
    mandelbrot_cpu(want, img, (int)mandelbrot_facts[v].dbl);
    assert_status(mandelbrot(v, d, img), LAB_OK);
    gpu_sync();
    gpu_download(got, d, (n + spare) * sizeof *got);
    bad = mandelbrot_mismatches(got, want, n, img->maxiter, &first);
    if (bad)
        fail_msg("%s, %zu x %zu, block %ux%u: %zu pixels differ, the first at (%zu, %zu): "
                 "count %u, want %u",
                 mandelbrot_variants[v].name, img->width, img->height, img->shape / 1000,
                 img->shape % 1000, bad, first % img->width, first / img->width, got[first],
                 want[first]);
    for (size_t i = n; i < n + spare; i++)
        if (got[i] != 0xffffffffu)
            fail_msg("%s: counts[%zu] written, past the image's %zu pixels",
                     mandelbrot_variants[v].name, i, n);
    gpu_free(&d);
    free(got);
    free(want);
}

static void tall_grids(int v)
{
    /* A column through the set's middle, 70000 rows: 70000 blocks of 32x1 tall. */
    struct mandelbrot_image img = {1, 70000, -0.3, -1.2, 0.1, 1.1, 64, MANDELBROT_SHAPE(32, 1)};
    check(v, &img, 0);
}

static void block_edges(int v)
{
    static const size_t sides[] = {7, 8, 9, 31, 32, 33};
    for (size_t a = 0; a < sizeof sides / sizeof sides[0]; a++)
        for (size_t b = 0; b < sizeof sides / sizeof sides[0]; b++) {
            struct mandelbrot_image img = {sides[a], sides[b], -1.9, -1.1,
                                           0.5,      1.2,      100,  MANDELBROT_SHAPE(8, 8)};
            check(v, &img, 0);
            img.shape = MANDELBROT_SHAPE(32, 8);
            check(v, &img, 0);
        }
}

static void nothing_past_the_end(int v)
{
    struct mandelbrot_image img = {45, 19, -2.0, -1.0, 0.6, 1.1, 100, 0};
    check(v, &img, 1000);
}

/* Past 2^32 pixels, where an index computed in 32 bits (py * width + px without the cast to
 * size_t) wraps onto the first rows: an image of 65536 x 65537 pixels, 17.2 GB of counts,
 * zero but where the kernel writes. On a GPU every block runs (one without the memory skips,
 * which scores nothing); on the CPU backend only the blocks of the last row's first 8192
 * pixels (testkit_window: the default 32x8 blocks, 2048 to a row of blocks), on memory mapped
 * where touched. Those pixels must hold the reference's counts, which a one-row image gives:
 * its top edge at the last row's c (65536 dy is exact, so that c is the same however the
 * product rounds), its columns the same. The tiled kernels walk every tile whatever the
 * window: a GPU's alone. */
static void past_2_32(int v)
{
    enum { W = 65536, H = 65537, CHECKED = 8192, BLOCK = 32 * 8 };
    const size_t n = (size_t)W * H, last = (size_t)(H - 1) * W, row_blocks = W / 32;
    const size_t first_block = (size_t)(H - 1) / 8 * row_blocks;
    const size_t ranks[1][2] = {{first_block * BLOCK, (first_block + CHECKED / 32) * BLOCK}};
    const int dbl = (int)mandelbrot_facts[v].dbl;
    struct mandelbrot_image img = {W, H, -0.8, 0.1, 0.0, 0.3, 32, 0}, row = img;
    struct mandelbrot_frame f = mandelbrot_frame(&img);
    unsigned *got, *want;
    struct gpu_buf d, part;
    size_t bad, first;
#ifdef BACKEND_CUDA
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK || info.global_bytes < n * sizeof *got + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n", n * sizeof *got / 1e9 + 1);
        skip();
    }
#endif
    got = malloc(CHECKED * sizeof *got);
    want = malloc(W * sizeof *want);
    row.height = 1;
    row.y1 = dbl ? f.y1d - (double)(H - 1) * f.dyd : (double)(f.y1 - (float)(H - 1) * f.dy);
    row.y0 = row.y1 - 1.0;
    mandelbrot_cpu(want, &row, dbl);
    d = gpu_alloc_zeroed(n * sizeof *got);
    testkit_window(ranks, 1);
    testkit_case("%s, %d x %d", mandelbrot_variants[v].name, W, H);
    assert_status(mandelbrot(v, d, &img), LAB_OK);
    gpu_sync();
    testkit_window(NULL, 0);
    part = (struct gpu_buf){(unsigned *)d.ptr + last, CHECKED * sizeof *got};
    gpu_download(got, part, part.bytes);
    bad = mandelbrot_mismatches(got, want, CHECKED, img.maxiter, &first);
    if (bad)
        fail_msg("%s, %d x %d: %zu of the last row's first %d pixels differ, the first at "
                 "(%zu, %d): count %u, want %u%s",
                 mandelbrot_variants[v].name, W, H, bad, CHECKED, first, H - 1, got[first],
                 want[first], got[first] ? "" : " (never written: a 32-bit index wrapped?)");
    gpu_free(&d);
    free(got);
    free(want);
}

static void views_rejected(void)
{
    struct gpu_buf d = gpu_alloc(64 * sizeof(unsigned));
    static const double views[][4] = {
        {1.0, 0.0, -1.0, 1.0}, {0.0, 1.0, 1.0, -1.0}, {0.5, 0.0, 0.5, 1.0}, {0.0, 0.5, 1.0, 0.5}};
    for (int v = 0; v < MANDELBROT_VARIANTS; v++)
        for (size_t k = 0; k < sizeof views / sizeof views[0]; k++) {
            struct mandelbrot_image img = {8,           8,           views[k][0], views[k][1],
                                           views[k][2], views[k][3], 10,          0};
            testkit_case("%s, view %zu", mandelbrot_variants[v].name, k);
            assert_status(mandelbrot(v, d, &img), LAB_EINVAL);
        }
    gpu_free(&d);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(tall_grids),      TESTKIT_EACH(block_edges), TESTKIT_EACH(nothing_past_the_end),
#ifdef BACKEND_CUDA
    TESTKIT_EACH(past_2_32),
#else
    TESTKIT_EACH_EXCEPT(past_2_32, MB_PERSISTENT_TILES, MB_COMBINED),
#endif
    TESTKIT_GIVEN(views_rejected),
};

TESTKIT_MAIN("lab02_hidden", tests, mandelbrot_variants, MANDELBROT_VARIANTS)
