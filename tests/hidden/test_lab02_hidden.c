/* lab02 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). A test per variant: an image taller than 65535 rows of 32x1 blocks
 * (the launcher folds the grid, the kernel must add row0), sides around the block's, and a
 * buffer longer than the image whose places past the last pixel must stay as they were;
 * and views inside out rejected. Points and visibility: tests/hidden/lab02.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
    TESTKIT_EACH(tall_grids),
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(nothing_past_the_end),
    TESTKIT_GIVEN(views_rejected),
};

TESTKIT_MAIN("lab02_hidden", tests, mandelbrot_variants, MANDELBROT_VARIANTS)
