/* lab08's host API: the arguments checked against the table of repeater.h, the grids
 * chosen, then the kernels of repeater.cu launched; and the two rows without a kernel of
 * ours, cudaMemcpy2D's doubling and cudaMemset. */
#include <stdint.h>
#include "check.h"
#include "repeater.h"

enum { MAX_GRID_Y = 65535, MAX_BLOCKS = 1 << 20 };

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

static size_t least(size_t x, size_t y)
{
    return x < y ? x : y;
}

/* count floats from buf.ptr fit in buf, which holds floats (4-byte aligned). */
static int holds(struct gpu_buf buf, size_t count)
{
    return buf.ptr && (uintptr_t)buf.ptr % sizeof(float) == 0 && count <= buf.bytes / sizeof(float);
}

/* The shape and the buffers, as repeat_tile's comment says. */
static int shape_ok(struct gpu_buf target, size_t width, size_t height, struct gpu_buf repeater,
                    size_t rw, size_t rh)
{
    if (rw == 0 || rh == 0 || rw > REPEATER_MAX_SIDE || rh > REPEATER_MAX_SIDE ||
        rw * rh > REPEATER_MAX_CELLS || width > REPEATER_MAX_SIDE || height > REPEATER_MAX_SIDE)
        return 0;
    return holds(repeater, rw * rh) && (width * height == 0 || holds(target, width * height));
}

/* 32 x 8 blocks over columns x rows; gridDim.y capped, the kernels stride over the rest. */
static dim3 grid_2d(size_t columns, size_t rows)
{
    return dim3((unsigned)div_up(columns, TILE_THREADS_X),
                (unsigned)least(div_up(rows, TILE_THREADS_Y), MAX_GRID_Y));
}

/* Lets kernel use bytes of dynamic shared memory: LAB_EINVAL when a block cannot have so
 * many; beyond the default 48 KiB a kernel must ask for them. */
static int shared_memory(const void *kernel, size_t bytes)
{
    int dev, most;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (bytes > (size_t)most)
        return LAB_EINVAL;
    if (bytes > 48 * 1024)
        CUDA_TRY(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    return LAB_OK;
}

/* tile_rows_vec4's blocks: at least as many as fit on the GPU at once with smem bytes each,
 * rounded up to a multiple of rh, so that the rows a block strides over (blockIdx.x, + the
 * grid, ...) all come from one row of the repeater, which it stages once; no more than the
 * rows (then a block has one row). */
static int row_blocks(unsigned height, unsigned rh, size_t smem, unsigned *blocks)
{
    int dev, sms, per_sm;
    size_t fit;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tile_rows_vec4, ROW_THREADS, smem));
    fit = (size_t)sms * (per_sm > 0 ? per_sm : 1);
    *blocks = (unsigned)least((fit + rh - 1) / rh * rh, height);
    return LAB_OK;
}

