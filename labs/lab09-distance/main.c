/* lab09's command line (common/driver.h): the variants of distance.h, then the CPU reference
 * and, on a GPU whose toolkit has NPP, nppiDistanceTransformPBA (rows.c), and the frame
 * table after bench's (experiments.c). Its own options choose the mask and the cap D; run
 * --png draws the first checked row's field; bench's sweep varies D. */
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "host.h"

/* The handout's D on a GPU; on the CPU backend a frame it checks in seconds. */
#ifdef BACKEND_CPU
#define DEFAULT_DMAX 16
#else
#define DEFAULT_DMAX 64
#endif

struct options opt = {.mask = DISTANCE_BLOBS, .dmax = DEFAULT_DMAX};

/* The D that the sweep draws every variant at: the brute force grows as D^2. */
static const unsigned dmax_values[] = {4, 8, 16, 32, 64, 128, 256};

static void set_dmax(unsigned d)
{
    opt.dmax = d;
}

static int option(struct cli *c, const char *name, const char *value)
{
    const char *v = value ? value : "";
    if (!strcmp(name, "--mask")) {
        int k = 0;
        while (k < DISTANCE_MASKS && strcmp(v, distance_mask_names[k]))
            k++;
        if (k == DISTANCE_MASKS)
            cli_fail(c, name, value, "expected blobs, points, lines, black or white");
        opt.mask = (enum distance_mask)k;
    } else if (!strcmp(name, "--dmax")) {
        opt.dmax = (unsigned)cli_count(c, name, value, 1, DISTANCE_MAX_D);
    } else {
        return 0;
    }
    return 1;
}

static const char usage[] =
    "  --mask KIND    blobs (about 30 % white, the default), points (1 %), lines\n"
    "                 (thin strokes, about 5 %), black or white\n"
    "  --dmax D       the cap: a = min(D^2, squared distance), 1 to 32768 (default\n"
    "                 64 on a GPU, 16 on the CPU backend); bench --sweep varies it\n"
    "  (--png: the mask and the variant's field, side by side)\n";

int main(int argc, char **argv)
{
    /* Not static: NPP's row is there only where the build has NPP. */
    struct lab_driver lab = {
        .name = "lab09",
        .input = {.dims = 2,
                  .max_side = DISTANCE_MAX_SIDE,
                  /* 64 Mpixels, 320 MB moved at least; one the CPU backend checks in seconds */
                  .size = {.width = 8192, .height = 8192},
                  .cpu_size = {.width = 256, .height = 256},
                  .min_n = 1,
                  .max_n = (size_t)DISTANCE_MAX_SIDE * DISTANCE_MAX_SIDE,
                  /* the copy ceiling copies as many bytes as a frame must move */
                  .elem_bytes = 5},
        .rows = {distance_variants, DISTANCE_VARIANTS, extra_rows, 1 + have_npp()},
        .job = &distance_job,
        .measure = {.sweep_name = "D",
                    .sweep_values = dmax_values,
                    .nsweep = LAB_COUNT(dmax_values),
                    .sweep_set = set_dmax},
        .cli = {.usage = usage,
                .option = option,
                .intro = npp_note,
                .report = frame_table,
                .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
