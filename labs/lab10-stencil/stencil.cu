/* lab10: stencils. Each output reads its input's neighbours too, so a thread per output
 * reads most inputs several times: once for itself and once for each neighbour that needs
 * it. Caches catch some of that; a tile in shared memory catches all of it, at the price of
 * a halo (the neighbours just outside the tile, loaded again by the next block) and a
 * barrier. Yours: the kernels; launch.cu checks the arguments, swaps the buffers between
 * steps and sets the sources back after each. stencil.h defines both problems and gives
 * their arithmetic (line_weight, heat_update). */
#include "check.h"
#include "stencil.h"

/* The sources, in global memory: heat_reimpose reads one per thread, heat_temporal's blocks
 * all of them, which L1 and L2 then serve. */
__device__ struct heat_source d_sources[HEAT_MAX_SOURCES];

cudaError_t heat_sources_to_device(const struct heat_source *sources, unsigned n)
{
    return n ? cudaMemcpyToSymbolAsync(d_sources, sources, n * sizeof *sources) : cudaSuccess;
}

/* Each source cell set back to its temperature, a thread per source: the seed's "kernel for
 * resetting heat sources", after each one-step launch. */
__global__ void heat_reimpose(int *grid, size_t pitch, unsigned nsources)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nsources)
        grid[d_sources[i].y * pitch + d_sources[i].x] = d_sources[i].temp;
}

/* 1. Adjacent difference, straight from global memory: thread i reads in[i] and in[i - 1],
 * so every input is read twice, by its own thread and by the next. Teaches what the
 * caches do for free: on a GPU with L1 the second read mostly hits. (The seed's GT200 had
 * no L1 for global loads and ran 36.8 GB/s.) */
__global__ void adjacent_naive(const int *__restrict__ in, int *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: when i < n, out[i] = in[i] - in[i - 1], where in[-1] counts as 0. */
}

/* 2. Adjacent difference from a shared tile: each thread loads its own element into
 * tile[t + 1], one thread also the element left of the block into tile[0] (the smallest
 * halo: one element a block); after the barrier a thread reads its two inputs from shared
 * memory. Every input read once from global memory, plus one a block: n + n / 256 loads
 * instead of 2 n (the seed's 57.5 GB/s on the GT200, 1.57 times the naive kernel). */
__global__ void adjacent_shared(const int *__restrict__ in, int *__restrict__ out, size_t n)
{
    __shared__ int tile[LINE_THREADS + 1];
    size_t first = (size_t)blockIdx.x * LINE_THREADS, i = first + threadIdx.x;
    /* TODO: tile[threadIdx.x + 1] = in[i] (when i < n); thread 0 also loads the
     * element left of the block into tile[0] (0 for the first block). Wait for the block,
     * then out[i] = the difference of the two, for i < n. */
}

/* 3. A weighted stencil of radius 3 from a shared tile: tile[RADIUS + t] holds the block's
 * element t, and the first RADIUS threads also load the halo, RADIUS elements on either
 * side (0 past the line's ends). Loads: 256 + 6 a block for 256 outputs that each read 7
 * inputs. Costs the 6 halo loads (2.3 % more) and a barrier. */
__global__ void stencil1d_halo(const int *__restrict__ in, int *__restrict__ out, size_t n)
{
    __shared__ int tile[RADIUS + LINE_THREADS + RADIUS];
    size_t first = (size_t)blockIdx.x * LINE_THREADS, i = first + threadIdx.x;
    /* TODO: tile[RADIUS + t] = in[i] (0 when i >= n); threads t < RADIUS also
     * load tile[t] = in[first - RADIUS + t] and tile[RADIUS + LINE_THREADS + t] =
     * in[first + LINE_THREADS + t], 0 where outside the line. After the barrier, out[i] =
     * the sum over k = -RADIUS..RADIUS of line_weight(k) * tile[RADIUS + t + k], for i < n. */
}

/* 4. One heat step a launch, a thread per cell, its 5 reads from global memory through the
 * read-only data path (__ldg: the texture cache, without the texture). A neighbour outside
 * the grid is the cell itself. Neighbouring threads read the same cells, so L1 serves 4 of
 * the 5 reads in the best case; the other costs are the index clamps and a launch a step. */
__global__ void heat_global(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch)
{
    unsigned x = blockIdx.x * HEAT_BX + threadIdx.x, y = blockIdx.y * HEAT_BY + threadIdx.y;
    /* TODO: for a cell of the grid (x < width, y < height): read the cell and its
     * 4 neighbours with __ldg (a neighbour outside the grid: the cell itself), then write
     * heat_update(cell, west, east, north, south) to out. Cell (x, y) is at y * pitch + x. */
}

/* 5. A shared tile with a halo: the block's 32 x 16 cells plus one cell all round, 34 x 18,
 * loaded by the block's threads together (a loop over the tile's cells, so the halo needs
 * no special threads), with the grid's edge clamped as in heat_global. One barrier: no
 * thread reads a neighbour (RAW) before its owner has stored it. Loads: 612 for 512 cells,
 * the halo's 100 cells (20 %) loaded again by the neighbouring blocks. */
