/* lab03: raytracer. The table of variants, the scene, the host API that rows.c and the
 * tests call (launch.cu), the ray-sphere arithmetic that the kernels and the CPU reference
 * share, and the kernels of raytracer.cu that launch.cu launches. */
#ifndef RAYTRACER_H
#define RAYTRACER_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the handout's order: one kernel each, the same image from each. A row:
 * the enum constant, the name (tests, --variant, bench rows, points), its facts, what it
 * teaches. The one fact: constant, 1 for the kernels that read the spheres from
 * __constant__ memory (the launcher copies them there first). */
// clang-format off
#define RAYTRACER_TABLE(X) /* constant */ \
    X(RT_GLOBAL_PLAIN, "global_plain", (0), \
      "the spheres in global memory, plain loads: every lane of a warp asks for the same sphere") \
    X(RT_GLOBAL_READONLY, "global_readonly", (0), \
      "the same loads through the read-only path (const __restrict__, __ldg)") \
    X(RT_CONSTANT, "constant", (1), \
      "__constant__ memory from cudaMemcpyToSymbol: one address per warp, broadcast") \
    X(RT_SHARED_TILES, "shared_tiles", (0), \
      "each block stages the spheres into shared memory, a tile at a time, between barriers") \
    X(RT_CONSTANT_ROTATED, "constant_rotated", (1), \
      "constant memory read wrongly: each lane starts at another sphere, the reads serialise")
// clang-format on

enum raytracer_variant { RAYTRACER_TABLE(LAB_ENUM) RAYTRACER_VARIANTS };
static const struct lab_variant raytracer_variants[] = {RAYTRACER_TABLE(LAB_VARIANT)};
struct raytracer_facts {
    unsigned constant;
};
static const struct raytracer_facts raytracer_facts[] = {RAYTRACER_TABLE(LAB_FACTS)};

/* 16-byte alignment, in C and in C++. */
#ifdef __cplusplus
#define RT_ALIGN16 alignas(16)
#else
#define RT_ALIGN16 _Alignas(16)
#endif

/* A sphere: centre, radius, colour (0..1 each); 32 bytes on a 16-byte boundary, so that a
 * sphere is two 16-byte loads. */
struct rt_sphere {
    RT_ALIGN16 float x;
    float y, z, r;
    float red, green, blue, pad;
};

/* A point light: position and how bright it is (a factor on Lambert's cosine). */
struct rt_light {
    float x, y, z, power;
};

/* At most 1000 spheres (the course's bound): 32000 bytes, half of the 64 KiB of constant
 * memory, which would hold 2048 of them. */
#define RT_MAX_SPHERES 1000u
#define RT_MAX_LIGHTS 4u
/* The largest side of an image: every pixel's coordinate converts exactly to a float. */
#define RT_MAX_SIDE (1u << 24)
/* shared_tiles' tile: the spheres a block stages at a time (8 KiB of shared memory). */
#define RT_TILE 256u

/* What to draw. The camera is at infinity: the ray of pixel (px, py), row 0 at the top,
 * starts on the plane z = 0 at x = (2 px + 1 - width) / height, y = (height - 2 py - 1) /
 * height (the image spans -1 .. 1 in y, as wide in x as its aspect asks) and runs along +z.
 * The first sphere it hits (the smallest t, the lower index on a tie) gives the pixel its
 * colour: ambient plus, for each light that no sphere hides, power x cos(normal, light). */
struct rt_scene {
    unsigned width, height;
    unsigned nspheres; /* the spheres are in a device buffer, 0 .. RT_MAX_SPHERES */
    unsigned nlights;  /* 0 .. RT_MAX_LIGHTS */
    struct rt_light lights[RT_MAX_LIGHTS];
    float ambient;
    unsigned background; /* the colour of a pixel that hits nothing */
};

/* A pixel: 0x00BBGGRR, red in the low byte. */
#define RT_RGB(r, g, b) ((unsigned)(r) | (unsigned)(g) << 8 | (unsigned)(b) << 16)

