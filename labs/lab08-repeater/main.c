/* lab08's command line (common/driver.h): the variants of repeater.h, then the rows they are
 * measured against (rows.c), and the seed's table after bench's (experiments.c). Its own
 * options set the repeater and the lattice; run --png draws a case-2 target; bench --sweep
 * sweeps R. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "host.h"

/* The repeater's side: the seed's 100 (also on the CPU backend, so that the image shows
 * whole copies); the sweep's values, the seed's four and its 100. */
struct options opt = {.rw = 100, .rh = 100};
static const unsigned sweep_sides[] = {16, 32, 64, 100, 128};

static void set_side(unsigned side)
{
    opt.rw = opt.rh = side;
}

/* Without --u and --v: a lattice scaled to the repeater, u = (0.6 rw, 0.1 rh) and
 * v = (-0.1 rw, 0.6 rh), where one to four copies cover a point (the handout's figure). */
void default_lattice(void)
{
    if (opt.uv_given)
        return;
    opt.ux = (int)fmax(1.0, 0.6 * opt.rw);
    opt.uy = (int)fmax(1.0, 0.1 * opt.rh);
    opt.vx = -(int)fmax(1.0, 0.1 * opt.rw);
    opt.vy = (int)fmax(1.0, 0.6 * opt.rh);
}

static void parse_pair(struct cli *c, const char *name, const char *value, int *x, int *y)
{
    double w[2];
    cli_numbers(c, name, value, w, 2);
    if (fabs(w[0]) > LATTICE_MAX_COMPONENT || fabs(w[1]) > LATTICE_MAX_COMPONENT ||
        w[0] != floor(w[0]) || w[1] != floor(w[1]))
        cli_fail(c, name, value, "expected X,Y, integers from -511 to 511");
    *x = (int)w[0];
    *y = (int)w[1];
    opt.uv_given = 1;
}

static void parse_repeater(struct cli *c, const char *name, const char *value)
{
    unsigned rw, rh;
    char end;
    int got = sscanf(value ? value : "", "%ux%u%c", &rw, &rh, &end);
    if (got == 1)
        rh = rw;
    if ((got != 1 && got != 2) || rw == 0 || rh == 0 || rw > 4096 || rh > 4096)
        cli_fail(c, name, value, "expected R or RWxRH, each 1 to 4096");
    opt.rw = rw;
    opt.rh = rh;
}

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--repeater"))
        parse_repeater(c, name, value);
    else if (!strcmp(name, "--u"))
        parse_pair(c, name, value, &opt.ux, &opt.uy);
    else if (!strcmp(name, "--v"))
        parse_pair(c, name, value, &opt.vx, &opt.vy);
    else
        return 0;
    return 1;
}

static const char usage[] =
    "  --repeater R     the repeater's side, or RWxRH (default 100, the seed's)\n"
    "  --u X,Y --v X,Y  case 2's repetition vectors (default u = (0.6 RW, 0.1 RH),\n"
    "                   v = (-0.1 RW, 0.6 RH): one to four copies a point)\n"
    "  bench --sweep    the repeater's side 16, 32, 64, 100 and 128\n";

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab08",
        .input = {.dims = 2,
                  .max_side = REPEATER_MAX_SIDE,
                  /* the seed's, 400 MB written; one the CPU backend checks in seconds */
                  .size = {.width = 10240, .height = 10240},
                  .cpu_size = {.width = 640, .height = 480},
                  .min_n = 1,
                  .max_n = (size_t)1 << 34,
                  /* the copy ceiling copies as many bytes as the target */
                  .elem_bytes = sizeof(float)},
        .rows = {repeater_variants, REPEATER_VARIANTS, LAB_LIST(extra_rows)},
        .job = &repeater_job,
        .measure = {.sweep_name = "repeater_side",
                    .sweep_values = sweep_sides,
                    .nsweep = LAB_COUNT(sweep_sides),
                    .sweep_set = set_side},
        .cli = {.usage = usage, .option = option, .report = seed_table, .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
