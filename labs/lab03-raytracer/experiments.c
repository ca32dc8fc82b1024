/* lab03's report, which bench prints after its main table: the rays a second of each row, the
 * measure of a ray tracer's speed. */
#include <stdio.h>
#include "host.h"

/* A primary ray and a shadow ray per light for every pixel (an upper bound, as the sphere
 * tests are: a pixel that hits nothing casts no shadow ray). */
void rays_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned)
{
    struct rt_scene sc = raytracer_scene((unsigned)s.width, (unsigned)s.height, opt.nspheres);
    unsigned lights = opt.nlights ? opt.nlights : sc.nlights;
    (void)tuned;
    printf("\nrays a second on %s (%u spheres, %u lights):\n", b->gpu.name, opt.nspheres, lights);
    for (int r = 0; r < ROWS; r++) {
        double rows = r == CPU ? (double)sample_rows(&sc) : (double)sc.height;
        if (ms[r] > 0)
            printf("  %-24s %10.3g\n",
                   r < RAYTRACER_VARIANTS ? raytracer_variants[r].name : extra_rows[r - CPU].name,
                   rows * sc.width * (1.0 + lights) / (ms[r] * 1e-3));
    }
}
