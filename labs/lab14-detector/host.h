/* lab14's host side, as main.c and rows.c use it: the cascade and the frame the options
 * choose (main.c), the bench's rows and the job they run on, and the handout's survival table
 * (rows.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "detector.h"

/* The rows after the variants. */
enum { CPU = DETECTOR_VARIANTS, CPU_CORES, ROWS };
extern const struct lab_row extra_rows[ROWS - DETECTOR_VARIANTS];
extern const struct lab_job detector_job;

/* The cascade's length, as --stages sets it: each job's setup reads it. */
extern unsigned opt_stages;
/* --image: a picture (8-bit gray) that replaces the drawn frame of noise and objects, at its
 * own size or resampled to the run's (pixels NULL: no picture, the drawn frame). */
struct picture {
    const char *path;
    unsigned char *pixels;
    size_t width, height;
};
extern struct picture opt_picture;
/* --survival-tsv: where survival writes the windows alive after each stage (NULL: nowhere). */
extern const char *opt_survival_tsv;

/* run --survival: the windows still alive after 1, 2, 4, ... stages, on the run's image, and
 * the share of the lanes each mapping keeps busy there; with --survival-tsv, after every
 * stage into that file. */
void survival(struct lab_size size, uint64_t seed);
/* What run prints first and bench after its table: the frame they scan, where --image gave
 * a picture (nothing for the drawn frame). */
void frame_note(struct lab_size size, uint64_t seed);

#endif
