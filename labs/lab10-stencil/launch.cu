/* lab10's host API: the arguments checked, then the kernels of stencil.cu launched. heat()
 * is the double buffering: each launch reads one grid and writes the other, and the host
 * swaps the two between launches (a grid cannot be updated in place: a cell's neighbours
 * must still hold the old step when it reads them). */
#include <stdint.h>
#include "check.h"
#include "stencil.h"

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* buf holds n elements of `size` bytes (ints unless said). */
static int fits(struct gpu_buf buf, size_t n, size_t size = sizeof(int))
{
    return buf.ptr && n <= buf.bytes / size;
}

/* The first n elements of a and of b share memory. */
static int overlap(struct gpu_buf a, struct gpu_buf b, size_t n, size_t size = sizeof(int))
{
    uintptr_t p = (uintptr_t)a.ptr, q = (uintptr_t)b.ptr, bytes = n * size;
    return p < q + bytes && q < p + bytes;
}

extern "C" int stencil_line(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out, size_t n)
{
    const int *x = (const int *)in.ptr;
    int *y = (int *)out.ptr;
    if ((unsigned)v >= STENCIL_VARIANTS || stencil_facts[v].kind == GRID_HEAT)
        return LAB_EINVAL;
    if (n == 0)
        return LAB_OK;
    if (!fits(in, n) || !fits(out, n) || overlap(in, out, n) ||
        div_up(n, LINE_THREADS) > 0x7fffffffu)
        return LAB_EINVAL;
    /* a block per LINE_THREADS elements for the naive kernel, per LINE_TILE for the tiles */
    unsigned blocks = (unsigned)div_up(n, LINE_THREADS), tiles = (unsigned)div_up(n, LINE_TILE);
    switch (v) {
    case ST_ADJACENT_NAIVE:
        adjacent_naive<<<blocks, LINE_THREADS>>>(x, y, n);
        break;
    case ST_ADJACENT_SHARED:
        adjacent_shared<<<tiles, LINE_THREADS>>>(x, y, n);
        break;
    case ST_STENCIL1D_HALO:
        stencil1d_halo<<<tiles, LINE_THREADS>>>(x, y, n);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" size_t heat_pitch(size_t width)
{
    return div_up(width, HEAT_ROW_ALIGN) * HEAT_ROW_ALIGN;
}

/* Sources inside the grid, within the temperatures, one a cell at most (two on a cell would
 * be two threads racing to write it). */
static int sources_ok(const struct heat_source *s, size_t count, size_t width, size_t height)
{
    if (count > HEAT_MAX_SOURCES || (count && !s))
        return 0;
    for (size_t i = 0; i < count; i++) {
        if (s[i].x >= width || s[i].y >= height || s[i].temp > HEAT_MAX_TEMP ||
            s[i].temp < -HEAT_MAX_TEMP)
            return 0;
        for (size_t j = 0; j < i; j++)
            if (s[j].x == s[i].x && s[j].y == s[i].y)
                return 0;
    }
    return 1;
}

/* A texture over pitched memory needs its start and its pitch in bytes (`pitch` elements of
 * `size` bytes) to be multiples of the device's texture pitch alignment (32 bytes on recent
 * GPUs). */
static int texture_aligned(const void *p, size_t pitch, int *ok, size_t size = sizeof(int))
{
    int dev, align;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&align, cudaDevAttrTexturePitchAlignment, dev));
    *ok = *ok && (uintptr_t)p % align == 0 && pitch * size % align == 0;
    return LAB_OK;
}

/* A texture object over a pitched 2D array of T, `pitch` elements a row: T as it is, no
 * filtering, unnormalised coordinates, clamped on both axes. heat_texture's clamp is the
 * insulated edge, sobel_texture's the replicated border. */
template <class T>
static int pitched_texture(const T *data, size_t width, size_t height, size_t pitch,
                           cudaTextureObject_t *tex)
{
    cudaResourceDesc res = {};
    cudaTextureDesc desc = {};
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = (void *)data;
    res.res.pitch2D.desc = cudaCreateChannelDesc<T>();
    res.res.pitch2D.width = width;
    res.res.pitch2D.height = height;
    res.res.pitch2D.pitchInBytes = pitch * sizeof(T);
    desc.addressMode[0] = desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    CUDA_TRY(cudaCreateTextureObject(tex, &res, &desc, NULL));
    return LAB_OK;
}

