/* lab03: a ray tracer. Yours: the kernels and the copy into constant memory; launch.cu
 * checks the arguments and launches them. One thread per pixel: its ray runs along +z and
 * takes the closest sphere it hits, then casts a shadow ray to each light; raytracer.h
 * gives the arithmetic (rt_hit, rt_closer, rt_surface, rt_toward, rt_blocks, rt_cosine,
 * rt_pixel), which the CPU reference uses too. The lesson: where a read-only scene lives.
 * Every lane of a warp loops over the same spheres in the same order, so each read is one
 * address for the whole warp: a broadcast, which is what constant memory is built for. */
#include "raytracer.h"

/* The constant kernels' spheres: 32000 bytes of the 64 KiB of constant memory. */
__constant__ struct rt_sphere c_spheres[RT_MAX_SPHERES];

cudaError_t raytracer_to_constant(const struct rt_sphere *spheres, unsigned n)
{
    cudaError_t err = cudaSuccess;
    /* SOLUTION BEGIN: copy n spheres from the device buffer to c_spheres with
     * cudaMemcpyToSymbolAsync (offset 0, kind cudaMemcpyDeviceToDevice: the spheres are
     * already on the device), keeping its status in err. */
    err = cudaMemcpyToSymbolAsync(c_spheres, spheres, n * sizeof *spheres, 0,
                                  cudaMemcpyDeviceToDevice);
    /* SOLUTION END */
    return err;
}

/* 1. The spheres in global memory, read with plain loads. Each step of the loop is one
 * sphere for all 32 lanes: one 32-byte sector that L1 serves to the warp after the first
 * miss. Costs a trip through the load path and L1's tags per sphere per warp, and L1
 * shared with everything else the SM caches. The shadow loop only asks whether some sphere
 * blocks, so it tests four between two looks at the answer: a quarter of the loop's
 * counting and branching (on the H100 a frame 15 % faster), for at most three tests past
 * the first blocker. */
__global__ void raytracer_global_plain(unsigned *pixels, const struct rt_sphere *spheres,
                                       struct rt_scene sc)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc.ambient;
    unsigned best = RT_NONE;
    if (i >= (size_t)sc.width * sc.height)
        return;
    rt_origin((unsigned)(i % sc.width), (unsigned)(i / sc.width), sc.width, sc.height, o);
    /* SOLUTION BEGIN: the closest hit: for each sphere k < sc.nspheres, t = rt_hit(spheres[k],
     * o[0], o[1], o[2], 0, 0, 1) (the ray runs along +z); when rt_closer(t, k, best_t, best),
     * keep t and k. No hit: the pixel is sc.background. Else rt_surface(spheres[best], o,
     * best_t, p, n), and for each light l: dist = rt_toward(sc.lights[l], p, dir), c =
     * rt_cosine(n, dir), blocked = !(c > 0) (no light from behind); while not blocked, test
     * four spheres k .. k + 3 at a time, blocked = rt_blocks of the first | the second | the
     * third | the fourth (p, dir, dist each), then the last spheres one at a time; light +=
     * sc.lights[l].power * (blocked ? 0 : c). The pixel is rt_pixel(spheres[best], light). */
    for (unsigned k = 0; k < sc.nspheres; k++) {
        float t = rt_hit(spheres[k], o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
        if (rt_closer(t, k, best_t, best)) {
            best_t = t;
            best = k;
        }
    }
    if (best == RT_NONE) {
        pixels[i] = sc.background;
        return;
    }
    rt_surface(spheres[best], o, best_t, p, n);
    for (unsigned l = 0; l < sc.nlights; l++) {
        float dist = rt_toward(sc.lights[l], p, dir), c = rt_cosine(n, dir);
        unsigned k = 0;
        int blocked = !(c > 0.0f);
        for (; k + 4 <= sc.nspheres && !blocked; k += 4)
            blocked =
                rt_blocks(spheres[k], p, dir, dist) | rt_blocks(spheres[k + 1], p, dir, dist) |
                rt_blocks(spheres[k + 2], p, dir, dist) | rt_blocks(spheres[k + 3], p, dir, dist);
        for (; k < sc.nspheres && !blocked; k++)
            blocked = rt_blocks(spheres[k], p, dir, dist);
        light += sc.lights[l].power * (blocked ? 0.0f : c);
    }
    pixels[i] = rt_pixel(spheres[best], light);
    /* SOLUTION END */
}