/* The image of scene into pixels (width * height unsigned, row after row), its spheres read
 * from the device buffer spheres. Returns LAB_OK, LAB_EINVAL for a bad variant, a NULL scene
 * or buffer, pixels or spheres too small, a side of 0 or beyond RT_MAX_SIDE, more than
 * RT_MAX_SPHERES spheres or RT_MAX_LIGHTS lights, a light or an ambient term that is not
 * finite or is negative; or LAB_ECUDA. Asynchronous. */
int raytracer(enum raytracer_variant v, struct gpu_buf pixels, struct gpu_buf spheres,
              const struct rt_scene *scene);

/* reference.c: the CPU loop everything is checked against; _rows draws rows row0 .. row0 +
 * rows - 1 only. */
void raytracer_cpu(unsigned *pixels, const struct rt_sphere *spheres, const struct rt_scene *scene);
void raytracer_cpu_rows(unsigned *pixels, const struct rt_sphere *spheres,
                        const struct rt_scene *scene, size_t row0, size_t rows);

/* The ray-sphere tests of one frame with no early exit: a primary ray per pixel against
 * every sphere, and from each pixel a shadow ray per light against every sphere (an upper
 * bound: a shadow ray stops at its first blocker, and a pixel that hits nothing casts none).
 * The bench's compute metric in the lab's next step. */
static inline double raytracer_sphere_tests(const struct rt_scene *scene)
{
    return (double)scene->width * scene->height * scene->nspheres * (1.0 + scene->nlights);
}

/* reference.c: n spheres (at most RT_MAX_SPHERES) of a scene, and its lights and light.
 * demo: a backdrop (one large sphere) and n - 1 spheres on a spiral in front of it; random: n spheres
 * drawn from seed, anywhere in front of the image, overlapping as they fall. */
enum rt_kind { RT_DEMO, RT_RANDOM };
void raytracer_spheres(struct rt_sphere *spheres, unsigned n, enum rt_kind kind, uint64_t seed);
/* A scene of width x height with n spheres, the two default lights and ambient 0.1. */
struct rt_scene raytracer_scene(unsigned width, unsigned height, unsigned n);

/* How many of n pixels differ from the reference's, *first the first of them (n when
 * none). Every variant must match exactly, on a GPU too: g++ on x86-64 has no FMA to
 * contract into, the kernels build with -fmad=false on a GPU (lab.mk), and sqrtf and the
 * divisions are correctly rounded on both, so a kernel that keeps the shared functions'
 * order rounds as the reference does. */
size_t raytracer_mismatches(const unsigned *got, const unsigned *want, size_t n, size_t *first);

#ifdef __cplusplus
}
#endif

/* The arithmetic every kernel and the reference share, so that they round alike: C on the
 * host, __host__ __device__ in the .cu files. */
#ifdef __CUDACC__
#define RT_SHARED __host__ __device__ static inline
#else
#define RT_SHARED static inline
#endif

/* A miss. */
#define RT_NONE 0xffffffffu

/* Where the ray from (ox, oy, oz) along the unit vector (dx, dy, dz) enters sphere s: its
 * distance t > 0, or -1 when it misses or the sphere is behind or around the origin. With
 * m the vector to the centre, b = m.d and c = m.m - r^2, t = b - sqrt(b^2 - c). 17 FLOP
 * before the square root: 3 subtractions, two dot products (3 multiplies, 2 adds each),
 * r^2, and c, b^2 - c (a multiply and 2 subtractions). */
RT_SHARED float rt_hit(struct rt_sphere s, float ox, float oy, float oz, float dx, float dy,
                       float dz)
{
    float mx = s.x - ox, my = s.y - oy, mz = s.z - oz;
    float b = mx * dx + my * dy + mz * dz;
    float c = mx * mx + my * my + mz * mz - s.r * s.r;
    float disc = b * b - c, t;
    if (disc < 0.0f)
        return -1.0f;
    t = b - sqrtf(disc);
    return t > 0.0f ? t : -1.0f;
}

