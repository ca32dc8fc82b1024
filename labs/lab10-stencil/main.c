/* lab10's command line (common/driver.h): the variants of stencil.h, then the CPU loops and,
 * on a GPU whose toolkit has NPP, NPP's Sobel (rows.c). One size, width x height: the heat
 * rows' grid, the Sobel rows' image, and for the line rows its width x height cells as one
 * line. run --image takes a picture (any PNG, read as gray) for the Sobel rows, --steps sets
 * the heat rows' steps, and --png writes the first checked variant's picture: a heat grid
 * before and after its steps, or a Sobel variant's edges beside their image (the first Sobel
 * variant's where --image gave one). */
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_read.h"
#include "png_write.h"
#include "host.h"

/* The most --steps takes: a million steps of the CPU backend's grid already take hours. */
enum { MAX_STEPS = 1000000 };

struct options opt = {.steps = HEAT_BENCH_STEPS};

static void read_image(struct cli *c, const char *name, const char *value)
{
    const char *why;
    if (!value || read_png_gray(value, HEAT_MAX_SIDE, &opt.image, &opt.width, &opt.height, &why))
        cli_fail(c, name, value, value ? why : "expected a PNG file");
    c->width = opt.width;
    c->height = opt.height;
}

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--image"))
        read_image(c, name, value);
    else if (!strcmp(name, "--steps"))
        opt.steps = (unsigned)cli_count(c, name, value, 1, MAX_STEPS);
    else
        return 0;
    return 1;
}

static const char usage[] =
    "  --image FILE   a PNG (read as 8-bit gray) for the Sobel rows, at its own size: it\n"
    "                 sets --width and --height (the other rows draw theirs at that size)\n"
    "  --steps N      the heat rows' steps, 1 to 1000000 (default 8)\n"
    "  (--png: for a heat variant its grid before and after the steps, for a Sobel variant\n"
    "  the edges beside the image they come from; --variant picks which)\n";

int main(int argc, char **argv)
{
    /* Not static: NPP's row is there only where the build has NPP. */
    struct lab_driver lab = {
        .name = "lab10",
        .input = {.dims = 2,
                  .max_side = HEAT_MAX_SIDE,
                  /* 256 MiB a grid, 512 MiB moved a step: ten times the H100's L2 */
                  .size = {.width = 8192, .height = 8192},
                  /* checked in seconds by the CPU backend */
                  .cpu_size = {.width = 512, .height = 384},
                  .min_n = 1,
                  .max_n = (size_t)1 << 30,
                  .elem_bytes = sizeof(int)},
        .rows = {stencil_variants, STENCIL_VARIANTS, extra_rows,
                 ROWS - STENCIL_VARIANTS - 1 + have_npp()},
        .job = &stencil_job,
        .cli = {.usage = usage,
                .option = option,
                .intro = npp_note,
                .report = npp_report,
                .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