/* A sphere through the read-only (texture) path: two 16-byte __ldg loads. */
__device__ struct rt_sphere ldg_sphere(const struct rt_sphere *__restrict__ s)
{
    struct rt_sphere out;
    /* SOLUTION BEGIN: a = __ldg((const float4 *)s) and b = __ldg((const float4 *)s + 1):
     * out's x, y, z, r from a's x, y, z, w, and red, green, blue, pad from b's. */
    float4 a = __ldg((const float4 *)s), b = __ldg((const float4 *)s + 1);
    out.x = a.x;
    out.y = a.y;
    out.z = a.z;
    out.r = a.w;
    out.red = b.x;
    out.green = b.y;
    out.blue = b.z;
    out.pad = b.w;
    /* SOLUTION END */
    return out;
}

/* 2. Global memory through the read-only path: const __restrict__ promises that nothing
 * writes the spheres during the kernel, and __ldg loads them through the non-coherent
 * cache, which needs no coherence with writes. On Volta and later that path and L1 are the
 * same storage, so the gain over 1 is small: the lesson is that the promise costs nothing
 * and lets the compiler schedule the loads freely. */
__global__ void raytracer_global_readonly(unsigned *__restrict__ pixels,
                                          const struct rt_sphere *__restrict__ spheres,
                                          struct rt_scene sc)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc.ambient;
    unsigned best = RT_NONE;
    struct rt_sphere hit;
    if (i >= (size_t)sc.width * sc.height)
        return;
    rt_origin((unsigned)(i % sc.width), (unsigned)(i / sc.width), sc.width, sc.height, o);
    /* SOLUTION BEGIN: kernel 1, every sphere read as ldg_sphere(spheres + k) (the hit
     * sphere once, into hit). */
    for (unsigned k = 0; k < sc.nspheres; k++) {
        float t = rt_hit(ldg_sphere(spheres + k), o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
        if (rt_closer(t, k, best_t, best)) {
            best_t = t;
            best = k;
        }
    }
    if (best == RT_NONE) {
        pixels[i] = sc.background;
        return;
    }
    hit = ldg_sphere(spheres + best);
    rt_surface(hit, o, best_t, p, n);
    for (unsigned l = 0; l < sc.nlights; l++) {
        float dist = rt_toward(sc.lights[l], p, dir), c = rt_cosine(n, dir);
        unsigned k = 0;
        int blocked = !(c > 0.0f);
        for (; k + 4 <= sc.nspheres && !blocked; k += 4)
            blocked = rt_blocks(ldg_sphere(spheres + k), p, dir, dist) |
                      rt_blocks(ldg_sphere(spheres + k + 1), p, dir, dist) |
                      rt_blocks(ldg_sphere(spheres + k + 2), p, dir, dist) |
                      rt_blocks(ldg_sphere(spheres + k + 3), p, dir, dist);
        for (; k < sc.nspheres && !blocked; k++)
            blocked = rt_blocks(ldg_sphere(spheres + k), p, dir, dist);
        light += sc.lights[l].power * (blocked ? 0.0f : c);
    }
    pixels[i] = rt_pixel(hit, light);
    /* SOLUTION END */
}

/* 3. Constant memory: c_spheres, filled by raytracer_to_constant before the launch. The
 * constant cache serves one address to a whole warp in one go (a broadcast), and the
 * compiler can take the operand straight from it into an arithmetic instruction, no load
 * at all. Costs a copy per scene and at most 64 KiB; its weakness is kernel 5's. */
