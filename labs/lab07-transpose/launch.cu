/* lab07's host API: the arguments checked, the grid made from the variant's tile (the
 * table of transpose.h), then the kernel of transpose.cu launched. */
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