__global__ void heat_shared(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch)
{
    __shared__ int tile[HEAT_BY + 2][HEAT_BX + 2];
    unsigned x = blockIdx.x * HEAT_BX + threadIdx.x, y = blockIdx.y * HEAT_BY + threadIdx.y;
    /* TODO: for k = threadIdx.y * HEAT_BX + threadIdx.x, stepping by the block's
     * HEAT_BX * HEAT_BY threads, up to the tile's (HEAT_BX + 2) * (HEAT_BY + 2) cells: tile
     * cell (k % (HEAT_BX + 2), k / (HEAT_BX + 2)) is grid cell (blockIdx.x * HEAT_BX - 1 + cx,
     * blockIdx.y * HEAT_BY - 1 + cy), each coordinate clamped into the grid. Wait for the
     * block; then a cell of the grid writes heat_update of tile[ty][tx] and its 4
     * neighbours, with tx = threadIdx.x + 1, ty = threadIdx.y + 1. */
}

/* 6. heat_global's reads through a texture object over the grid (launch.cu makes it: point
 * sampling, unnormalised coordinates, clamp addressing). Clamping is the insulated edge: a
 * neighbour outside the grid comes back as the edge cell, which is the cell itself, and the
 * kernel has no edge test at all. The texture path caches in 2D blocks, where __ldg's lines
 * are rows; on recent GPUs both go through the same L1, so expect little between them. */
__global__ void heat_texture(cudaTextureObject_t in, int *__restrict__ out, unsigned width,
                             unsigned height, size_t pitch)
{
    unsigned x = blockIdx.x * HEAT_BX + threadIdx.x, y = blockIdx.y * HEAT_BY + threadIdx.y;
    /* TODO: for a cell of the grid, fetch it and its neighbours with
     * tex2D<int>(in, u, v): texel (x, y)'s centre is at u = x + 0.5f, v = y + 0.5f, and the
     * neighbours one texel away on either axis (clamped for you). Write heat_update of them. */
}

/* heat_temporal's tile: the block's output tile and a halo of HEAT_T_STEPS cells all round. */
#define TW (HEAT_T_TX + 2 * HEAT_T_STEPS)
#define TH (HEAT_T_TY + 2 * HEAT_T_STEPS)

/* Marks the sources in the block's tile, whose cell (0, 0) is grid cell (x0, y0): src[cy][cx]
 * gets the source's temperature, HEAT_NO_SOURCE elsewhere. Two passes, so a barrier between
 * them (WAW: a thread's mark after another's clearing of the same cell), and one after. */
__device__ void tile_sources(int (*src)[TW], long x0, long y0, unsigned nsources)
{
    unsigned tid = threadIdx.y * HEAT_BX + threadIdx.x;
    for (unsigned k = tid; k < TW * TH; k += HEAT_BX * HEAT_BY)
        src[k / TW][k % TW] = HEAT_NO_SOURCE;
    __syncthreads();
    for (unsigned k = tid; k < nsources; k += HEAT_BX * HEAT_BY) {
        long cx = d_sources[k].x - x0, cy = d_sources[k].y - y0;
        if (cx >= 0 && cx < TW && cy >= 0 && cy < TH)
            src[cy][cx] = d_sources[k].temp;
    }
    __syncthreads();
}

/* 7. Temporal blocking: `steps` (up to HEAT_T_STEPS) steps in one launch. A block loads its
 * 64 x 32 output tile with a halo of 4 cells, 72 x 40, then steps in shared memory between
 * two buffers, each step valid one cell further in from the tile's border, and writes the
 * middle 64 x 32 after the last. Global traffic: 2880 loads and 2048 stores for 4 steps of
 * 2048 cells, 0.6 accesses a cell a step against 2 for a step a launch; paid for with 15 %
 * more cells computed (the shrinking borders) and a barrier a step. */
__global__ void heat_temporal(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                              unsigned height, size_t pitch, unsigned steps, unsigned nsources)
{
    __shared__ int t[2][TH][TW];
    __shared__ int src[TH][TW];
    long x0 = (long)blockIdx.x * HEAT_T_TX - HEAT_T_STEPS;
    long y0 = (long)blockIdx.y * HEAT_T_TY - HEAT_T_STEPS;
    tile_sources(src, x0, y0, nsources);
    /* TODO: tile cell (cx, cy) is grid cell (x0 + cx, y0 + cy). Load t[0] with
     * every tile cell inside the grid (loops cy = threadIdx.y, += HEAT_BY; cx = threadIdx.x,
     * += HEAT_BX), wait. Step s = 1..steps reads buffer (s - 1) % 2 and writes s % 2, at the
     * tile cells inside the grid with s <= cx < TW - s and s <= cy < TH - s: heat_update of
     * the cell and its 4 neighbours (one outside the grid: the cell itself), or
     * src[cy][cx] where that is a source; then wait (RAW: the next step reads what this one
     * wrote; WAR: it overwrites what this one read). Last, the middle HEAT_T_TX x HEAT_T_TY
     * cells inside the grid go to out. */
}