__global__ void raytracer_constant(unsigned *pixels, struct rt_scene sc)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc.ambient;
    unsigned best = RT_NONE;
    if (i >= (size_t)sc.width * sc.height)
        return;
    rt_origin((unsigned)(i % sc.width), (unsigned)(i / sc.width), sc.width, sc.height, o);
    /* SOLUTION BEGIN: kernel 1 with c_spheres in place of spheres. */
    for (unsigned k = 0; k < sc.nspheres; k++) {
        float t = rt_hit(c_spheres[k], o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
        if (rt_closer(t, k, best_t, best)) {
            best_t = t;
            best = k;
        }
    }
    if (best == RT_NONE) {
        pixels[i] = sc.background;
        return;
    }
    rt_surface(c_spheres[best], o, best_t, p, n);
    for (unsigned l = 0; l < sc.nlights; l++) {
        float dist = rt_toward(sc.lights[l], p, dir), c = rt_cosine(n, dir);
        unsigned k = 0;
        int blocked = !(c > 0.0f);
        for (; k + 4 <= sc.nspheres && !blocked; k += 4)
            blocked = rt_blocks(c_spheres[k], p, dir, dist) |
                      rt_blocks(c_spheres[k + 1], p, dir, dist) |
                      rt_blocks(c_spheres[k + 2], p, dir, dist) |
                      rt_blocks(c_spheres[k + 3], p, dir, dist);
        for (; k < sc.nspheres && !blocked; k++)
            blocked = rt_blocks(c_spheres[k], p, dir, dist);
        light += sc.lights[l].power * (blocked ? 0.0f : c);
    }
    pixels[i] = rt_pixel(c_spheres[best], light);
    /* SOLUTION END */
}

/* Spheres base .. base + count - 1 into the block's tile: every thread of the block calls
 * it, the first barrier so that no thread still reads the previous tile, the second so
 * that the whole tile is there before anyone reads it. */
__device__ void stage_tile(struct rt_sphere *tile, const struct rt_sphere *spheres, unsigned base,
                           unsigned count)
{
    /* SOLUTION BEGIN: __syncthreads(); thread t copies spheres[base + k] to tile[k] for k =
     * t, t + blockDim.x, ... below count; __syncthreads(). */
    __syncthreads();
    for (unsigned k = threadIdx.x; k < count; k += blockDim.x)
        tile[k] = spheres[base + k];
    __syncthreads();
    /* SOLUTION END */
}

/* 4. Shared-memory tiles: the block copies RT_TILE spheres at a time from global memory
 * into shared memory, then every thread tests them there; the primary rays take one pass
 * over the tiles, each light's shadow rays another. Shared memory broadcasts one address
 * to a warp too. Costs the barriers (every thread of the block takes part in every pass,
 * even one outside the image or with nothing to test) and 8 KiB of shared memory per
 * block: the managed cache that constant memory gives for nothing. */
