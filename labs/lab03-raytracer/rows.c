/* lab03's bench rows: the variants of raytracer.h, then the reference loop on one core and on
 * all of them (OpenMP), each frame checked pixel for pixel against the reference's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

/* The one-core row draws every CPU_SAMPLE-th row of the image: a 1920 x 1080 frame of 1000
 * spheres takes most of a minute on one core, and rows spread over the image cost what the
 * frame costs on average. Its work is the sphere tests of the rows it drew. */
enum { CPU_SAMPLE = 16 };

const struct lab_row extra_rows[ROWS - RAYTRACER_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core (every 16th row)"},
    {"cpu (all cores)", LAB_ROW_CPU, "the same loop on every core (OpenMP), rows dealt out"},
};

struct job {
    struct rt_scene scene;
    size_t n;
    struct rt_sphere *spheres;
    unsigned *got, *want;
    struct gpu_buf dpixels, dspheres;
};

/* raytracer_cpu on every core: rows one at a time to whichever thread is free. */
static void cpu_all_cores(unsigned *pixels, const struct rt_sphere *spheres,
                          const struct rt_scene *scene)
{
    long rows = (long)scene->height;
#pragma omp parallel for schedule(dynamic, 1)
    for (long py = 0; py < rows; py++)
        raytracer_cpu_rows(pixels, spheres, scene, (size_t)py, 1);
}

size_t sample_rows(const struct rt_scene *scene)
{
    return (scene->height + CPU_SAMPLE - 1) / CPU_SAMPLE;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    /* room for one sphere at least, so that malloc(0)'s NULL is not taken for no memory */
    size_t sphere_bytes = (opt.nspheres ? opt.nspheres : 1) * sizeof *j->spheres;
    if (!j)
        return NULL;
    j->scene = raytracer_scene((unsigned)s.width, (unsigned)s.height, opt.nspheres);
    if (opt.nlights) {
        j->scene.nlights = opt.nlights;
        memcpy(j->scene.lights, opt.lights, sizeof opt.lights);
    }
    j->n = s.n;
    j->spheres = malloc(sphere_bytes);
    j->got = malloc(s.n * sizeof(unsigned));
    j->want = malloc(s.n * sizeof(unsigned));
    if (!j->spheres || !j->got || !j->want) {
        free(j->spheres);
        free(j->got);
        free(j->want);
        free(j);
        return NULL;
    }
    raytracer_spheres(j->spheres, opt.nspheres, opt.kind, seed);
    cpu_all_cores(j->want, j->spheres, &j->scene); /* the reference's image, on every core */
    j->dpixels = gpu_alloc(s.n * sizeof(unsigned));
    j->dspheres = gpu_alloc(sphere_bytes);
    gpu_upload(j->dspheres, j->spheres, opt.nspheres * sizeof *j->spheres);
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->dpixels);
    gpu_free(&j->dspheres);
    free(j->spheres);
    free(j->got);
    free(j->want);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        for (size_t py = 0; py < j->scene.height; py += CPU_SAMPLE)
            raytracer_cpu_rows(j->got, j->spheres, &j->scene, py, 1);
        return LAB_OK;
    }
    if (row == CPU_CORES) {
        cpu_all_cores(j->got, j->spheres, &j->scene);
        return LAB_OK;
    }
    return raytracer((enum raytracer_variant)row, j->dpixels, j->dspheres, &j->scene);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t bad, first;
    int status;
    gpu_poison(j->dpixels);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->got, j->dpixels, j->n * sizeof(unsigned));
    bad = raytracer_mismatches(j->got, j->want, j->n, &first);
    if (bad) {
        snprintf(why, why_size, "%zu pixels differ, the first (%zu, %zu) is %06x, want %06x", bad,
                 first % j->scene.width, first / j->scene.width, j->got[first], j->want[first]);
        return LAB_WRONG;
    }
    return LAB_OK;
}

/* The image written: all the memory a row must move besides the spheres it reads. */
static double bytes(void *p, int row)
{
    struct job *j = p;
    return (double)sizeof(unsigned) * (row == CPU ? sample_rows(&j->scene) : j->scene.height) *
           j->scene.width;
}

/* The work: every ray against every sphere (an upper bound, the same for every row; the
 * one-core row's over its rows). */
static double work(void *p, int row)
{
    struct job *j = p;
    double tests = raytracer_sphere_tests(&j->scene);
    return row == CPU ? tests * sample_rows(&j->scene) / j->scene.height : tests;
}

/* The frame a row drew, for run --png. */
static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    (void)row;
    *width = j->scene.width;
    *height = j->scene.height;
    return 1;
}

/* A row of the frame in RGB: its pixels are 0x00BBGGRR, red in the low byte. */
static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    const struct job *j = p;
    (void)row;
    for (size_t x = 0; x < j->scene.width; x++) {
        unsigned c = j->got[y * j->scene.width + x];
        rgb[3 * x] = (unsigned char)(c & 0xff);
        rgb[3 * x + 1] = (unsigned char)(c >> 8 & 0xff);
        rgb[3 * x + 2] = (unsigned char)(c >> 16 & 0xff);
    }
}

const struct lab_job raytracer_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .work = work,
    .image_size = image_size,
    .image_row = image_row,
};
