/* lab07's host API: the arguments checked, the grid made from the variant's tile (the
 * table of transpose.h), then the kernel of transpose.cu launched; and for the occupancy
 * step, each variant's kernel and the dynamic shared memory a block of it may take. */
#include <stdint.h>
#include "check.h"
#include "transpose.h"

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* tiles_x blocks across and tiles_y down, the latter folded into gridDim.z past gridDim.y's
 * limit. The limit (65535 on every GPU so far) is the device's to say: the CPU backend's
 * tests make it small, to fold grids at sizes they run in seconds. */
static int tile_grid(size_t tiles_x, size_t tiles_y, dim3 *grid)
{
    int dev, most;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxGridDimY, dev));
    size_t limit = (size_t)most, y = tiles_y < limit ? tiles_y : limit;
    size_t z = div_up(tiles_y, y);
    if (tiles_x > 0x7fffffffu || z > limit)
        return LAB_EINVAL;
    *grid = dim3((unsigned)tiles_x, (unsigned)y, (unsigned)z);
    return LAB_OK;
}

/* LAB_OK when a width x height matrix of elem-byte elements fits both buffers, which do
 * not overlap (a block may read what another has already written in place). */
static int check_buffers(struct gpu_buf in, struct gpu_buf out, size_t width, size_t height,
                         size_t elem)
{
    size_t bytes = width * height * elem;
    uintptr_t i = (uintptr_t)in.ptr, o = (uintptr_t)out.ptr;
    if (!in.ptr || !out.ptr || bytes > in.bytes || bytes > out.bytes)
        return LAB_EINVAL;
    if (i < o + bytes && o < i + bytes)
        return LAB_EINVAL;
    return LAB_OK;
}

static int too_big(size_t width, size_t height, size_t elem)
{
    return height > 0 && width > SIZE_MAX / elem / height;
}

/* Rows of `cols` elements of elem bytes from p all start on an `align`-byte boundary. */
static bool rows_aligned(const void *p, size_t cols, size_t elem, size_t align)
{
    return (uintptr_t)p % align == 0 && cols * elem % align == 0;
}

