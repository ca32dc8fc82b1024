/* lab02's command line (common/driver.h): the variants of mandelbrot.h, then the CPU on one
 * core and on all of them (OpenMP). Its own options choose the view and the maximum count,
 * and write the image of the first variant that `run` checks as a PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "mandelbrot.h"

enum { CPU = MANDELBROT_VARIANTS, CPU_CORES };

/* The one-core row draws every CPU_SAMPLE-th row of the image: a whole 4096 x 4096 frame at
 * 8192 steps takes minutes on one core, and rows spread over the image cost what the frame
 * costs on average. Its work is the useful steps of the rows it drew, so its rate is true. */
enum { CPU_SAMPLE = 64 };

static const struct lab_row extras[] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core (every 64th row)"},
    {"cpu (all cores)", LAB_ROW_CPU, "the same loop on every core (OpenMP), rows dealt out"},
};

/* The block shapes bench tries for per_pixel, as MANDELBROT_SHAPE numbers. */
static const unsigned shapes[] = {
    MANDELBROT_SHAPE(32, 1), MANDELBROT_SHAPE(8, 8),   MANDELBROT_SHAPE(16, 16),
    MANDELBROT_SHAPE(32, 8), MANDELBROT_SHAPE(32, 32),
};

/* The handout's measurement on a GPU (4096 x 4096, 8192 steps); on the CPU backend a count
 * that its checks finish in seconds. */
#ifdef BACKEND_CPU
#define DEFAULT_MAXITER 1024
#else
#define DEFAULT_MAXITER 8192
#endif

/* The lab's options: what to draw. */
static struct {
    double view[4]; /* x0, y0, x1, y1 */
    unsigned maxiter;
} opt = {{-2.5, -1.25, 1.0, 1.25}, DEFAULT_MAXITER};

struct job {
    struct mandelbrot_image img;
    size_t n;
    unsigned *got, *want, *want_double; /* want_double on first use */
    double useful;                      /* the steps of want, summed: the useful work */
    double useful_sample;               /* the same over the one-core row's sample of rows */
    struct gpu_buf dcounts;
};

/* mandelbrot_cpu on every core: the same counts, rows one at a time to whichever thread is
 * free (the rows across the set cost the most, so equal shares would wait for them). */
static void cpu_all_cores(unsigned *counts, const struct mandelbrot_image *img, int dbl)
{
    long rows = (long)img->height;
#pragma omp parallel for schedule(dynamic, 1)
    for (long py = 0; py < rows; py++)
        mandelbrot_cpu_rows(counts, img, dbl, (size_t)py, 1);
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    (void)seed; /* the inputs are the view's points: nothing random */
    if (!j)
        return NULL;
    j->img = (struct mandelbrot_image){s.width,     s.height,    opt.view[0], opt.view[1],
                                       opt.view[2], opt.view[3], opt.maxiter, 0};
    j->n = s.n;
    j->got = malloc(s.n * sizeof(unsigned));
    j->want = malloc(s.n * sizeof(unsigned));
    if (!j->got || !j->want) {
        free(j->got);
        free(j->want);
        free(j);
        return NULL;
    }
    cpu_all_cores(j->want, &j->img, 0); /* the reference's counts, on every core */
    for (size_t i = 0; i < s.n; i++) {
        j->useful += j->want[i];
        if (i / s.width % CPU_SAMPLE == 0)
            j->useful_sample += j->want[i];
    }
    j->dcounts = gpu_alloc(s.n * sizeof(unsigned));
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->dcounts);
    free(j->got);
    free(j->want);
    free(j->want_double);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        for (size_t py = 0; py < j->img.height; py += CPU_SAMPLE)
            mandelbrot_cpu_rows(j->got, &j->img, 0, py, 1);
        return LAB_OK;
    }
    if (row == CPU_CORES) {
        cpu_all_cores(j->got, &j->img, 0);
        return LAB_OK;
    }
    return mandelbrot((enum mandelbrot_variant)row, j->dcounts, &j->img);
}

/* The tuning is per_pixel's block shape; the other rows run at the default shape (the
 * persistent kernel at its own 1D blocks) and take only that number. */
static int tune(void *p, int row, unsigned shape)
{
    struct job *j = p;
    if (row != MB_PER_PIXEL && shape != MANDELBROT_DEFAULT_SHAPE)
        return 0;
    j->img.shape = shape;
    return 1;
}

/* The colour of a count: black inside the set, outside a ramp from dark blue through
 * orange to pale yellow, on the square root of the count so that the low counts (most of
 * the picture) spread over the palette. */
