/* lab02's host API: the arguments checked, then the kernels of mandelbrot.cu launched. */
#include <math.h>
#include "check.h"
#include "mandelbrot.h"

static const unsigned PERSISTENT_THREADS = 256; /* eight warps, each on its own tiles */
static const unsigned MAX_GRID_Y = 65535;

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* A block shape from its number: width * 1000 + height (so a height below 1000), at most
 * 1024 threads. */
static int shape_block(unsigned shape, dim3 *block)
{
    unsigned w = shape / 1000, h = shape % 1000;
    if (w == 0 || h == 0 || w > 1024 || w * h > 1024)
        return 0;
    *block = dim3(w, h);
    return 1;
}

static int valid(const struct mandelbrot_image *img, struct gpu_buf counts)
{
    if (!img || !counts.ptr || img->maxiter == 0)
        return 0;
    if (img->width == 0 || img->height == 0 || img->width > MANDELBROT_MAX_SIDE ||
        img->height > MANDELBROT_MAX_SIDE)
        return 0;
    if (img->width * img->height > counts.bytes / sizeof(unsigned))
        return 0;
    if (!isfinite(img->x0) || !isfinite(img->y0) || !isfinite(img->x1) || !isfinite(img->y1))
        return 0;
    return img->x0 < img->x1 && img->y0 < img->y1 && isfinite(img->x1 - img->x0) &&
           isfinite(img->y1 - img->y0);
}

/* The counter of the tiled kernels' tiles: a variable of the GPU's own, zeroed before each
 * launch (a launch leaves it past the last tile). */
__device__ unsigned next_tile_counter;

/* persistent_tiles or combined: as many blocks as fit on the GPU at once, fewer for a small
 * image. */
static int launch_tiles(enum mandelbrot_variant v, unsigned *counts, struct mandelbrot_frame f)
{
    int dev, sms, per_sm;
    size_t tiles = div_up(f.width, 8) * div_up(f.height, 4);
    unsigned blocks, *next_tile;
    if (tiles > 0x7fffffffu) /* the counter passes the last tile by a draw per warp */
        return LAB_EINVAL;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (v == MB_COMBINED)
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mandelbrot_combined,
                                                               PERSISTENT_THREADS, 0));
    else
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mandelbrot_persistent_tiles,
                                                               PERSISTENT_THREADS, 0));
    blocks = (unsigned)sms * (unsigned)per_sm;
    if (blocks > div_up(tiles, PERSISTENT_THREADS / 32))
        blocks = (unsigned)div_up(tiles, PERSISTENT_THREADS / 32);
    CUDA_TRY(cudaGetSymbolAddress((void **)&next_tile, next_tile_counter));
    CUDA_TRY(cudaMemsetAsync(next_tile, 0, sizeof *next_tile));
    if (v == MB_COMBINED)
        mandelbrot_combined<<<blocks, PERSISTENT_THREADS>>>(counts, f, next_tile);
    else
        mandelbrot_persistent_tiles<<<blocks, PERSISTENT_THREADS>>>(counts, f, next_tile);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* A 2D grid of shape-sized blocks over the image; an image taller than 65535 blocks goes
 * in several launches of at most that many rows of blocks, each told its first row. */
static int launch_grid(enum mandelbrot_variant v, unsigned *counts, struct mandelbrot_frame f,
                       dim3 block)
{
    size_t rows = (size_t)MAX_GRID_Y * block.y;
    for (size_t row0 = 0; row0 < f.height; row0 += rows) {
        dim3 grid((unsigned)div_up(f.width, block.x),
                  (unsigned)div_up(f.height - row0 < rows ? f.height - row0 : rows, block.y));
        f.row0 = (unsigned)row0;
        switch (v) {
        case MB_PER_PIXEL:
            mandelbrot_per_pixel<<<grid, block>>>(counts, f);
            break;
        case MB_PER_PIXEL_DOUBLE:
            mandelbrot_per_pixel_double<<<grid, block>>>(counts, f);
            break;
        case MB_INTERIOR_TESTS:
            mandelbrot_interior_tests<<<grid, block>>>(counts, f);
            break;
        case MB_PERIODICITY:
            mandelbrot_periodicity<<<grid, block>>>(counts, f);
            break;
        default:
            return LAB_EINVAL;
        }
        CUDA_TRY_LAUNCH();
    }
    return LAB_OK;
}

extern "C" int mandelbrot(enum mandelbrot_variant v, struct gpu_buf counts,
                          const struct mandelbrot_image *img)
{
    dim3 block;
    if ((unsigned)v >= MANDELBROT_VARIANTS || !valid(img, counts))
        return LAB_EINVAL;
    if (!shape_block(img->shape ? img->shape : MANDELBROT_DEFAULT_SHAPE, &block))
        return LAB_EINVAL;
    if (v == MB_PERSISTENT_TILES || v == MB_COMBINED)
        return launch_tiles(v, (unsigned *)counts.ptr, mandelbrot_frame(img));
    return launch_grid(v, (unsigned *)counts.ptr, mandelbrot_frame(img), block);
}
