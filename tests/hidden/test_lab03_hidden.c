/* lab03 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). A test per variant: sphere counts around shared_tiles' tile, no light
 * and the most lights, a tall column and widths that split warps across rows, and a buffer
 * longer than the image whose places past the last pixel must stay as they were; and
 * lights rejected. Points and visibility: tests/hidden/lab03.txt. The launcher's 1D grid
 * goes to 2^31 - 1 blocks, so no image needs folding: the tall column checks the index
 * arithmetic instead. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "raytracer.h"

/* v's image of sc from n random spheres, in a pixel buffer of `spare` places more,
 * poisoned: every pixel within the tolerance of the reference's, the spare places
 * untouched. */
static void check(int v, const struct rt_scene *sc, enum rt_kind kind, size_t spare)
{
    size_t n = (size_t)sc->width * sc->height, bad, first;
    unsigned *got = malloc((n + spare) * sizeof *got), *want = malloc(n * sizeof *want);
    struct rt_sphere *s = malloc((sc->nspheres + 1) * sizeof *s);
    struct gpu_buf dp = gpu_alloc((n + spare) * sizeof *got);
    struct gpu_buf ds = gpu_alloc((sc->nspheres + 1) * sizeof *s);
    testkit_case("%s, %u x %u, %u spheres, %u lights", raytracer_variants[v].name, sc->width,
                 sc->height, sc->nspheres, sc->nlights);
    raytracer_spheres(s, sc->nspheres, kind, testkit_next());
    raytracer_cpu(want, s, sc);
    gpu_upload(ds, s, sc->nspheres * sizeof *s);
    gpu_poison(dp);
    assert_status(raytracer(v, dp, ds, sc), LAB_OK);
    gpu_sync();
    gpu_download(got, dp, (n + spare) * sizeof *got);
    bad = raytracer_mismatches(got, want, n, &first);
    if (bad)
        fail_msg("%s, %u x %u, %u spheres, %u lights: %zu pixels differ, the first at (%zu, "
                 "%zu): %06x, want %06x",
                 raytracer_variants[v].name, sc->width, sc->height, sc->nspheres, sc->nlights, bad,
                 first % sc->width, first / sc->width, got[first], want[first]);
    for (size_t i = n; i < n + spare; i++)
        if (got[i] != 0xffffffffu)
            fail_msg("%s: pixels[%zu] written, past the image's %zu pixels",
                     raytracer_variants[v].name, i, n);
    gpu_free(&dp);
    gpu_free(&ds);
    free(s);
    free(got);
    free(want);
}

static void tile_edges(int v)
{
    static const unsigned counts[] = {RT_TILE - 1, RT_TILE, RT_TILE + 1, 2 * RT_TILE + 1};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        struct rt_scene sc = raytracer_scene(24, 16, counts[k]);
        check(v, &sc, RT_RANDOM, 0);
    }
}

static void light_counts(int v)
{
    struct rt_scene sc = raytracer_scene(40, 30, 30);
    sc.nlights = 0;
    check(v, &sc, RT_DEMO, 0);
    sc.nlights = RT_MAX_LIGHTS;
    sc.lights[2] = (struct rt_light){0.0f, -3.0f, -1.0f, 0.3f};
    sc.lights[3] = (struct rt_light){3.0f, 0.0f, 1.0f, 0.5f};
    check(v, &sc, RT_DEMO, 0);
}

static void odd_shapes(int v)
{
    static const unsigned shapes[][2] = {{1, 70000}, {31, 9}, {33, 33}, {65, 3}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        struct rt_scene sc = raytracer_scene(shapes[k][0], shapes[k][1], 5);
        check(v, &sc, RT_DEMO, 0);
    }
}

static void nothing_past_the_end(int v)
{
    struct rt_scene sc = raytracer_scene(45, 19, 12);
    check(v, &sc, RT_RANDOM, 1000);
}

static void lights_rejected(void)
{
    struct gpu_buf dp = gpu_alloc(64 * sizeof(unsigned)), none = {NULL, 0};
    for (int v = 0; v < RAYTRACER_VARIANTS; v++) {
        struct rt_scene sc = raytracer_scene(8, 8, 0);
        testkit_case("%s", raytracer_variants[v].name);
        sc.lights[1].power = -INFINITY;
        assert_status(raytracer(v, dp, none, &sc), LAB_EINVAL);
        sc.lights[1].power = 0.5f;
        sc.lights[0].y = -NAN;
        assert_status(raytracer(v, dp, none, &sc), LAB_EINVAL);
        sc.lights[0].y = 1.0f;
        sc.ambient = INFINITY;
        assert_status(raytracer(v, dp, none, &sc), LAB_EINVAL);
    }
    gpu_free(&dp);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(tile_edges),           TESTKIT_EACH(light_counts),     TESTKIT_EACH(odd_shapes),
    TESTKIT_EACH(nothing_past_the_end), TESTKIT_GIVEN(lights_rejected),
};

TESTKIT_MAIN("lab03_hidden", tests, raytracer_variants, RAYTRACER_VARIANTS)