/* Whether the hit (t, i) is closer than the best so far (best_t, best_i): the smaller t,
 * the lower index on a tie, so that any order of the spheres finds the same one. */
RT_SHARED int rt_closer(float t, unsigned i, float best_t, unsigned best_i)
{
    return t > 0.0f && (best_i == RT_NONE || t < best_t || (t == best_t && i < best_i));
}

/* A shadow ray starts this far off the surface, so that it does not hit its own sphere. */
#define RT_EPS 1e-3f

/* The way from the point p to light l: the unit vector into dir, the distance returned. */
RT_SHARED float rt_toward(struct rt_light l, const float *p, float *dir)
{
    float lx = l.x - p[0], ly = l.y - p[1], lz = l.z - p[2];
    float dist = sqrtf(lx * lx + ly * ly + lz * lz);
    dir[0] = lx / dist;
    dir[1] = ly / dist;
    dir[2] = lz / dist;
    return dist;
}

/* Whether sphere s blocks the shadow ray from p along dir before the light at dist. */
RT_SHARED int rt_blocks(struct rt_sphere s, const float *p, const float *dir, float dist)
{
    float t = rt_hit(s, p[0], p[1], p[2], dir[0], dir[1], dir[2]);
    return t > RT_EPS && t < dist;
}

/* The ray's origin on the plane z = 0 for pixel (px, py): integers (exact below 2^24) over
 * the height, one correctly rounded division each, the same on every processor. */
RT_SHARED void rt_origin(unsigned px, unsigned py, unsigned width, unsigned height, float *o)
{
    o[0] = ((float)(2u * px + 1u) - (float)width) / (float)height;
    o[1] = ((float)height - (float)(2u * py + 1u)) / (float)height;
    o[2] = 0.0f;
}

/* The hit point of the ray from o at t on sphere s, and the unit normal there. */
RT_SHARED void rt_surface(struct rt_sphere s, const float *o, float t, float *p, float *n)
{
    p[0] = o[0];
    p[1] = o[1];
    p[2] = o[2] + t;
    n[0] = (p[0] - s.x) / s.r;
    n[1] = (p[1] - s.y) / s.r;
    n[2] = (p[2] - s.z) / s.r;
}

/* Lambert's cosine for the light along dir at a point of normal n (0 when behind). */
RT_SHARED float rt_cosine(const float *n, const float *dir)
{
    float c = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2];
    return c > 0.0f ? c : 0.0f;
}

/* The pixel of sphere s lit by light intensity `light` (ambient plus the lights' shares):
 * each channel its colour x light, clamped to 1, in 0..255 rounded to nearest. */
RT_SHARED unsigned rt_pixel(struct rt_sphere s, float light)
{
    float c[3] = {s.red * light, s.green * light, s.blue * light};
    unsigned q[3];
    for (int k = 0; k < 3; k++)
        q[k] = (unsigned)((c[k] < 1.0f ? c[k] : 1.0f) * 255.0f + 0.5f);
    return RT_RGB(q[0], q[1], q[2]);
}

#ifdef __cplusplus
__global__ void raytracer_global_plain(unsigned *pixels, const struct rt_sphere *spheres,
                                       struct rt_scene sc);
__global__ void raytracer_global_readonly(unsigned *__restrict__ pixels,
                                          const struct rt_sphere *__restrict__ spheres,
                                          struct rt_scene sc);
__global__ void raytracer_constant(unsigned *pixels, struct rt_scene sc);
__global__ void raytracer_shared_tiles(unsigned *pixels, const struct rt_sphere *spheres,
                                       struct rt_scene sc);
__global__ void raytracer_constant_rotated(unsigned *pixels, struct rt_scene sc);
/* raytracer.cu: the n spheres of the device buffer into the constant kernels' array. */
cudaError_t raytracer_to_constant(const struct rt_sphere *spheres, unsigned n);
#endif
#endif