static void colour(unsigned count, unsigned maxiter, unsigned char *rgb)
{
    double t = sqrt((double)count / maxiter), u = 1.0 - t;
    if (count >= maxiter) {
        rgb[0] = rgb[1] = rgb[2] = 0;
        return;
    }
    rgb[0] = (unsigned char)(255.0 * fmin(1.0, 9.0 * u * t * t * t + t * t));
    rgb[1] = (unsigned char)(255.0 * fmin(1.0, 15.0 * u * u * t * t + t * t * t));
    rgb[2] = (unsigned char)(255.0 * fmin(1.0, 8.5 * u * u * u * t + 0.25 * t));
}

/* The image of the counts a row left, for run --png. */
static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    (void)row;
    *width = j->img.width;
    *height = j->img.height;
    return 1;
}
static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    (void)row;
    const struct job *j = p;
    for (size_t x = 0; x < j->img.width; x++)
        colour(j->got[y * j->img.width + x], j->img.maxiter, rgb + 3 * x);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    const unsigned *want = j->want;
    size_t bad, first;
    int status;
    if (row < MANDELBROT_VARIANTS && mandelbrot_facts[row].dbl) {
        if (!j->want_double && (j->want_double = malloc(j->n * sizeof(unsigned))))
            cpu_all_cores(j->want_double, &j->img, 1);
        if (!(want = j->want_double)) {
            snprintf(why, why_size, "not enough memory to check it");
            return LAB_WRONG;
        }
    }
    gpu_poison(j->dcounts);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->got, j->dcounts, j->n * sizeof(unsigned));
    bad = mandelbrot_mismatches(j->got, want, j->n, j->img.maxiter, &first);
    if (bad) {
        snprintf(why, why_size, "%zu pixels differ, the first (%zu, %zu) with count %u, want %u",
                 bad, first % j->img.width, first / j->img.width, j->got[first], want[first]);
        return LAB_WRONG;
    }
    return LAB_OK;
}

/* The image's counts written: all the memory a row must move, next to nothing. */
static double bytes(void *p, int row)
{
    struct job *j = p;
    size_t rows = row == CPU ? (j->img.height + CPU_SAMPLE - 1) / CPU_SAMPLE : j->img.height;
    return (double)sizeof(unsigned) * rows * j->img.width;
}

/* Useful iterations: the reference's steps summed over the image, whatever a row did, so
 * steps skipped (interior tests, periodicity) count as speed (the double row's own steps
 * differ from float's at a few boundary pixels); the one-core row's over its rows. */
static double work(void *p, int row)
{
    struct job *j = p;
    return row == CPU ? j->useful_sample : j->useful;
}

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--view")) {
        double w[4];
        cli_numbers(c, name, value, w, 4);
        if (!(w[0] < w[2]) || !(w[1] < w[3]) || !isfinite(w[2] - w[0]) || !isfinite(w[3] - w[1]))
            cli_fail(c, name, value, "expected x0 < x1 and y0 < y1");
        memcpy(opt.view, w, sizeof w);
    } else if (!strcmp(name, "--maxiter")) {
        opt.maxiter = (unsigned)cli_count(c, name, value, 1, 0x7fffffffu);
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab02",
        .dims = 2,
        .max_side = MANDELBROT_MAX_SIDE,
        .size = {.width = 4096, .height = 4096},   /* 16.8 million orbits, up to 8192 steps */
        .cpu_size = {.width = 640, .height = 360}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = (size_t)1 << 32,
        .elem_bytes = sizeof(unsigned),
        .usage = "  --view X0,Y0,X1,Y1  the plane's rectangle: real X0..X1, imaginary Y0..Y1\n"
                 "                 (default -2.5,-1.25,1,1.25: the whole set)\n"
                 "  --maxiter N    the steps after which a point counts as inside (default "
                 "8192 on a GPU, 1024 on the CPU backend)\n"
                 "  block shapes (bench, per_pixel): width * 1000 + height, 32008 = 32x8\n",
        .option = option,
        .variants = mandelbrot_variants,
        .nvariants = MANDELBROT_VARIANTS,
        .extras = extras,
        .nextras = sizeof extras / sizeof extras[0],
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .image_size = image_size,
        .image_row = image_row,
        .write_png = write_png_rgb,
        .bytes = bytes,
        .work = work,
        .work_unit = "iterations",
        /* One step of escape_count in the SASS nvcc 13 makes for sm_90 with -fmad=false
         * (cuobjdump -sass on the H100): FADD x5 (x + x, x^2 - y^2, + cx, + cy, x^2 + y^2)
         * and FMUL x3 (2x * y, x^2, y^2). */
        .fp32_per_work = 8,
        .tunings = shapes,
        .ntunings = sizeof shapes / sizeof shapes[0],
        .tuning = "block",
        .tune = tune,
    };
    return lab_main(&lab, argc, argv);
}