/* The grids a run reads from: in, then out and scratch in turn. */
struct grids {
    const int *in;
    int *out, *scratch;
    cudaTextureObject_t tex[3]; /* heat_texture's, over in, out and scratch (0: none) */
};

/* The one-step kernels: blocks of HEAT_BX x HEAT_BY threads, each HEAT_BX x HEAT_TY cells;
 * heat_temporal: blocks of HEAT_BX x HEAT_T_BY threads, each its HEAT_T_OW x HEAT_T_OH output,
 * with HEAT_T_SMEM bytes of shared memory (past 48 KB with the device's consent). */
static int run_steps(enum stencil_variant v, const struct grids *g, unsigned width, unsigned height,
                     size_t pitch, unsigned nsources, unsigned steps)
{
    unsigned per = stencil_facts[v].steps, launches = (unsigned)div_up(steps, per);
    bool temporal = v == ST_HEAT_TEMPORAL;
    dim3 block(HEAT_BX, temporal ? HEAT_T_BY : HEAT_BY);
    dim3 grid((unsigned)div_up(width, temporal ? HEAT_T_OW : HEAT_BX),
              (unsigned)div_up(height, temporal ? HEAT_T_OH : HEAT_TY));
    if (temporal && HEAT_T_SMEM > 48 << 10)
        CUDA_TRY(cudaFuncSetAttribute(heat_temporal, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)HEAT_T_SMEM));
    const int *from = g->in;
    for (unsigned l = 0; l < launches; l++) {
        int *to = (launches - 1 - l) % 2 ? g->scratch : g->out; /* the last writes out */
        cudaTextureObject_t tex = g->tex[from == g->in ? 0 : from == g->out ? 1 : 2];
        switch (v) {
        case ST_HEAT_GLOBAL:
            heat_global<<<grid, block>>>(from, to, width, height, pitch);
            break;
        case ST_HEAT_SHARED:
            heat_shared<<<grid, block>>>(from, to, width, height, pitch);
            break;
        case ST_HEAT_TEXTURE:
            heat_texture<<<grid, block>>>(tex, to, width, height, pitch);
            break;
        case ST_HEAT_TEMPORAL:
            heat_temporal<<<grid, block, HEAT_T_SMEM>>>(
                from, to, width, height, pitch, l + 1 < launches ? per : steps - l * per, nsources);
            break;
        default:
            return LAB_EINVAL;
        }
        CUDA_TRY_LAUNCH();
        if (!temporal && nsources) { /* heat_temporal sets the sources after each of its steps */
            heat_reimpose<<<(unsigned)div_up(nsources, 256), 256>>>(to, pitch, nsources);
            CUDA_TRY_LAUNCH();
        }
        from = to;
    }
    return LAB_OK;
}

/* heat_texture's run: a texture object over each grid it reads (in, then scratch and out in
 * turn: scratch from 2 steps, out from 3), destroyed once its launches are done. */
static int run_texture(const struct grids *g, unsigned width, unsigned height, size_t pitch,
                       unsigned nsources, unsigned steps)
{
    struct grids t = *g;
    const int *read[3] = {g->in, steps > 2 ? g->out : NULL, steps > 1 ? g->scratch : NULL};
    int status = LAB_OK, made = 0;
    cudaError_t err;
    while (made < 3 && status == LAB_OK)
        if (!read[made] ||
            (status = pitched_texture(read[made], width, height, pitch, &t.tex[made])) == LAB_OK)
            made++;
    if (status == LAB_OK)
        status = run_steps(ST_HEAT_TEXTURE, &t, width, height, pitch, nsources, steps);
    if ((err = cudaStreamSynchronize(0)) != cudaSuccess && status == LAB_OK)
        status = cuda_report(err, "heat_texture's launches", __FILE__, __LINE__);
    for (int k = 0; k < made; k++)
        if (read[k] && (err = cudaDestroyTextureObject(t.tex[k])) != cudaSuccess &&
            status == LAB_OK)
            status = cuda_report(err, "cudaDestroyTextureObject", __FILE__, __LINE__);
    return status;
}

