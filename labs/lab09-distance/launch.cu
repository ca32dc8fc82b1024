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

/* The rows of stack that a band of a column needs: its band, D - 1 on each side. */
static size_t stack_rows(unsigned height, unsigned dmax)
{
    size_t rows = (size_t)distance_band(dmax) + 2 * ((size_t)dmax - 1);
    return rows < height ? rows : height;
}

/* The separable passes' g, 2 bytes a pixel, rounded up to 8 for the stack after it. */
static size_t g_bytes(unsigned width, unsigned height)
{
    return (sizeof(unsigned short) * width * height + 7) / 8 * 8;
}

static int bad_size(unsigned width, unsigned height, unsigned dmax)
{
    return width == 0 || height == 0 || width > DISTANCE_MAX_SIDE || height > DISTANCE_MAX_SIDE ||
           dmax == 0 || dmax > DISTANCE_MAX_D;
}

extern "C" size_t distance_scratch_bytes(enum distance_variant v, unsigned width, unsigned height,
                                         unsigned dmax)
{
    size_t bands;
    if ((unsigned)v >= DISTANCE_VARIANTS || v < DISTANCE_EXACT_SEPARABLE ||
        bad_size(width, height, dmax))
        return 0;
    bands = div_up(height, distance_band(dmax));
    /* g, then each band's stack of 8-byte entries */
    return g_bytes(width, height) + sizeof(uint2) * width * bands * stack_rows(height, dmax);
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
    unsigned *a = (unsigned *)out, lines = DISTANCE_LINE_THREADS, band = distance_band(dmax);
    dim3 row_bands(div_up(h, DISTANCE_ROW_WARPS), div_up(w, band)),
        row_warps(32, DISTANCE_ROW_WARPS), column_bands(div_up(w, lines), div_up(h, band));
    uint2 *stack = (uint2 *)((char *)scratch + g_bytes(w, h));
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
            exact_columns_profile<<<column_bands, lines>>>(scratch, w, h, dmax, (int)band, stack,
                                                           (float *)out);
        else
            exact_columns<<<column_bands, lines>>>(scratch, w, h, dmax, (int)band, stack, a);
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
