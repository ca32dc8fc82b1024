/* lab03's command line (common/driver.h): the variants of raytracer.h, then the CPU loop on
 * one core. Its own options choose the scene, its spheres and lights and the image's size,
 * and write the image of the first variant that `run` checks as a PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "raytracer.h"

enum { CPU = RAYTRACER_VARIANTS };

static const struct lab_row extras[] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core"},
};

/* The lab's options: what to draw, and where the image goes. nlights 0: the defaults. */
static struct {
    enum rt_kind kind;
    unsigned nspheres;
    struct rt_light lights[RT_MAX_LIGHTS];
    unsigned nlights;
    const char *png;
} opt = {.kind = RT_DEMO, .nspheres = 64};

struct job {
    struct rt_scene scene;
    size_t n;
    struct rt_sphere *spheres;
    unsigned *got, *want;
    struct gpu_buf dpixels, dspheres;
};

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
    raytracer_cpu(j->want, j->spheres, &j->scene);
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
        raytracer_cpu(j->got, j->spheres, &j->scene);
        return LAB_OK;
    }
    return raytracer((enum raytracer_variant)row, j->dpixels, j->dspheres, &j->scene);
}

/* Row y of the job's image in RGB, for write_png_rgb. */
static void image_row(const void *p, size_t y, unsigned char *rgb)
{
    const struct job *j = p;
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
    if (bad > raytracer_tolerance(j->n)) {
        snprintf(why, why_size, "%zu pixels differ, the first (%zu, %zu) is %06x, want %06x", bad,
                 first % j->scene.width, first / j->scene.width, j->got[first], j->want[first]);
        return LAB_WRONG;
    }
    if (opt.png) {
        status = write_png_rgb("lab03", opt.png, j->scene.width, j->scene.height, image_row, j)
                     ? LAB_WRONG
                     : LAB_OK;
        if (!status)
            printf("%s: %s's image\n", opt.png,
                   row < RAYTRACER_VARIANTS ? raytracer_variants[row].name : "cpu");
        opt.png = NULL; /* one image: the first row checked */
    }
    if (status)
        snprintf(why, why_size, "its image could not be written");
    return status;
}

/* The image written: all the memory a row must move besides the spheres it reads. */
static double bytes(void *p, int row)
{
    (void)row;
    return (double)sizeof(unsigned) * ((struct job *)p)->n;
}

/* The work: every ray against every sphere (an upper bound, the same for every row). */
static double work(void *p, int row)
{
    (void)row;
    return raytracer_sphere_tests(&((struct job *)p)->scene);
}

static int option(struct cli *c, const char *name, const char *value)
{
    const char *v = value ? value : "";
    if (!strcmp(name, "--png")) {
        if (!*v)
            cli_fail(c, name, value, "expected a file name");
        opt.png = v;
    } else if (!strcmp(name, "--scene")) {
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
    } else if (!strcmp(name, "--size")) {
        cli_size(c, name, value, RT_MAX_SIDE);
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
        .size = {.width = 1920, .height = 1080},   /* a full-HD frame: 2 million primary rays */
        .cpu_size = {.width = 320, .height = 180}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = (size_t)1 << 32,
        .elem_bytes = sizeof(unsigned),
        .usage = "  --size WxH     the image's columns and rows (--width and --height)\n"
                 "  --scene KIND   demo (a backdrop and spheres on a spiral, the default) or\n"
                 "                 random (spheres drawn from --seed)\n"
                 "  --spheres N    0 to 1000 spheres (default 64; constant memory would hold\n"
                 "                 2048, the lab keeps to 1000)\n"
                 "  --light X,Y,Z,POWER  a point light (up to 4; the first replaces the two\n"
                 "                 default ones)\n"
                 "  --png FILE     run: the first row checked writes its image there\n",
        .option = option,
        .variants = raytracer_variants,
        .nvariants = RAYTRACER_VARIANTS,
        .extras = extras,
        .nextras = sizeof extras / sizeof extras[0],
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .bytes = bytes,
        .work = work,
        .work_unit = "sphere tests",
        /* rt_hit before its square root as nvcc fuses it: 3 FADD for m, FMUL + 2 FFMA for
         * b, FMUL + 3 FFMA for c, an FFMA for b^2 - c; the SASS count on the H100 is to come. */
        .fp32_per_work = 11,
    };
    return lab_main(&lab, argc, argv);
}
