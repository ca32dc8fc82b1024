/* lab09's host API: the arguments checked against distance.h's limits, out filled with D^2
 * for the scatter variants, then the kernels of distance.cu launched. */
#include "check.h"
#include "distance.h"

/* The fill's grid: enough blocks to fill an H100 (132 SMs x 8 blocks of 256) and no more
 * than the pixels need; each thread strides over the rest. */
static const unsigned FILL_BLOCKS = 1056;

static unsigned div_up(unsigned x, unsigned y)
{
    return (x + y - 1) / y;
}

/* out[i] = value for i < n: the scatter variants' start, D^2 everywhere (cudaMemset sets
 * bytes, and D^2 is not a byte repeated). */
__global__ void fill_u32(unsigned *out, size_t n, unsigned value)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = value;
}

extern "C" unsigned distance_band(unsigned dmax)
{
    unsigned least = DISTANCE_BAND;
    return dmax > least / 2 ? 2 * (dmax - 1) : least;
}

/* The column pass's band of rows (a block's), and the halo of rows its tile holds above and
 * below it: D - 1, as far as a white pixel can matter, but no more than DISTANCE_HALO nor
 * than the image has. */
static unsigned column_band(unsigned height)
{
    return height < DISTANCE_COLUMN_BAND ? height : DISTANCE_COLUMN_BAND;
}

static unsigned column_halo(unsigned height, unsigned dmax)
{
    unsigned halo = dmax - 1 < DISTANCE_HALO ? dmax - 1 : DISTANCE_HALO;
    return halo < height - 1 ? halo : height - 1;
}

/* The separable passes' g, 2 bytes a pixel. */
static size_t g_bytes(unsigned width, unsigned height)
{
    return sizeof(unsigned short) * width * height;
}

static int bad_size(unsigned width, unsigned height, unsigned dmax)
{
    return width == 0 || height == 0 || width > DISTANCE_MAX_SIDE || height > DISTANCE_MAX_SIDE ||
           dmax == 0 || dmax > DISTANCE_MAX_D;
}

extern "C" size_t distance_scratch_bytes(enum distance_variant v, unsigned width, unsigned height,
                                         unsigned dmax)
{
    if ((unsigned)v >= DISTANCE_VARIANTS || v < DISTANCE_EXACT_SEPARABLE ||
        bad_size(width, height, dmax))
        return 0;
    return g_bytes(width, height);
}

static int fits(struct gpu_buf buf, size_t bytes)
{
    return buf.ptr && bytes <= buf.bytes;
}

extern "C" int distance_set_profile(const float *table)
{
    if (!table)
        return LAB_EINVAL;
    CUDA_TRY(distance_profile_to_constant(table));
    return LAB_OK;
}

static int launch(enum distance_variant v, const unsigned char *mask, unsigned w, unsigned h,
                  int dmax, unsigned short *scratch, void *out)
{
    dim3 block(DISTANCE_BX, DISTANCE_BY), grid(div_up(w, DISTANCE_BX), div_up(h, DISTANCE_BY));
    unsigned *a = (unsigned *)out, band = distance_band(dmax);
    unsigned cband = column_band(h), halo = column_halo(h, (unsigned)dmax);
    dim3 row_bands(div_up(h, DISTANCE_ROW_WARPS), div_up(w, band)),
        row_warps(32, DISTANCE_ROW_WARPS), column_bands(div_up(w, 32), div_up(h, cband)),
        column_warps(32, DISTANCE_COLUMN_WARPS);
    size_t tile = sizeof(unsigned short) * 32 * (cband + 2 * halo);
    if (distance_facts[v].scatter) {
        size_t n = (size_t)w * h;
        unsigned blocks = n < FILL_BLOCKS * 256 ? (unsigned)(n + 255) / 256 : FILL_BLOCKS;
        fill_u32<<<blocks, 256>>>(a, n, (unsigned)dmax * (unsigned)dmax);
        CUDA_TRY_LAUNCH();
    }
    switch (v) {
    case DISTANCE_SCATTER_ATOMIC_MIN:
        scatter_atomic_min<<<grid, block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_SCATTER_BLOCK_SPREAD:
        scatter_block_spread<<<dim3(w, h), block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_SCATTER_DISTANCE_CHECK:
        scatter_distance_check<<<grid, block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_SCATTER_NEIGHBOUR_CHECK:
        scatter_neighbour_check<<<grid, block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_SCATTER_SHRUNK_WINDOW:
        scatter_shrunk_window<<<grid, block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_GATHER_RINGS:
        gather_rings<<<grid, block>>>(mask, w, h, dmax, a);
        break;
    case DISTANCE_EXACT_SEPARABLE:
    case DISTANCE_EXACT_PROFILE:
        exact_rows<<<row_bands, row_warps>>>(mask, w, h, dmax, (int)band, scratch);
        CUDA_TRY_LAUNCH();
        if (v == DISTANCE_EXACT_PROFILE)
            exact_columns_profile<<<column_bands, column_warps, tile>>>(
                scratch, w, h, dmax, (int)cband, (int)halo, (float *)out);
        else
            exact_columns<<<column_bands, column_warps, tile>>>(scratch, w, h, dmax, (int)cband,
                                                                (int)halo, a);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int distance(enum distance_variant v, struct gpu_buf mask, unsigned width,
                        unsigned height, unsigned dmax, struct gpu_buf scratch, struct gpu_buf out)
{
    size_t pixels = (size_t)width * height, need;
    if ((unsigned)v >= DISTANCE_VARIANTS || bad_size(width, height, dmax))
        return LAB_EINVAL;
    need = distance_scratch_bytes(v, width, height, dmax);
    if (!fits(mask, pixels) || !fits(out, 4 * pixels) || (need && !fits(scratch, need)))
        return LAB_EINVAL;
    return launch(v, (const unsigned char *)mask.ptr, width, height, (int)dmax,
                  (unsigned short *)scratch.ptr, out.ptr);
}