extern "C" int heat(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out,
                    struct gpu_buf scratch, size_t width, size_t height, size_t pitch,
                    const struct heat_source *sources, size_t nsources, unsigned steps)
{
    struct grids g = {(const int *)in.ptr, (int *)out.ptr, (int *)scratch.ptr, {0, 0, 0}};
    size_t cells;
    int aligned = 1;
    if ((unsigned)v >= STENCIL_VARIANTS || stencil_facts[v].kind != GRID_HEAT || steps == 0 ||
        width > HEAT_MAX_SIDE || height > HEAT_MAX_SIDE || pitch < width)
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if (pitch > SIZE_MAX / sizeof(int) / height)
        return LAB_EINVAL;
    cells = pitch * height;
    if (!fits(in, cells) || !fits(out, cells) || overlap(in, out, cells) ||
        (steps > 1 &&
         (!fits(scratch, cells) || overlap(scratch, in, cells) || overlap(scratch, out, cells))) ||
        !sources_ok(sources, nsources, width, height))
        return LAB_EINVAL;
    if (v == ST_HEAT_TEXTURE) {
        if (texture_aligned(in.ptr, pitch, &aligned) != LAB_OK ||
            texture_aligned(out.ptr, pitch, &aligned) != LAB_OK ||
            (steps > 1 && texture_aligned(scratch.ptr, pitch, &aligned) != LAB_OK))
            return LAB_ECUDA;
        if (!aligned)
            return LAB_EINVAL;
    }
    CUDA_TRY(heat_sources_to_device(sources, (unsigned)nsources));
    if (v == ST_HEAT_TEXTURE)
        return run_texture(&g, (unsigned)width, (unsigned)height, pitch, (unsigned)nsources, steps);
    return run_steps(v, &g, (unsigned)width, (unsigned)height, pitch, (unsigned)nsources, steps);
}

extern "C" size_t sobel_pitch(size_t width)
{
    return div_up(width, SOBEL_ROW_ALIGN) * SOBEL_ROW_ALIGN;
}

/* sobel_texture's run: a texture object over the image, destroyed once the launch is done. */
static int run_sobel_texture(const unsigned char *in, unsigned char *out, unsigned width,
                             unsigned height, size_t pitch, dim3 grid, dim3 block)
{
    cudaTextureObject_t tex;
    cudaError_t err;
    int status = pitched_texture(in, width, height, pitch, &tex);
    if (status != LAB_OK)
        return status;
    sobel_texture<<<grid, block>>>(tex, out, width, height, pitch);
    if ((err = cudaGetLastError()) != cudaSuccess)
        status = cuda_report(err, "sobel_texture's launch", __FILE__, __LINE__);
    if ((err = cudaStreamSynchronize(0)) != cudaSuccess && status == LAB_OK)
        status = cuda_report(err, "sobel_texture's launch", __FILE__, __LINE__);
    if ((err = cudaDestroyTextureObject(tex)) != cudaSuccess && status == LAB_OK)
        status = cuda_report(err, "cudaDestroyTextureObject", __FILE__, __LINE__);
    return status;
}

/* Blocks of SOBEL_BX x SOBEL_BY threads, each SOBEL_BX x SOBEL_TY pixels. */
extern "C" int sobel(enum stencil_variant v, struct gpu_buf in, struct gpu_buf out, size_t width,
                     size_t height, size_t pitch)
{
    const unsigned char *x = (const unsigned char *)in.ptr;
    unsigned char *y = (unsigned char *)out.ptr;
    size_t bytes;
    int aligned = 1;
    if ((unsigned)v >= STENCIL_VARIANTS || stencil_facts[v].kind != IMAGE_SOBEL ||
        width > SOBEL_MAX_SIDE || height > SOBEL_MAX_SIDE || pitch < width)
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if (pitch > SIZE_MAX / height)
        return LAB_EINVAL;
    bytes = pitch * height;
    if (!fits(in, bytes, 1) || !fits(out, bytes, 1) || overlap(in, out, bytes, 1))
        return LAB_EINVAL;
    dim3 block(SOBEL_BX, SOBEL_BY);
    dim3 grid((unsigned)div_up(width, SOBEL_BX), (unsigned)div_up(height, SOBEL_TY));
    switch (v) {
    case ST_SOBEL_SHARED:
        sobel_shared<<<grid, block>>>(x, y, (unsigned)width, (unsigned)height, pitch);
        break;
    case ST_SOBEL_TEXTURE:
        if (texture_aligned(x, pitch, &aligned, 1) != LAB_OK)
            return LAB_ECUDA;
        if (!aligned)
            return LAB_EINVAL;
        return run_sobel_texture(x, y, (unsigned)width, (unsigned)height, pitch, grid, block);
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
