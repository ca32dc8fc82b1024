/* lab02 tests: every variant against the CPU reference (float, or double for the double
 * variant) on sizes around the block shapes and views across the set's boundary, a deep
 * zoom included, with the counts poisoned before each run. Exact on every backend: the
 * kernels round every step as the reference does (on a GPU they build with -fmad=false).
 * Then block shapes, the tiled kernels' counter across launches, and bad arguments
 * rejected. */
#include <math.h>
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

/* A few hundred steps: enough for the interior to cost many times the outside, and for the
 * boundary's counts to spread over the whole range, while the file runs in seconds. */
enum { MAXITER = 200 };

struct view {
    const char *name;
    double x0, y0, x1, y1;
};

/* None symmetric about an axis, so a kernel that mirrors or swaps x and y shows. */
static const struct view views[] = {
    {"whole set", -2.1, -0.9, 0.6, 1.3},        /* cardioid, bulb, outside */
    {"seahorse valley", -0.8, 0.05, -0.7, 0.2}, /* across the boundary */
    /* 2e-6 wide: in float, neighbouring pixels share a c; in double they do not. */
    {"deep zoom", -0.7436449, 0.1318249, -0.7436429, 0.1318264},
};

static const size_t sizes[][2] = {{1, 1}, {33, 17}, {4097, 3}, {1920, 1080}};

static struct mandelbrot_image image(size_t width, size_t height, const struct view *w)
{
    return (struct mandelbrot_image){width, height, w->x0, w->y0, w->x1, w->y1, MAXITER, 0};
}

/* v's counts of img, checked against the reference; `what` names the case. */
static void check(int v, const struct mandelbrot_image *img, const char *what)
{
    size_t n = img->width * img->height, bad, first;
    unsigned *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
    struct gpu_buf d = gpu_alloc(n * sizeof *got);
    mandelbrot_cpu(want, img, (int)mandelbrot_facts[v].dbl);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, %s, order %s", mandelbrot_variants[v].name, img->width,
                     img->height, what, testkit_order_name(o));
        gpu_poison(d);
        assert_status(mandelbrot(v, d, img), LAB_OK);
        gpu_sync();
        gpu_download(got, d, n * sizeof *got);
        bad = mandelbrot_mismatches(got, want, n, img->maxiter, &first);
        if (bad)
            fail_msg("%s, %zu x %zu, %s, order %s: %zu pixels differ, the first at (%zu, "
                     "%zu): count %u, want %u",
                     mandelbrot_variants[v].name, img->width, img->height, what,
                     testkit_order_name(o), bad, first % img->width, first / img->width, got[first],
                     want[first]);
    }
    gpu_free(&d);
    free(got);
    free(want);
}

static void matches_cpu(int v)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof views / sizeof views[0]; k++) {
            struct mandelbrot_image img = image(sizes[s][0], sizes[s][1], &views[k]);
            if (sizes[s][0] * sizes[s][1] > testkit_max_size() || (sizes[s][0] >= 1920 && k > 0))
                continue; /* the large frame once: it is there for the index arithmetic */
            check(v, &img, views[k].name);
        }
}

/* Every shape a block can have in the bench, and lopsided ones, over partial blocks. */
static void block_shapes(int v)
{
    static const unsigned shapes[] = {
        MANDELBROT_SHAPE(32, 1), MANDELBROT_SHAPE(8, 8),    MANDELBROT_SHAPE(16, 16),
        MANDELBROT_SHAPE(32, 8), MANDELBROT_SHAPE(32, 32),  MANDELBROT_SHAPE(1, 1),
        MANDELBROT_SHAPE(7, 5),  MANDELBROT_SHAPE(1024, 1), MANDELBROT_SHAPE(1, 64),
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        struct mandelbrot_image img = image(45, 37, &views[0]);
        char what[64];
        img.shape = shapes[s];
        snprintf(what, sizeof what, "block %ux%u", shapes[s] / 1000, shapes[s] % 1000);
        check(v, &img, what);
    }
}

/* The reference itself, on points whose counts follow by hand: c = -2, -1 and 0 never
 * escape (|z| stays at 2, cycles through 0 and -1, stays 0); c = 1 goes 1, 2, 5: three
 * steps, |z|^2 = 25 > 4 only after the third. */
static void reference_cpu(void)
{
    struct mandelbrot_image img = {4, 1, -2.0, -1.0, 2.0, 0.0, 50, 0};
    const unsigned want[4] = {50, 50, 50, 3};
    unsigned got[4];
    for (int dbl = 0; dbl < 2; dbl++) {
        mandelbrot_cpu(got, &img, dbl);
        assert_memory_equal(got, want, sizeof want);
    }
}

/* The tiled kernels' counter is left past the last tile by a launch: the next launch
 * (smaller and larger, of either kernel) must start from zero again. */
