/* lab03's command line (common/driver.h): the variants of raytracer.h, then the CPU loop on
 * one core and on all of them (OpenMP). Its own options choose the scene, its spheres and lights and the image's size,
 * and write the image of the first variant that `run` checks as a PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "raytracer.h"

enum { CPU = RAYTRACER_VARIANTS, CPU_CORES };

/* The one-core row draws every CPU_SAMPLE-th row of the image: a 1920 x 1080 frame of 1000
 * spheres takes most of a minute on one core, and rows spread over the image cost what the
 * frame costs on average. Its work is the sphere tests of the rows it drew. */
enum { CPU_SAMPLE = 16 };

static const struct lab_row extras[] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core (every 16th row)"},
    {"cpu (all cores)", LAB_ROW_CPU, "the same loop on every core (OpenMP), rows dealt out"},
};

/* The handout's scene on a GPU (1000 spheres); on the CPU backend one it checks in
 * seconds. */
#ifdef BACKEND_CPU
#define DEFAULT_SPHERES 64
#else
#define DEFAULT_SPHERES 1000
#endif

/* The lab's options: what to draw, and where the image goes. nlights 0: the defaults. */
static struct {
    enum rt_kind kind;
    unsigned nspheres;
    struct rt_light lights[RT_MAX_LIGHTS];
    unsigned nlights;
} opt = {.kind = RT_DEMO, .nspheres = DEFAULT_SPHERES};

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

/* The rows the one-core row draws. */
static size_t sample_rows(const struct rt_scene *scene)
{
    return (scene->height + CPU_SAMPLE - 1) / CPU_SAMPLE;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->scene = raytracer_scene((unsigned)s.width, (unsigned)s.height, opt.nspheres);
    if (opt.nlights) {
        j->scene.nlights = opt.nlights;
        memcpy(j->scene.lights, opt.lights, sizeof opt.lights);
    }
    j->n = s.n;
    j->spheres = malloc((opt.nspheres ? opt.nspheres : 1) * sizeof *j->spheres);
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
    j->dspheres = gpu_alloc((opt.nspheres ? opt.nspheres : 1) * sizeof *j->spheres);
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

/* The sphere counts the bench's sweep draws the main frame with: 1 to the most, the
 * doublings between. */
static const unsigned sphere_counts[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, RT_MAX_SPHERES};

static void set_spheres(unsigned n)
{
    opt.nspheres = n;
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

/* After the main table: the rays a second of each row, a primary ray and a shadow ray per
 * light for every pixel (an upper bound, as the sphere tests are: a pixel that hits nothing
 * casts no shadow ray). */
static void rays_table(const struct bench *b, struct lab_size s, const double *ms,
                       const unsigned *tuned)
{
    struct rt_scene sc = raytracer_scene((unsigned)s.width, (unsigned)s.height, opt.nspheres);
    unsigned lights = opt.nlights ? opt.nlights : sc.nlights;
    (void)tuned;
    printf("\nrays a second on %s (%u spheres, %u lights):\n", b->gpu.name, opt.nspheres, lights);
    for (int r = 0; r <= CPU_CORES; r++) {
        double rows = r == CPU ? (double)sample_rows(&sc) : (double)sc.height;
        if (ms[r] > 0)
            printf("  %-24s %10.3g\n",
                   r < RAYTRACER_VARIANTS ? raytracer_variants[r].name : extras[r - CPU].name,
                   rows * sc.width * (1.0 + lights) / (ms[r] * 1e-3));
    }
}

static int option(struct cli *c, const char *name, const char *value)
{
    const char *v = value ? value : "";
    if (!strcmp(name, "--scene")) {
        if (!strcmp(v, "demo"))
            opt.kind = RT_DEMO;
        else if (!strcmp(v, "random"))
            opt.kind = RT_RANDOM;
        else
            cli_fail(c, name, value, "expected demo or random");
    } else if (!strcmp(name, "--spheres")) {
        opt.nspheres = (unsigned)cli_count(c, name, value, 0, RT_MAX_SPHERES);
    } else if (!strcmp(name, "--light")) {
        double w[4];
        if (opt.nlights == RT_MAX_LIGHTS)
            cli_fail(c, name, value, "at most 4 lights");
        cli_numbers(c, name, value, w, 4);
        if (w[3] < 0 || !isfinite((float)w[0]) || !isfinite((float)w[1]) ||
            !isfinite((float)w[2]) || !isfinite((float)w[3]))
            cli_fail(c, name, value, "expected X,Y,Z,POWER, finite as floats, POWER >= 0");
        opt.lights[opt.nlights++] =
            (struct rt_light){(float)w[0], (float)w[1], (float)w[2], (float)w[3]};
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab03",
        .dims = 2,
        .max_side = RT_MAX_SIDE,
        .size = {.width = 1920, .height = 1080},   /* a full-HD frame: 2 million primary rays */
        .cpu_size = {.width = 320, .height = 180}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = (size_t)1 << 32,
        .elem_bytes = sizeof(unsigned),
        .usage = "  --scene KIND   demo (a backdrop and spheres on a spiral, the default) or\n"
                 "                 random (spheres drawn from --seed)\n"
                 "  --spheres N    0 to 1000 spheres (default 1000 on a GPU, 64 on the CPU\n"
                 "                 backend; constant memory would hold 2048, the lab keeps\n"
                 "                 to 1000)\n"
                 "  --light X,Y,Z,POWER  a point light (up to 4; the first replaces the two\n"
                 "                 default ones)\n",
        .option = option,
        .variants = raytracer_variants,
        .nvariants = RAYTRACER_VARIANTS,
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
        .work_unit = "sphere tests",
        /* rt_hit before its square root in the SASS nvcc 13 makes for sm_90 with -fmad=false
         * (cuobjdump -sass on the H100): a shadow ray's test is its 17 FLOP, one instruction
         * each; a primary ray's is 15 (it starts at z = 0 along z: no subtraction and no
         * multiply by 1 in z). At the default two lights, two shadow tests to a primary one. */
        .fp32_per_work = (15.0 + 2 * 17.0) / 3,
        .sweep_name = "spheres",
        .sweep_values = sphere_counts,
        .nsweep = sizeof sphere_counts / sizeof sphere_counts[0],
        .sweep_set = set_spheres,
        .report = rays_table,
    };
    return lab_main(&lab, argc, argv);
}
