/* lab03's host side, as main.c and its two halves use it: the scene the options choose
 * (main.c), the bench's rows and the job they run on (rows.c), and the rays table bench
 * prints after its main one (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "raytracer.h"

/* The rows after the variants. */
enum { CPU = RAYTRACER_VARIANTS, CPU_CORES, ROWS };
extern const struct lab_row extra_rows[ROWS - RAYTRACER_VARIANTS];
extern const struct lab_job raytracer_job;

/* What to draw, as the lab's options set it: each job's setup reads it. nlights 0: the
 * scene's default lights. */
struct options {
    enum rt_kind kind;
    unsigned nspheres;
    struct rt_light lights[RT_MAX_LIGHTS];
    unsigned nlights;
};
extern struct options opt;

/* The rows of the image the one-core row draws. */
size_t sample_rows(const struct rt_scene *scene);

/* bench's report: the rays a second of each row. */
void rays_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned);

#endif