static void counter_reset(void)
{
    static const size_t sides[][2] = {{64, 32}, {20, 8}, {100, 50}};
    for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++) {
        struct mandelbrot_image img = image(sides[s][0], sides[s][1], &views[0]);
        check(MB_PERSISTENT_TILES, &img, "after another launch");
        check(MB_COMBINED, &img, "after another launch");
    }
}

static void args_rejected(void)
{
    struct gpu_buf d = gpu_alloc(100 * sizeof(unsigned)), none = {NULL, 0};
    const struct mandelbrot_image ok = image(10, 10, &views[0]);
    struct mandelbrot_image bad[13];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        bad[k] = ok;
    bad[0].width = 11; /* 110 counts in a buffer of 100 */
    bad[1].width = 0;
    bad[2].height = 0;
    bad[3].x0 = bad[3].x1; /* x0 >= x1 */
    bad[4].y1 = -2.0;      /* y0 >= y1 */
    bad[5].x0 = NAN;
    bad[6].y1 = INFINITY;
    bad[7].maxiter = 0;
    bad[8].shape = MANDELBROT_SHAPE(33, 32); /* 1056 threads */
    bad[9].shape = MANDELBROT_SHAPE(0, 8);
    bad[10].shape = MANDELBROT_SHAPE(8, 0);
    bad[11].width = (size_t)MANDELBROT_MAX_SIDE + 1;
    bad[11].height = 0;
    bad[12].x0 = -1e308;
    bad[12].x1 = 1e308; /* x1 - x0 is not finite */
    for (int v = 0; v < MANDELBROT_VARIANTS; v++) {
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            testkit_case("%s, bad image %zu", mandelbrot_variants[v].name, k);
            assert_status(mandelbrot(v, d, &bad[k]), LAB_EINVAL);
        }
        assert_status(mandelbrot(v, d, NULL), LAB_EINVAL);
        assert_status(mandelbrot(v, none, &ok), LAB_EINVAL);
        assert_status(mandelbrot(v, d, &ok), LAB_OK);
    }
    assert_status(mandelbrot(MANDELBROT_VARIANTS, d, &ok), LAB_EINVAL);
    gpu_sync();
    gpu_free(&d);
}

#ifdef BACKEND_CPU
/* A shortcut that is taken: the CPU backend counts the basic blocks that kernel threads
 * execute (testkit_work; no clock can tell here). On the whole set at maxiter 2000, where
 * the interior costs nearly all the steps, a variant that short-cuts must be right and do at
 * most `most` of per_pixel's work; a copy of per_pixel passes every other test. Measured
 * with the solutions: interior_tests about 0.11, periodicity about 0.29, combined about
 * 0.09 (its bound fails a combined kernel without the interior tests). */
static uint64_t work_of(int v, const struct mandelbrot_image *img)
{
    size_t n = img->width * img->height;
    struct gpu_buf d = gpu_alloc(n * sizeof(unsigned));
    uint64_t work;
    testkit_work_begin();
    assert_status(mandelbrot(v, d, img), LAB_OK);
    gpu_sync();
    work = testkit_work();
    gpu_free(&d);
    return work;
}

static void saves_work(int v, double most)
{
    struct mandelbrot_image img = image(96, 64, &views[0]);
    uint64_t plain, shortcut;
    img.maxiter = 2000;
    check(v, &img, "maxiter 2000");
    plain = work_of(MB_PER_PIXEL, &img);
    shortcut = work_of(v, &img);
    printf("work: %s %.3f of per_pixel's\n", mandelbrot_variants[v].name,
           (double)shortcut / (double)plain);
    if ((double)shortcut > most * (double)plain)
        fail_msg("%s: %llu basic blocks, per_pixel %llu: more than %.0f %% of its work, the "
                 "shortcut is not taken",
                 mandelbrot_variants[v].name, (unsigned long long)shortcut,
                 (unsigned long long)plain, 100.0 * most);
}

static void interior_saves_work(void)
{
    saves_work(MB_INTERIOR_TESTS, 0.5);
}

static void periodicity_saves_work(void)
{
    saves_work(MB_PERIODICITY, 0.7);
}

static void combined_saves_work(void)
{
    saves_work(MB_COMBINED, 0.2);
}
#endif

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),       TESTKIT_GIVEN(args_rejected),
    TESTKIT_VARIANTS(matches_cpu),     TESTKIT_EACH(block_shapes),
    TESTKIT_TEST(counter_reset),
#ifdef BACKEND_CPU
    TESTKIT_TEST(interior_saves_work), TESTKIT_TEST(periodicity_saves_work),
    TESTKIT_TEST(combined_saves_work),
#endif
};

TESTKIT_MAIN("lab02_mandelbrot", tests, mandelbrot_variants, MANDELBROT_VARIANTS)
