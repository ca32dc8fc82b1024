/* lab03 tests: every variant against the CPU reference on images of 1x1, 33x17 and
 * 1920x1080 (fewer spheres at the large size: it is there for the index arithmetic), with
 * 0, 1, some and the most spheres, random scenes drawn afresh (seed printed) and the demo
 * scene, whose backdrop catches shadows; then scenes made to catch the classic bugs: spheres
 * behind the camera or around it, overlapping, tangent and coincident (the tie goes to the
 * lower index), a sphere past the last one that must not be read; pixels poisoned before
 * each run. Exact on every backend (raytracer_mismatches says why).
 * Then bad arguments rejected. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "raytracer.h"

/* v's image of sc from the n spheres s (the buffer holds `room` of them, room >= n),
 * checked against the reference; `what` names the case. */
static void check_in(int v, const struct rt_scene *sc, const struct rt_sphere *s, unsigned room,
                     const char *what)
{
    size_t n = (size_t)sc->width * sc->height, bad, first;
    unsigned *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
    struct gpu_buf dp = gpu_alloc(n * sizeof *got), ds = gpu_alloc((room ? room : 1) * sizeof *s);
    raytracer_cpu(want, s, sc);
    gpu_upload(ds, s, room * sizeof *s);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %u x %u, %u spheres, %s, order %s", raytracer_variants[v].name, sc->width,
                     sc->height, sc->nspheres, what, testkit_order_name(o));
        gpu_poison(dp);
        assert_status(raytracer(v, dp, ds, sc), LAB_OK);
        gpu_sync();
        gpu_download(got, dp, n * sizeof *got);
        bad = raytracer_mismatches(got, want, n, &first);
        if (bad)
            fail_msg("%s, %u x %u, %u spheres, %s, order %s: %zu pixels differ, the first at "
                     "(%zu, %zu): %06x, want %06x",
                     raytracer_variants[v].name, sc->width, sc->height, sc->nspheres, what,
                     testkit_order_name(o), bad, first % sc->width, first / sc->width, got[first],
                     want[first]);
    }
    gpu_free(&dp);
    gpu_free(&ds);
    free(got);
    free(want);
}

static void check(int v, const struct rt_scene *sc, const struct rt_sphere *s, const char *what)
{
    check_in(v, sc, s, sc->nspheres, what);
}

struct size_case {
    unsigned width, height, nspheres;
    enum rt_kind kind;
};

/* The most spheres at the small sizes, a few at the large one (a 1920x1080 frame with 1000
 * spheres is six billion tests: minutes on the CPU backend). */
static const struct size_case cases[] = {
    {1, 1, 0, RT_RANDOM},      {1, 1, 1, RT_DEMO},     {1, 1, 5, RT_RANDOM},
    {33, 17, 0, RT_RANDOM},    {33, 17, 1, RT_RANDOM}, {33, 17, 64, RT_RANDOM},
    {33, 17, 1000, RT_RANDOM}, {64, 48, 40, RT_DEMO},  {1920, 1080, 6, RT_DEMO},
};

static void matches_cpu(int v)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct size_case *c = &cases[k];
        struct rt_scene sc = raytracer_scene(c->width, c->height, c->nspheres);
        struct rt_sphere *s = malloc((c->nspheres ? c->nspheres : 1) * sizeof *s);
        if ((size_t)c->width * c->height > testkit_max_size())
            sc.height = (unsigned)(testkit_max_size() / c->width); /* under the race checker */
        raytracer_spheres(s, c->nspheres, c->kind, testkit_next());
        check(v, &sc, s, c->kind == RT_DEMO ? "demo" : "random");
        free(s);
    }
}

/* A sphere: centre, radius, and a colour of its own. */
static struct rt_sphere ball(float x, float y, float z, float r, float red, float green, float blue)
{
    return (struct rt_sphere){x, y, z, r, red, green, blue, 0.0f};
}

/* Scenes where the first sphere hit is not the closest, or where none is in front: a
 * kernel that keeps the first hit, takes a root behind the camera, or breaks a tie by the
 * higher index gets some pixels wrong. The light at the camera side casts shadows on the
 * backdrop (the last sphere). */
static void special_scenes(int v)
{
    struct rt_scene sc = raytracer_scene(48, 40, 0);
    const struct {
        const char *what;
        unsigned n;
        struct rt_sphere s[5];
    } scenes[] = {
        {"behind the camera and around it",
         3,
         {ball(0.0f, 0.0f, -2.0f, 1.5f, 1, 0, 0), ball(0.5f, 0.2f, 0.0f, 0.4f, 0, 1, 0),
          ball(0.0f, 0.0f, 30.0f, 25.0f, 0.7f, 0.7f, 0.7f)}},
        {"far sphere first, overlapping",
         4,
         {ball(0.0f, 0.0f, 4.0f, 0.8f, 1, 0, 0), ball(0.3f, 0.1f, 3.5f, 0.7f, 0, 1, 0),
          ball(-0.2f, 0.0f, 2.0f, 0.5f, 0, 0, 1), ball(0.0f, 0.0f, 30.0f, 25.0f, 1, 1, 1)}},
        {"tangent",
         4,
         {ball(-0.3f, 0.0f, 2.0f, 0.3f, 1, 0.5f, 0), ball(0.3f, 0.0f, 2.0f, 0.3f, 0, 0.5f, 1),
          ball(0.0f, 0.0f, 2.6f, 0.3f, 0.5f, 1, 0), ball(0.0f, 0.0f, 30.0f, 25.0f, 1, 1, 1)}},
        {"coincident (the lower index wins)",
         3,
         {ball(0.1f, -0.1f, 2.0f, 0.6f, 1, 0, 0), ball(0.1f, -0.1f, 2.0f, 0.6f, 0, 1, 0),
          ball(0.0f, 0.0f, 30.0f, 25.0f, 1, 1, 1)}},
    };
    sc.lights[0] = (struct rt_light){-1.0f, 1.0f, -2.0f, 0.9f};
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        sc.nspheres = scenes[k].n;
        check(v, &sc, scenes[k].s, scenes[k].what);
    }
}