static int launch_tile(enum repeater_variant v, float *t, unsigned w, unsigned h, const float *r,
                       unsigned rw, unsigned rh)
{
    dim3 block(TILE_THREADS_X, TILE_THREADS_Y);
    size_t smem = 0;
    unsigned blocks;
    int status;
    if (v == TILE_SHARED_MISTAKE)
        smem = (size_t)rw * rh * sizeof(float);
    if (v == TILE_ROWS_VEC4)
        smem = (rw + 3) * sizeof(float);
    if (smem && (status = shared_memory(v == TILE_ROWS_VEC4 ? (const void *)tile_rows_vec4
                                                            : (const void *)tile_shared_mistake,
                                        smem)) != LAB_OK)
        return status;
    switch (v) {
    case TILE_MODULO:
        tile_modulo<<<grid_2d(w, h), block>>>(t, w, h, r, rw, rh);
        break;
    case TILE_SHARED_MISTAKE:
        tile_shared_mistake<<<grid_2d(w, h), block, smem>>>(t, w, h, r, rw, rh);
        break;
    case TILE_GRID_OVER_REPEATER:
        tile_grid_over_repeater<<<grid_2d(least(rw, w), least(rh, h)), block>>>(t, w, h, r, rw, rh);
        break;
    case TILE_ROWS_VEC4:
        if ((status = row_blocks(h, rh, smem, &blocks)) != LAB_OK)
            return status;
        tile_rows_vec4<<<blocks, ROW_THREADS, smem>>>(t, w, h, r, rw, rh);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int repeat_tile(enum repeater_variant v, struct gpu_buf target, size_t width,
                           size_t height, struct gpu_buf repeater, size_t rw, size_t rh)
{
    if ((unsigned)v >= REPEATER_VARIANTS || repeater_facts[v].lattice ||
        !shape_ok(target, width, height, repeater, rw, rh))
        return LAB_EINVAL;
    if (width * height == 0)
        return LAB_OK;
    return launch_tile(v, (float *)target.ptr, (unsigned)width, (unsigned)height,
                       (const float *)repeater.ptr, (unsigned)rw, (unsigned)rh);
}

extern "C" size_t repeat_scratch_bytes(enum repeater_variant v, size_t width, size_t height)
{
    if ((v != LATTICE_SCATTER_ATOMIC && v != LATTICE_PERIODIC) || width > REPEATER_MAX_SIDE ||
        height > REPEATER_MAX_SIDE)
        return 0;
    return width * height * sizeof(float); /* a count, or a float, per point */
}

static int gather(float *t, unsigned w, unsigned h, const float *r, const struct lattice *l)
{
    lattice_gather<<<grid_2d(w, h), dim3(TILE_THREADS_X, TILE_THREADS_Y)>>>(t, w, h, r, *l);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* The largest row that tile_rows_vec4 can stage in shared memory. */
static int row_fits(size_t rw, int *fits)
{
    int dev, most;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    *fits = (rw + 3) * sizeof(float) <= (size_t)most;
    return LAB_OK;
}

/* The target repeats every px columns and py rows (repeater.h): the gather fills one period,
 * its top-left min(px, W) x min(py, H) corner, in the scratch, and case 1's fastest kernel
 * tiles it over the target; the same sums in the same order, so the same bits. A period
 * that covers most of the target, or whose rows do not fit in shared memory, is gathered
 * in place. */
static int periodic(float *t, float *tile, unsigned w, unsigned h, const float *r,
                    const struct lattice *l)
{
    unsigned tw = (unsigned)least((size_t)l->px, w), th = (unsigned)least((size_t)l->py, h);
    int fits, status;
    if ((status = row_fits(tw, &fits)) != LAB_OK)
        return status;
    if (!fits || (size_t)tw * th > (size_t)w * h / 2)
        return gather(t, w, h, r, l);
    if ((status = gather(tile, tw, th, r, l)) != LAB_OK)
        return status;
    return launch_tile(TILE_ROWS_VEC4, t, w, h, tile, tw, th);
}

/* 2.4: sum (the target) and count zeroed, a block per copy of the plan's box, then the
 * division. */
static int scatter(float *t, unsigned *count, unsigned w, unsigned h, const float *r,
                   const struct lattice *l)
{
    long a0, na, b0, nb;
    size_t n = (size_t)w * h;
    lattice_copies(l, w, h, &a0, &na, &b0, &nb);
    if (na <= 0 || nb <= 0)
        return LAB_OK; /* no copy touches the target: all 0, as zeroed */
    if ((size_t)na * (size_t)nb > 0x7fffffffu)
        return LAB_EINVAL;
    lattice_scatter_atomic<<<(unsigned)(na * nb), ROW_THREADS>>>(t, count, w, h, r, *l, (int)a0,
                                                                 (int)b0, (unsigned)nb);
    CUDA_TRY_LAUNCH();
    lattice_normalise<<<(unsigned)least(div_up(n, ROW_THREADS), MAX_BLOCKS), ROW_THREADS>>>(
        t, count, n);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int repeat_lattice(enum repeater_variant v, struct gpu_buf target, size_t width,
                              size_t height, struct gpu_buf repeater, size_t rw, size_t rh, int ux,
                              int uy, int vx, int vy, struct gpu_buf scratch)
{
    struct lattice l;
    float *t = (float *)target.ptr;
    size_t n = width * height;
    if ((unsigned)v >= REPEATER_VARIANTS || !repeater_facts[v].lattice ||
        !shape_ok(target, width, height, repeater, rw, rh) ||
        lattice_plan(&l, ux, uy, vx, vy, rw, rh) != LAB_OK)
        return LAB_EINVAL;
    if (v != LATTICE_GATHER && n && !holds(scratch, n))
        return LAB_EINVAL;
    if (n == 0)
        return LAB_OK;
    if (v == LATTICE_GATHER)
        return gather(t, (unsigned)width, (unsigned)height, (const float *)repeater.ptr, &l);
    if (v == LATTICE_PERIODIC)
        return periodic(t, (float *)scratch.ptr, (unsigned)width, (unsigned)height,
                        (const float *)repeater.ptr, &l);
    CUDA_TRY(cudaMemsetAsync(t, 0, n * sizeof(float)));
    CUDA_TRY(cudaMemsetAsync(scratch.ptr, 0, n * sizeof(unsigned)));
    return scatter(t, (unsigned *)scratch.ptr, (unsigned)width, (unsigned)height,
                   (const float *)repeater.ptr, &l);
}

/* Copies columns [0, cols) of rows [0, rows) of the target to columns [x, x + cols) of rows
 * [y, y + rows): the filled region is there already, the rest is its repetition. */
static int copy_region(float *t, size_t width, size_t cols, size_t rows, size_t x, size_t y)
{
    size_t pitch = width * sizeof(float);
    CUDA_TRY(cudaMemcpy2DAsync(t + y * width + x, pitch, t, pitch, cols * sizeof(float), rows,
                               cudaMemcpyDeviceToDevice));
    return LAB_OK;
}

extern "C" int repeat_tile_memcpy2d(struct gpu_buf target, size_t width, size_t height,
                                    struct gpu_buf repeater, size_t rw, size_t rh)
{
    float *t = (float *)target.ptr;
    size_t w = least(rw, width), h = least(rh, height);
    int status;
    if (!shape_ok(target, width, height, repeater, rw, rh))
        return LAB_EINVAL;
    if (width * height == 0)
        return LAB_OK;
    CUDA_TRY(cudaMemcpy2DAsync(t, width * sizeof(float), repeater.ptr, rw * sizeof(float),
                               w * sizeof(float), h, cudaMemcpyDeviceToDevice));
    /* w and h stay multiples of rw and rh until the last, clipped, copy */
    for (; w < width; w *= 2)
        if ((status = copy_region(t, width, least(w, width - w), h, w, 0)) != LAB_OK)
            return status;
    for (; h < height; h *= 2)
        if ((status = copy_region(t, width, width, least(h, height - h), 0, h)) != LAB_OK)
            return status;
    return LAB_OK;
}

extern "C" int repeat_memset(struct gpu_buf target, size_t width, size_t height)
{
    if (width > REPEATER_MAX_SIDE || height > REPEATER_MAX_SIDE ||
        (width * height != 0 && !holds(target, width * height)))
        return LAB_EINVAL;
    CUDA_TRY(cudaMemsetAsync(target.ptr, 0, width * height * sizeof(float)));
    return LAB_OK;
}
