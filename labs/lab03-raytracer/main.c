/* lab03's command line (common/driver.h): its rows (rows.c) are the variants of raytracer.h,
 * then the CPU loop on one core and on all of them (OpenMP), and after bench's table come the
 * rays a second (experiments.c). Its own options choose the scene, its spheres and its
 * lights; `run --png` writes the image of the first variant it checks. */
#include <math.h>
#include <string.h>
#include "cli.h"
#include "png_write.h"
#include "host.h"

/* The handout's scene on a GPU (1000 spheres); on the CPU backend one it checks in
 * seconds. */
#ifdef BACKEND_CPU
#define DEFAULT_SPHERES 64
#else
#define DEFAULT_SPHERES 1000
#endif

/* The demo scene, lit by its own lights. */
struct options opt = {.kind = RT_DEMO, .nspheres = DEFAULT_SPHERES};

/* The sphere counts the bench's sweep draws the main frame with: 1 to the most, the
 * doublings between. */
static const unsigned sphere_counts[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, RT_MAX_SPHERES};

/* The sweep's step: the spheres of the jobs set up after it. */
static void set_spheres(unsigned n)
{
    opt.nspheres = n;
}

/* --help's lines for the options below. */
static const char usage[] =
    "  --scene KIND   demo (a backdrop and spheres on a spiral, the default) or\n"
    "                 random (spheres drawn from --seed)\n"
    "  --spheres N    0 to 1000 spheres (default 1000 on a GPU, 64 on the CPU\n"
    "                 backend; constant memory would hold 2048, the lab keeps\n"
    "                 to 1000)\n"
    "  --light X,Y,Z,POWER  a point light (up to 4; the first replaces the two\n"
    "                 default ones)\n";

/* --light X,Y,Z,POWER: one light more, the first of them replacing the scene's own. */
static void add_light(struct cli *c, const char *name, const char *value)
{
    double w[4];
    if (opt.nlights == RT_MAX_LIGHTS)
        cli_fail(c, name, value, "at most 4 lights");
    cli_numbers(c, name, value, w, 4);
    if (w[3] < 0 || !isfinite((float)w[0]) || !isfinite((float)w[1]) || !isfinite((float)w[2]) ||
        !isfinite((float)w[3]))
        cli_fail(c, name, value, "expected X,Y,Z,POWER, finite as floats, POWER >= 0");
    opt.lights[opt.nlights++] =
        (struct rt_light){(float)w[0], (float)w[1], (float)w[2], (float)w[3]};
}

/* --scene, --spheres and --light, into opt. */
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
        add_light(c, name, value);
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab03",
        .input = {.dims = 2,
                  .max_side = RT_MAX_SIDE,
                  /* a full-HD frame: 2 million primary rays; on the CPU backend a frame
                   * checked in seconds */
                  .size = {.width = 1920, .height = 1080},
                  .cpu_size = {.width = 320, .height = 180},
                  .min_n = 1,
                  .max_n = (size_t)1 << 32,
                  .elem_bytes = sizeof(unsigned)},
        .rows = {raytracer_variants, RAYTRACER_VARIANTS, LAB_LIST(extra_rows)},
        .job = &raytracer_job,
        .measure = {.work_unit = "sphere tests",
                    /* rt_hit before its square root in the SASS nvcc 13 makes for sm_90 with
                     * -fmad=false (cuobjdump -sass on the H100): a shadow ray's test is its 17
                     * FLOP, one instruction each; a primary ray's is 15 (it starts at z = 0
                     * along z: no subtraction and no multiply by 1 in z). At the default two
                     * lights, two shadow tests to a primary one. */
                    .fp32_per_work = (15.0 + 2 * 17.0) / 3,
                    .sweep_name = "spheres",
                    .sweep_values = sphere_counts,
                    .nsweep = LAB_COUNT(sphere_counts),
                    .sweep_set = set_spheres},
        .cli = {.usage = usage, .option = option, .report = rays_table, .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
