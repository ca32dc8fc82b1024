/* lab03 reference: the ray tracer on one CPU core, through raytracer.h's arithmetic, in the
 * kernels' order (C11 contracts no a * b + c into an FMA, so every step rounds as written). */
#include <math.h>
#include "raytracer.h"
#include "rng.h"

/* Pixel (px, py): the closest sphere along its ray, lit by each light it sees. */
static unsigned trace(const struct rt_sphere *spheres, const struct rt_scene *sc, unsigned px,
                      unsigned py)
{
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc->ambient;
    unsigned best = RT_NONE;
    rt_origin(px, py, sc->width, sc->height, o);
    for (unsigned k = 0; k < sc->nspheres; k++) {
        float t = rt_hit(spheres[k], o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
        if (rt_closer(t, k, best_t, best)) {
            best_t = t;
            best = k;
        }
    }
    if (best == RT_NONE)
        return sc->background;
    rt_surface(spheres[best], o, best_t, p, n);
    for (unsigned l = 0; l < sc->nlights; l++) {
        float dist = rt_toward(sc->lights[l], p, dir), c = rt_cosine(n, dir);
        for (unsigned k = 0; k < sc->nspheres && c > 0.0f; k++)
            if (rt_blocks(spheres[k], p, dir, dist))
                c = 0.0f;
        light += sc->lights[l].power * c;
    }
    return rt_pixel(spheres[best], light);
}

void raytracer_cpu_rows(unsigned *pixels, const struct rt_sphere *spheres,
                        const struct rt_scene *scene, size_t row0, size_t rows)
{
    for (size_t py = row0; py < row0 + rows && py < scene->height; py++)
        for (unsigned px = 0; px < scene->width; px++)
            pixels[py * scene->width + px] = trace(spheres, scene, px, (unsigned)py);
}

void raytracer_cpu(unsigned *pixels, const struct rt_sphere *spheres, const struct rt_scene *scene)
{
    raytracer_cpu_rows(pixels, spheres, scene, 0, scene->height);
}

size_t raytracer_mismatches(const unsigned *got, const unsigned *want, size_t n, size_t *first)
{
    size_t bad = 0;
    *first = n;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && !bad++)
            *first = i;
    return bad;
}

void raytracer_spheres(struct rt_sphere *spheres, unsigned n, enum rt_kind kind, uint64_t seed)
{
    struct rng r = rng_new(seed);
    /* Smaller spheres when there are many, so that the front ones do not hide the rest. */
    float size = 0.5f / sqrtf((float)(n ? n : 1)) + 0.02f;
    for (unsigned k = 0; k < n; k++) {
        float v[7];
        rng_floats(&r, v, 7, 0.0f, 1.0f);
        if (kind == RT_DEMO && k == 0) {
            spheres[k] = (struct rt_sphere){0.0f, 0.0f, 106.0f, 100.0f, 0.8f, 0.8f, 0.75f, 0.0f};
        } else if (kind == RT_DEMO) {
            float a = 2.4f * (float)k, d = 0.95f * sqrtf((float)k / (float)n);
            spheres[k] = (struct rt_sphere){1.6f * d * cosf(a), d * sinf(a),
                                            2.5f + 2.0f * v[0], size * (0.6f + 0.6f * v[1]),
                                            0.2f + 0.8f * v[2], 0.2f + 0.8f * v[3],
                                            0.2f + 0.8f * v[4], 0.0f};
        } else {
            spheres[k] = (struct rt_sphere){
                -1.8f + 3.6f * v[0], -1.1f + 2.2f * v[1], 0.5f + 4.0f * v[2], size * (0.3f + v[3]),
                0.2f + 0.8f * v[4],  0.2f + 0.8f * v[5],  0.2f + 0.8f * v[6], 0.0f};
        }
    }
}

struct rt_scene raytracer_scene(unsigned width, unsigned height, unsigned n)
{
    struct rt_scene sc = {width,
                          height,
                          n,
                          2,
                          {{-3.0f, 3.0f, -2.0f, 0.7f}, {2.5f, 1.5f, 0.5f, 0.4f}},
                          0.1f,
                          RT_RGB(16, 20, 40)};
    return sc;
}
