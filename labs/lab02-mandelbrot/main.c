/* lab02's command line (common/driver.h): its rows (rows.c) are the variants of mandelbrot.h,
 * then the CPU on one core and on all of them (OpenMP). Its own options choose the view and
 * the maximum count; `run --png` writes the image of the first variant it checks. */
#include <math.h>
#include <string.h>
#include "cli.h"
#include "png_write.h"
#include "host.h"

/* The handout's measurement on a GPU (4096 x 4096, 8192 steps); on the CPU backend a count
 * that its checks finish in seconds. */
#ifdef BACKEND_CPU
#define DEFAULT_MAXITER 1024
#else
#define DEFAULT_MAXITER 8192
#endif

/* The whole set, at the handout's count. */
struct options opt = {{-2.5, -1.25, 1.0, 1.25}, DEFAULT_MAXITER};

/* The block shapes bench tries for per_pixel, as MANDELBROT_SHAPE numbers. */
static const unsigned shapes[] = {
    MANDELBROT_SHAPE(32, 1), MANDELBROT_SHAPE(8, 8),   MANDELBROT_SHAPE(16, 16),
    MANDELBROT_SHAPE(32, 8), MANDELBROT_SHAPE(32, 32),
};

/* --help's lines for the options below. */
static const char usage[] =
    "  --view X0,Y0,X1,Y1  the plane's rectangle: real X0..X1, imaginary Y0..Y1\n"
    "                 (default -2.5,-1.25,1,1.25: the whole set)\n"
    "  --maxiter N    the steps after which a point counts as inside (default "
    "8192 on a GPU, 1024 on the CPU backend)\n"
    "  block shapes (bench, per_pixel): width * 1000 + height, 32008 = 32x8\n";

/* --view and --maxiter, into opt. */
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
        .input = {.dims = 2,
                  .max_side = MANDELBROT_MAX_SIDE,
                  /* 16.8 million orbits, up to 8192 steps; on the CPU backend a frame
                   * checked in seconds */
                  .size = {.width = 4096, .height = 4096},
                  .cpu_size = {.width = 640, .height = 360},
                  .min_n = 1,
                  .max_n = (size_t)1 << 32,
                  .elem_bytes = sizeof(unsigned)},
        .rows = {mandelbrot_variants, MANDELBROT_VARIANTS, LAB_LIST(extra_rows)},
        .job = &mandelbrot_job,
        .measure = {.work_unit = "iterations",
                    /* One step of escape_count in the SASS nvcc 13 makes for sm_90 with
                     * -fmad=false (cuobjdump -sass on the H100): FADD x5 (x + x, x^2 - y^2,
                     * + cx, + cy, x^2 + y^2) and FMUL x3 (2x * y, x^2, y^2). */
                    .fp32_per_work = 8,
                    .tunings = shapes,
                    .ntunings = LAB_COUNT(shapes),
                    .tuning = "block"},
        .cli = {.usage = usage, .option = option, .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
