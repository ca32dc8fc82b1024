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
    /* TODO: copy n spheres from the device buffer to c_spheres with
     * cudaMemcpyToSymbolAsync (offset 0, kind cudaMemcpyDeviceToDevice: the spheres are
     * already on the device), keeping its status in err. */
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
    /* TODO: the closest hit: for each sphere k < sc.nspheres, t = rt_hit(spheres[k],
     * o[0], o[1], o[2], 0, 0, 1) (the ray runs along +z); when rt_closer(t, k, best_t, best),
     * keep t and k. No hit: the pixel is sc.background. Else rt_surface(spheres[best], o,
     * best_t, p, n), and for each light l: dist = rt_toward(sc.lights[l], p, dir), c =
     * rt_cosine(n, dir), blocked = !(c > 0) (no light from behind); while not blocked, test
     * four spheres k .. k + 3 at a time, blocked = rt_blocks of the first | the second | the
     * third | the fourth (p, dir, dist each), then the last spheres one at a time; light +=
     * sc.lights[l].power * (blocked ? 0 : c). The pixel is rt_pixel(spheres[best], light). */
}

/* A sphere through the read-only (texture) path: two 16-byte __ldg loads. */
__device__ struct rt_sphere ldg_sphere(const struct rt_sphere *__restrict__ s)
{
    struct rt_sphere out;
    /* TODO: a = __ldg((const float4 *)s) and b = __ldg((const float4 *)s + 1):
     * out's x, y, z, r from a's x, y, z, w, and red, green, blue, pad from b's. */
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
    /* TODO: kernel 1, every sphere read as ldg_sphere(spheres + k) (the hit
     * sphere once, into hit). */
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
    /* TODO: kernel 1 with c_spheres in place of spheres. */
}

/* Spheres base .. base + count - 1 into the block's tile: every thread of the block calls
 * it, the first barrier so that no thread still reads the previous tile, the second so
 * that the whole tile is there before anyone reads it. */
__device__ void stage_tile(struct rt_sphere *tile, const struct rt_sphere *spheres, unsigned base,
                           unsigned count)
{
    /* TODO: __syncthreads(); thread t copies spheres[base + k] to tile[k] for k =
     * t, t + blockDim.x, ... below count; __syncthreads(). */
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
    /* TODO: for base = 0, RT_TILE, ... below sc.nspheres: stage_tile(tile, spheres,
     * base, count) with count = the tile's spheres (RT_TILE, or fewer in the last), then an
     * inside thread tests tile[0 .. count - 1] as kernel 1 does (index base + k), keeping
     * the closest sphere in hit. Then for each light: the same passes over the tiles for
     * the shadow rays of the inside threads that hit something, c > 0, four spheres at a
     * time as in kernel 1. Finally an inside thread writes its pixel. No thread may leave a pass early: stage_tile's barriers wait
     * for all of them. */
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
    /* TODO: kernel 3 with the sphere of step k being s = (k + lane) % sc.nspheres,
     * in both loops (the index s goes to rt_closer). */
}