static int launch(enum transpose_variant v, const void *in, void *out, size_t width, size_t height)
{
    const struct transpose_facts *f = &transpose_facts[v];
    const float *fin = (const float *)in;
    const uint8_t *bin = (const uint8_t *)in;
    float *fout = (float *)out;
    uint8_t *bout = (uint8_t *)out;
    dim3 block(f->threads_x, f->threads_y), grid;
    if (tile_grid(div_up(f->over_out ? height : width, f->tile_w),
                  div_up(f->over_out ? width : height, f->tile_h), &grid) != LAB_OK)
        return LAB_EINVAL;
    switch (v) {
    case TR_COPY:
        copy_tile<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_COPY_SHARED:
        copy_shared<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_NAIVE_ROWS:
        transpose_naive_rows<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_NAIVE_COLS:
        transpose_naive_cols<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_TILED:
        transpose_tiled<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_TILED_PADDED:
        transpose_tiled_padded<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_SHUFFLE:
        transpose_shuffle<<<grid, block>>>(fin, fout, width, height,
                                           rows_aligned(out, height, 4, 16));
        break;
    case TR_TILED_64:
        transpose_tiled_64<<<grid, block>>>(fin, fout, width, height);
        break;
    case TR_TILED_64_FLOAT2:
        transpose_tiled_64_float2<<<grid, block>>>(fin, fout, width, height,
                                                   rows_aligned(in, width, 4, 8),
                                                   rows_aligned(out, height, 4, 8));
        break;
    case TR_U8_COPY: /* word copies: in's rows and out's rows are the same */
        copy_u8_words<<<grid, block>>>(bin, bout, width, height,
                                       rows_aligned(in, width, 1, 4) && (uintptr_t)out % 4 == 0);
        break;
    case TR_U8_TILED_PADDED:
        transpose_u8_tiled_padded<<<grid, block>>>(bin, bout, width, height);
        break;
    case TR_U8_WORDS:
        transpose_u8_words<<<grid, block>>>(bin, bout, width, height, rows_aligned(in, width, 1, 4),
                                            rows_aligned(out, height, 1, 4));
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int transpose(enum transpose_variant v, struct gpu_buf in, struct gpu_buf out,
                         size_t width, size_t height)
{
    int status;
    if ((unsigned)v >= TR_VARIANTS || too_big(width, height, transpose_facts[v].elem))
        return LAB_EINVAL;
    if (width == 0 || height == 0)
        return LAB_OK;
    if ((status = check_buffers(in, out, width, height, transpose_facts[v].elem)) != LAB_OK)
        return status;
    return launch(v, in.ptr, out.ptr, width, height);
}

/* ------------------------------------------------------------- occupancy, measured */

/* Each variant's kernel. No default: a variant added to transpose.h's table and not here is a
 * -Wswitch warning, an error in CI. */
const void *variant_kernel(enum transpose_variant v)
{
    switch (v) {
    case TR_COPY:
        return (const void *)copy_tile;
    case TR_COPY_SHARED:
        return (const void *)copy_shared;
    case TR_NAIVE_ROWS:
        return (const void *)transpose_naive_rows;
    case TR_NAIVE_COLS:
        return (const void *)transpose_naive_cols;
    case TR_TILED:
        return (const void *)transpose_tiled;
    case TR_TILED_PADDED:
        return (const void *)transpose_tiled_padded;
    case TR_SHUFFLE:
        return (const void *)transpose_shuffle;
    case TR_TILED_64:
        return (const void *)transpose_tiled_64;
    case TR_TILED_64_FLOAT2:
        return (const void *)transpose_tiled_64_float2;
    case TR_U8_COPY:
        return (const void *)copy_u8_words;
    case TR_U8_TILED_PADDED:
        return (const void *)transpose_u8_tiled_padded;
    case TR_U8_WORDS:
        return (const void *)transpose_u8_words;
    case TR_VARIANTS:
        break;
    }
    return NULL;
}

/* The largest block the device allows a kernel that asks for it (227 KiB on an H100), less
 * the kernel's static shared memory (tiled_padded's 32 x 33 floats). */
static int extra_most(const void *kernel, size_t *bytes)
{
    cudaFuncAttributes attr;
    int dev, most;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    *bytes = (size_t)most > attr.sharedSizeBytes ? (size_t)most - attr.sharedSizeBytes : 0;
    return LAB_OK;
}

/* Past 48 KiB a block, static and dynamic together, a kernel must ask: the launch fails, and
 * the occupancy calculator counts no block, for more than the kernel's limit, which is set
 * here to exactly `extra`. */
int allow_extra_smem(const void *kernel, size_t extra)
{
    size_t most;
    int status;
    if ((status = extra_most(kernel, &most)) != LAB_OK)
        return status;
    if (extra > most)
        return LAB_EINVAL;
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)extra));
    return LAB_OK;
}

extern "C" int transpose_extra_most(enum transpose_variant v, size_t *bytes)
{
    const void *kernel = variant_kernel(v);
    if (!kernel || !bytes)
        return LAB_EINVAL;
    return extra_most(kernel, bytes);
}

extern "C" int transpose_padded_extra(struct gpu_buf in, struct gpu_buf out, size_t width,
                                      size_t height, size_t extra)
{
    const struct transpose_facts *f = &transpose_facts[TR_TILED_PADDED];
    dim3 grid;
    int status;
    if (too_big(width, height, f->elem))
        return LAB_EINVAL;
    if ((status = allow_extra_smem((const void *)transpose_tiled_padded, extra)) != LAB_OK)
        return status;
    if (width == 0 || height == 0)
        return LAB_OK;
    if ((status = check_buffers(in, out, width, height, f->elem)) != LAB_OK)
        return status;
    if (tile_grid(div_up(width, f->tile_w), div_up(height, f->tile_h), &grid) != LAB_OK)
        return LAB_EINVAL;
    return launch_padded_extra(grid, dim3(f->threads_x, f->threads_y), (const float *)in.ptr,
                               (float *)out.ptr, width, height, extra);
}
