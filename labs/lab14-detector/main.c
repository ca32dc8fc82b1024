/* lab14's command line (common/driver.h): its rows (rows.c) are the variants of detector.h,
 * then the CPU reference on one core and on all of them (OpenMP). --stages sets the cascade's
 * length, --image a picture as the frame instead of the drawn one; `run --survival` prints
 * the survival curve (and with --survival-tsv writes it for plots/survival.gp), `run --png`
 * the stages each window ran as a heat map. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "png_read.h"
#include "png_write.h"
#include "host.h"

/* A few thousand weak classifiers, as the seed's detector has. */
unsigned opt_stages = 2048;
const char *opt_survival_tsv;
struct picture opt_picture;

static const char usage[] =
    "  --stages N     the cascade's stages, 1 to 65535 (default 2048)\n"
    "  --image FILE   a PNG (read as 8-bit gray) as the frame, instead of noise with objects:\n"
    "                 at its own size (it sets --width and --height), or resampled (bilinear)\n"
    "                 to the --size, --width or --height given after it\n"
    "  --survival-tsv FILE  with --survival: the windows alive after each stage, as a TSV\n";

/* The picture sets the run's size, so that a --size after it is the one the frame is
 * resampled to: the later option wins, as with every option given twice. */
static void read_picture(struct cli *c, const char *name, const char *value)
{
    const char *why;
    free(opt_picture.pixels);
    opt_picture.path = value;
    if (!value || read_png_gray(value, DETECTOR_MAX_SIDE, &opt_picture.pixels, &opt_picture.width,
                                &opt_picture.height, &why))
        cli_fail(c, name, value, value ? why : "expected a PNG file");
    c->width = opt_picture.width;
    c->height = opt_picture.height;
}

static int option(struct cli *c, const char *name, const char *value)
{
    if (!strcmp(name, "--image")) {
        read_picture(c, name, value);
        return 1;
    }
    if (!strcmp(name, "--survival-tsv")) {
        if (!value || !*value)
            cli_fail(c, name, value, "expected a file name");
        opt_survival_tsv = value;
        return 1;
    }
    if (strcmp(name, "--stages"))
        return 0;
    opt_stages = (unsigned)cli_count(c, name, value, 1, DETECTOR_MAX_STAGES);
    return 1;
}

/* bench says after its table which frame it timed, as run says it before its checks. */
static void frame_report(const struct bench *b, struct lab_size size, const double *ms,
                         const unsigned *tuned)
{
    (void)b;
    (void)ms;
    (void)tuned;
    frame_note(size, 0);
}

static const struct lab_experiment experiments[] = {
    {"--survival", "the survival curve, and the lanes each mapping keeps busy", survival},
};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab14",
        .input = {.dims = 2,
                  .max_side = DETECTOR_MAX_SIDE,
                  /* A 4K frame, 8.2 million windows: enough work that the bench times
                   * the mappings, not the launch and the last long windows (every variant
                   * waits for the slowest window, a few thousand stages in a row); on the
                   * CPU backend a frame checked in seconds */
                  .size = {.width = 3840, .height = 2160},
                  .cpu_size = {.width = 320, .height = 240},
                  .min_n = 1,
                  .elem_bytes = 1},
        .rows = {detector_variants, DETECTOR_VARIANTS, LAB_LIST(extra_rows)},
        .job = &detector_job,
        /* Windows decided per second. A window's work is integer compares and adds, no
         * FP32 at all: no FP32 ceiling applies (the bench's % FP32 column stays 0). */
        .measure = {.work_unit = "windows", .fp32_per_work = 0},
        .cli = {.usage = usage,
                .option = option,
                .experiments = experiments,
                .nexperiments = LAB_COUNT(experiments),
                .intro = frame_note,
                .report = frame_report,
                .write_png = write_png_rgb},
    };
    return lab_main(&lab, argc, argv);
}