/* Spheres past nspheres must not be read. The buffer holds one more: a sphere just in front
 * of the image plane that covers it all. The constant kernels get the trap in constant
 * memory too: a launch with it, then one without (the copy is of nspheres spheres). */
static void reads_no_more(int v)
{
    static const unsigned counts[] = {1, 7, 40};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        unsigned n = counts[k];
        struct rt_scene sc = raytracer_scene(35, 21, n + 1);
        struct rt_sphere *s = malloc((n + 1) * sizeof *s);
        raytracer_spheres(s, n, RT_RANDOM, testkit_next());
        s[n] = ball(0.0f, 0.0f, 1.05f, 1.0f, 1, 0, 1);
        check(v, &sc, s, "the trap included");
        sc.nspheres = n;
        check_in(v, &sc, s, n + 1, "the trap past the last");
        free(s);
    }
}

/* The reference itself, on pixels that follow by hand. A 1x1 image: the ray runs along the
 * z axis. An orange sphere at z = 2, radius 0.5: hit at t = 1.5, normal (0, 0, -1); a light
 * at z = -10, power 1: cosine 1, light 1 + ambient 0.1, so red min(1, 1.1) -> 255, green
 * 0.5 x 1.1 -> 140 (0.55 x 255 + 0.5 = 140.75), blue 0. A second sphere behind the camera
 * (z = -5) is no hit, but it shadows the light: ambient alone, red 26, green 13. */
static void reference_cpu(void)
{
    struct rt_scene sc = raytracer_scene(1, 1, 1);
    struct rt_sphere s[2] = {ball(0, 0, 2, 0.5f, 1, 0.5f, 0), ball(0, 0, -5, 0.5f, 0, 0, 1)};
    unsigned got;
    sc.nlights = 1;
    sc.lights[0] = (struct rt_light){0, 0, -10, 1};
    raytracer_cpu(&got, s, &sc);
    assert_int_equal(got, RT_RGB(255, 140, 0));
    sc.nspheres = 2;
    raytracer_cpu(&got, s, &sc);
    assert_int_equal(got, RT_RGB(26, 13, 0));
    s[0].x = 2.0f; /* now the ray misses both */
    raytracer_cpu(&got, s, &sc);
    assert_int_equal(got, sc.background);
}

static void args_rejected(void)
{
    struct gpu_buf px = gpu_alloc(100 * sizeof(unsigned)),
                   ds = gpu_alloc(10 * sizeof(struct rt_sphere));
    struct gpu_buf none = {NULL, 0};
    struct rt_sphere s[10];
    const struct rt_scene ok = raytracer_scene(10, 10, 10);
    struct rt_scene bad[13];
    raytracer_spheres(s, 10, RT_RANDOM, 1);
    gpu_upload(ds, s, sizeof s);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        bad[k] = ok;
    bad[0].width = 11; /* 110 pixels in a buffer of 100 */
    bad[1].width = 0;
    bad[2].height = 0;
    bad[3].nspheres = 11; /* the buffer holds 10 */
    bad[4].nspheres = RT_MAX_SPHERES + 1;
    bad[5].nlights = RT_MAX_LIGHTS + 1;
    bad[6].lights[1].x = NAN;
    bad[7].lights[0].z = INFINITY;
    bad[8].lights[0].power = -1.0f;
    bad[9].ambient = -0.5f;
    bad[10].ambient = NAN;
    bad[11].width = RT_MAX_SIDE + 1;
    bad[11].height = 0;
    bad[12].height = RT_MAX_SIDE + 1;
    for (int v = 0; v < RAYTRACER_VARIANTS; v++) {
        struct rt_scene empty = ok;
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            testkit_case("%s, bad scene %zu", raytracer_variants[v].name, k);
            assert_status(raytracer(v, px, ds, &bad[k]), LAB_EINVAL);
        }
        assert_status(raytracer(v, px, ds, NULL), LAB_EINVAL);
        assert_status(raytracer(v, none, ds, &ok), LAB_EINVAL);
        assert_status(raytracer(v, px, none, &ok), LAB_EINVAL);
        assert_status(raytracer(v, px, ds, &ok), LAB_OK);
        empty.nspheres = 0; /* no spheres: no buffer needed */
        assert_status(raytracer(v, px, none, &empty), LAB_OK);
    }
    assert_status(raytracer(RAYTRACER_VARIANTS, px, ds, &ok), LAB_EINVAL);
    gpu_sync();
    gpu_free(&px);
    gpu_free(&ds);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),  TESTKIT_GIVEN(args_rejected), TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_EACH(special_scenes), TESTKIT_EACH(reads_no_more),
};

TESTKIT_MAIN("lab03_raytracer", tests, raytracer_variants, RAYTRACER_VARIANTS)