__global__ void raytracer_shared_tiles(unsigned *pixels, const struct rt_sphere *spheres,
                                       struct rt_scene sc)
{
    __shared__ struct rt_sphere tile[RT_TILE];
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int inside = i < (size_t)sc.width * sc.height;
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc.ambient;
    unsigned best = RT_NONE;
    struct rt_sphere hit = {}; /* set with best: the compiler cannot see that */
    if (inside)
        rt_origin((unsigned)(i % sc.width), (unsigned)(i / sc.width), sc.width, sc.height, o);
    /* SOLUTION BEGIN: for base = 0, RT_TILE, ... below sc.nspheres: stage_tile(tile, spheres,
     * base, count) with count = the tile's spheres (RT_TILE, or fewer in the last), then an
     * inside thread tests tile[0 .. count - 1] as kernel 1 does (index base + k), keeping
     * the closest sphere in hit. Then for each light: the same passes over the tiles for
     * the shadow rays of the inside threads that hit something, c > 0, four spheres at a
     * time as in kernel 1. Finally an inside thread writes its pixel. No thread may leave a pass early: stage_tile's barriers wait
     * for all of them. */
    for (unsigned base = 0; base < sc.nspheres; base += RT_TILE) {
        unsigned count = sc.nspheres - base < RT_TILE ? sc.nspheres - base : RT_TILE;
        stage_tile(tile, spheres, base, count);
        for (unsigned k = 0; inside && k < count; k++) {
            float t = rt_hit(tile[k], o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
            if (rt_closer(t, base + k, best_t, best)) {
                best_t = t;
                best = base + k;
                hit = tile[k];
            }
        }
    }
    if (best != RT_NONE)
        rt_surface(hit, o, best_t, p, n);
    for (unsigned l = 0; l < sc.nlights; l++) {
        float dist = 0.0f, c = 0.0f;
        int blocked;
        if (best != RT_NONE) {
            dist = rt_toward(sc.lights[l], p, dir);
            c = rt_cosine(n, dir);
        }
        blocked = !(c > 0.0f);
        for (unsigned base = 0; base < sc.nspheres; base += RT_TILE) {
            unsigned count = sc.nspheres - base < RT_TILE ? sc.nspheres - base : RT_TILE, k = 0;
            stage_tile(tile, spheres, base, count);
            for (; k + 4 <= count && !blocked; k += 4)
                blocked = rt_blocks(tile[k], p, dir, dist) | rt_blocks(tile[k + 1], p, dir, dist) |
                          rt_blocks(tile[k + 2], p, dir, dist) |
                          rt_blocks(tile[k + 3], p, dir, dist);
            for (; k < count && !blocked; k++)
                blocked = rt_blocks(tile[k], p, dir, dist);
        }
        light += sc.lights[l].power * (blocked ? 0.0f : c);
    }
    if (inside)
        pixels[i] = best == RT_NONE ? sc.background : rt_pixel(hit, light);
    /* SOLUTION END */
}

/* 5. Constant memory read wrongly: lane L of a warp starts at sphere L (mod n) and goes
 * round, so at each step the 32 lanes ask for up to 32 different spheres. The constant
 * cache serves one address per cycle: the warp's read splits into as many as there are
 * addresses, up to 32 times kernel 3's. The image is the same (rt_closer breaks ties by
 * index, and a shadow is a shadow in any order): only the order of the reads changed. */
__global__ void raytracer_constant_rotated(unsigned *pixels, struct rt_scene sc)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    float o[3], p[3], n[3], dir[3], best_t = 0.0f, light = sc.ambient;
    unsigned best = RT_NONE;
    if (i >= (size_t)sc.width * sc.height)
        return;
    rt_origin((unsigned)(i % sc.width), (unsigned)(i / sc.width), sc.width, sc.height, o);
    /* SOLUTION BEGIN: kernel 3 with the sphere of step k being s = (k + lane) % sc.nspheres,
     * in both loops (the index s goes to rt_closer). */
    for (unsigned k = 0; k < sc.nspheres; k++) {
        unsigned s = (k + lane) % sc.nspheres;
        float t = rt_hit(c_spheres[s], o[0], o[1], o[2], 0.0f, 0.0f, 1.0f);
        if (rt_closer(t, s, best_t, best)) {
            best_t = t;
            best = s;
        }
    }
    if (best == RT_NONE) {
        pixels[i] = sc.background;
        return;
    }
    rt_surface(c_spheres[best], o, best_t, p, n);
    for (unsigned l = 0; l < sc.nlights; l++) {
        float dist = rt_toward(sc.lights[l], p, dir), c = rt_cosine(n, dir);
        unsigned k = 0;
        int blocked = !(c > 0.0f);
        for (; k + 4 <= sc.nspheres && !blocked; k += 4)
            blocked = rt_blocks(c_spheres[(k + lane) % sc.nspheres], p, dir, dist) |
                      rt_blocks(c_spheres[(k + 1 + lane) % sc.nspheres], p, dir, dist) |
                      rt_blocks(c_spheres[(k + 2 + lane) % sc.nspheres], p, dir, dist) |
                      rt_blocks(c_spheres[(k + 3 + lane) % sc.nspheres], p, dir, dist);
        for (; k < sc.nspheres && !blocked; k++)
            blocked = rt_blocks(c_spheres[(k + lane) % sc.nspheres], p, dir, dist);
        light += sc.lights[l].power * (blocked ? 0.0f : c);
    }
    pixels[i] = rt_pixel(c_spheres[best], light);
    /* SOLUTION END */
}
