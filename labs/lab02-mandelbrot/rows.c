/* lab02's bench rows: the variants of mandelbrot.h, then the reference loop on one core and
 * on all of them (OpenMP), each image checked pixel for pixel against the reference's counts
 * (the double variants against the reference in double). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "host.h"

/* The one-core row draws every CPU_SAMPLE-th row of the image: a whole 4096 x 4096 frame at
 * 8192 steps takes minutes on one core, and rows spread over the image cost what the frame
 * costs on average. Its work is the useful steps of the rows it drew, so its rate is true.
 * The all-cores row draws every CORES_SAMPLE-th (the whole frame took 6 s on 16 cores, and
 * the bench draws it once already, as the reference). */
enum { CPU_SAMPLE = 64, CORES_SAMPLE = 8 };

const struct lab_row extra_rows[ROWS - MANDELBROT_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core (every 64th row)"},
    {"cpu (all cores)", LAB_ROW_CPU,
     "the same loop on every core (OpenMP), rows dealt out (every 8th)"},
};

struct job {
    struct mandelbrot_image img;
    size_t n;
    unsigned *got, *want, *want_double; /* want_double on first use */
    double useful;                      /* the steps of want, summed: the useful work */
    double useful_sample[2];            /* the same over the one-core and all-cores rows' */
    struct gpu_buf dcounts;
};

/* mandelbrot_cpu on every core, every `step`-th row: the same counts, rows one at a time to
 * whichever thread is free (the rows across the set cost the most, so equal shares would
 * wait for them). */
static void cpu_all_cores(unsigned *counts, const struct mandelbrot_image *img, int dbl, long step)
{
    long rows = (long)img->height;
#pragma omp parallel for schedule(dynamic, 1)
    for (long py = 0; py < rows; py += step)
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
    cpu_all_cores(j->want, &j->img, 0, 1); /* the reference's counts, on every core */
    for (size_t i = 0; i < s.n; i++) {
        j->useful += j->want[i];
        if (i / s.width % CPU_SAMPLE == 0)
            j->useful_sample[0] += j->want[i];
        if (i / s.width % CORES_SAMPLE == 0)
            j->useful_sample[1] += j->want[i];
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
        cpu_all_cores(j->got, &j->img, 0, CORES_SAMPLE);
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

/* The counts a row must match: the reference's in double for the double variants, drawn on
 * first use (NULL when there is no memory for them). */
static const unsigned *reference(struct job *j, int row)
{
    if (row >= MANDELBROT_VARIANTS || !mandelbrot_facts[row].dbl)
        return j->want;
    if (!j->want_double && (j->want_double = malloc(j->n * sizeof(unsigned))))
        cpu_all_cores(j->want_double, &j->img, 1, 1);
    return j->want_double;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    const unsigned *want = reference(j, row);
    size_t bad, first;
    int status;
    if (!want) {
        snprintf(why, why_size, "not enough memory to check it");
        return LAB_WRONG;
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
    size_t step = row == CPU ? CPU_SAMPLE : row == CPU_CORES ? CORES_SAMPLE : 1;
    size_t rows = (j->img.height + step - 1) / step;
    return (double)sizeof(unsigned) * rows * j->img.width;
}

/* Useful iterations: the reference's steps summed over the image, whatever a row did, so
 * steps skipped (interior tests, periodicity) count as speed (the double row's own steps
 * differ from float's at a few boundary pixels); the CPU rows' over the rows they draw. */
static double work(void *p, int row)
{
    struct job *j = p;
    return row == CPU ? j->useful_sample[0] : row == CPU_CORES ? j->useful_sample[1] : j->useful;
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
    const struct job *j = p;
    (void)row;
    for (size_t x = 0; x < j->img.width; x++)
        colour(j->got[y * j->img.width + x], j->img.maxiter, rgb + 3 * x);
}

const struct lab_job mandelbrot_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .work = work,
    .tune = tune,
    .image_size = image_size,
    .image_row = image_row,
};
