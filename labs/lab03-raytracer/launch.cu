/* lab03's host API: the arguments checked, the spheres copied to constant memory for the
 * kernels that read them there, then the kernels of raytracer.cu launched. */
#include <math.h>
#include "check.h"
#include "raytracer.h"

/* A 1D grid of 256-thread blocks over the pixels, row after row: eight warps, each a run of
 * 32 pixels; gridDim.x goes to 2^31 - 1, so no image this lab accepts needs folding. */
static const unsigned THREADS = 256;

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

static int finite_and_not_negative(float x)
{
    return isfinite(x) && x >= 0.0f;
}

static int valid(const struct rt_scene *sc, struct gpu_buf pixels, struct gpu_buf spheres)
{
    size_t n;
    if (!sc || !pixels.ptr || sc->width == 0 || sc->height == 0 || sc->width > RT_MAX_SIDE ||
        sc->height > RT_MAX_SIDE)
        return 0;
    n = (size_t)sc->width * sc->height;
    if (n > pixels.bytes / sizeof(unsigned) || div_up(n, THREADS) > 0x7fffffffu)
        return 0;
    if (sc->nspheres > RT_MAX_SPHERES || sc->nlights > RT_MAX_LIGHTS)
        return 0;
    if (sc->nspheres && (!spheres.ptr || sc->nspheres > spheres.bytes / sizeof(struct rt_sphere)))
        return 0;
    if (!finite_and_not_negative(sc->ambient))
        return 0;
    for (unsigned l = 0; l < sc->nlights; l++) {
        const struct rt_light *L = &sc->lights[l];
        if (!isfinite(L->x) || !isfinite(L->y) || !isfinite(L->z) ||
            !finite_and_not_negative(L->power))
            return 0;
    }
    return 1;
}

extern "C" int raytracer(enum raytracer_variant v, struct gpu_buf pixels, struct gpu_buf spheres,
                         const struct rt_scene *scene)
{
    const struct rt_sphere *s = (const struct rt_sphere *)spheres.ptr;
    unsigned *out = (unsigned *)pixels.ptr;
    unsigned blocks;
    if ((unsigned)v >= RAYTRACER_VARIANTS || !valid(scene, pixels, spheres))
        return LAB_EINVAL;
    blocks = (unsigned)div_up((size_t)scene->width * scene->height, THREADS);
    if (raytracer_facts[v].constant && scene->nspheres)
        CUDA_TRY(raytracer_to_constant(s, scene->nspheres));
    switch (v) {
    case RT_GLOBAL_PLAIN:
        raytracer_global_plain<<<blocks, THREADS>>>(out, s, *scene);
        break;
    case RT_GLOBAL_READONLY:
        raytracer_global_readonly<<<blocks, THREADS>>>(out, s, *scene);
        break;
    case RT_CONSTANT:
        raytracer_constant<<<blocks, THREADS>>>(out, *scene);
        break;
    case RT_SHARED_TILES:
        raytracer_shared_tiles<<<blocks, THREADS>>>(out, s, *scene);
        break;
    case RT_CONSTANT_ROTATED:
        raytracer_constant_rotated<<<blocks, THREADS>>>(out, *scene);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
