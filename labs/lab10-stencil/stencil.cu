/* lab10: stencils. Each output reads its input's neighbours too, so a thread per output
 * reads most inputs several times: once for itself and once for each neighbour that needs
 * it. Caches catch some of that; a tile in shared memory catches all of it, at the price of
 * a halo (the neighbours just outside the tile, loaded again by the next block) and a
 * barrier. Yours: the kernels; launch.cu checks the arguments, swaps the buffers between
 * steps and sets the sources back after each. stencil.h defines the three problems and gives
 * their arithmetic (line_weight, heat_update, sobel_magnitude). */
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

/* 2. Adjacent difference from a shared tile of LINE_TILE elements (2048, LINE_ITEMS = 8 a
 * thread): thread t loads the tile's elements t, t + 256, t + 512, ..., so that each of a
 * warp's loads reads 32 neighbouring ints (coalesced), and a thread has 8 independent loads in
 * flight. (One a thread, as the seed's kernel, keeps 8 KB in flight an SM: an H100's memory
 * needs several times that to run at full speed.) Thread 0 also loads the element left of the
 * tile into tile[0] (the smallest halo: one element a block); after the barrier each output
 * reads its two inputs from shared memory. Every input read once from global memory, plus one
 * a block: n + n / 2048 loads instead of 2 n. */
__global__ void adjacent_shared(const int *__restrict__ in, int *__restrict__ out, size_t n)
{
    __shared__ int tile[1 + LINE_TILE];
    size_t first = (size_t)blockIdx.x * LINE_TILE;
    unsigned t = threadIdx.x;
    /* TODO: for k = 0 .. LINE_ITEMS - 1, element j = t + k * LINE_THREADS of the
     * tile, i = first + j: tile[j + 1] = in[i] (when i < n). Thread 0 also loads the element
     * left of the tile into tile[0] (0 for the first block). Wait for the block, then for each
     * k: out[i] = tile[j + 1] - tile[j], for i < n. */
}

/* 3. A weighted stencil of radius 3 from a shared tile: tile[RADIUS + j] holds the block's
 * element j, loaded as in adjacent_shared (8 a thread, coalesced), and the first RADIUS
 * threads also load the halo, RADIUS elements on either side (0 past the line's ends).
 * Loads: 2048 + 6 a block for 2048 outputs that each read 7 inputs. Costs the 6 halo loads
 * (0.3 % more) and a barrier. */
__global__ void stencil1d_halo(const int *__restrict__ in, int *__restrict__ out, size_t n)
{
    __shared__ int tile[RADIUS + LINE_TILE + RADIUS];
    size_t first = (size_t)blockIdx.x * LINE_TILE;
    unsigned t = threadIdx.x;
    /* TODO: for k = 0 .. LINE_ITEMS - 1, element j = t + k * LINE_THREADS of the
     * tile, i = first + j: tile[RADIUS + j] = in[i] (0 when i >= n). Threads t < RADIUS also
     * load tile[t] = in[first - RADIUS + t] and tile[RADIUS + LINE_TILE + t] =
     * in[first + LINE_TILE + t], 0 where outside the line. After the barrier, for each k with
     * i < n: out[i] = the sum over r = -RADIUS..RADIUS of line_weight(r) * tile[RADIUS + j + r]. */
}

/* v clamped into a side of n cells: the insulated edge of the one-step kernels. In int, as
 * the heat kernels' coordinates (sides of at most HEAT_MAX_SIDE): 64-bit arithmetic takes two
 * instructions where 32-bit takes one, and min and max make the clamp two. */
__device__ static inline unsigned clamped(int v, unsigned n)
{
    return min(max(v, 0), (int)n - 1);
}

/* 4. One heat step a launch, from global memory through the read-only data path (__ldg: the
 * texture cache, without the texture). A thread takes HEAT_ROWS (4) cells one under the
 * other, so its column, the 4 cells and one above and below them, is 6 loads, and their west
 * and east neighbours 8 more: 14 loads for 4 cells where a thread per cell makes 20, all
 * independent, in flight together. A neighbour outside the grid is the cell itself.
 * Neighbouring threads read the same cells, so L1 serves most of the west and east reads; the
 * other costs are the index clamps and a launch a step. */
__global__ void heat_global(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch)
{
    unsigned x = blockIdx.x * HEAT_BX + threadIdx.x;
    unsigned y = (blockIdx.y * HEAT_BY + threadIdx.y) * HEAT_ROWS;
    /* TODO: the thread's cells are (x, y + r) for r < HEAT_ROWS, those of the grid
     * (x < width, y + r < height). Read with __ldg the column of rows y - 1 .. y + HEAT_ROWS
     * at x (a row outside the grid: the nearest edge row), then for each cell its west and east
     * neighbours (outside the grid: the cell itself), and write heat_update(cell, west, east,
     * north, south) to out. Cell (x, y) is at y * pitch + x. */
}

/* 5. A shared tile with a halo: the block's 32 x 32 cells (HEAT_ROWS = 4 a thread, one under
 * the other) plus one cell all round, 34 x 34. Each thread loads its own 4 cells, so that each
 * load of a warp is a row's 32 cells (one 128-byte line); the first warp also loads the halo
 * row above, the last warp the one below, and 68 threads the two halo columns; each
 * coordinate clamped into the grid as in heat_global. One barrier: no thread reads a
 * neighbour (RAW) before its owner has stored it. Loads: 1156 for 1024 cells, the halo's 132
 * cells (13 %) loaded again by the neighbouring blocks, from L2. */
__global__ void heat_shared(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                            unsigned height, size_t pitch)
{
    __shared__ int tile[HEAT_TY + 2][HEAT_BX + 2];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (int)(blockIdx.x * HEAT_BX) - 1, y0 = (int)(blockIdx.y * HEAT_TY) - 1;
    /* TODO: tile cell (cx, cy) is grid cell (x0 + cx, y0 + cy), each coordinate
     * clamped into the grid. The thread's cells are (cx, cy) = (tx + 1, ty * HEAT_ROWS + r + 1)
     * for r < HEAT_ROWS: load them; warp 0 also loads row 0 of the tile at cx = tx + 1, the last
     * warp (ty = HEAT_BY - 1) row HEAT_TY + 1; threads k = ty * HEAT_BX + tx < 2 (HEAT_TY + 2)
     * load the halo columns cx = 0 and HEAT_BX + 1 (row k % (HEAT_TY + 2)). Wait for the block;
     * then write each of the thread's cells that lies in the grid: heat_update of tile[cy][cx]
     * and its 4 neighbours. */
}

/* 6. heat_global's reads through a texture object over the grid (launch.cu makes it: point
 * sampling, unnormalised coordinates, clamp addressing). Clamping is the insulated edge: a
 * neighbour outside the grid comes back as the edge cell, which is the cell itself, and the
 * kernel has no edge test but for the cells it writes. The texture path caches in 2D blocks,
 * where __ldg's lines are rows; on recent GPUs both go through the same L1, so expect little
 * between them. */
__global__ void heat_texture(cudaTextureObject_t in, int *__restrict__ out, unsigned width,
                             unsigned height, size_t pitch)
{
    unsigned x = blockIdx.x * HEAT_BX + threadIdx.x;
    unsigned y = (blockIdx.y * HEAT_BY + threadIdx.y) * HEAT_ROWS;
    /* TODO: as heat_global, the cells (x, y + r) of the grid, r < HEAT_ROWS, but
     * fetch with tex2D<int>(in, u, v): texel (x, y)'s centre is at u = x + 0.5f,
     * v = y + 0.5f, and the neighbours one texel away on either axis (clamped for you). */
}

/* heat_temporal's tile: HEAT_T_TW x HEAT_T_TH cells (64 x 64), the block's output in the
 * middle and a halo of HEAT_T_STEPS cells all round. In shared memory with a ring of padding,
 * tile cell (cx, cy) at [cy + 1][cx + 1]: the cells of the tile's border then read their
 * neighbours there, with no test. */
#define TW HEAT_T_TW
#define TH HEAT_T_TH
static_assert(HEAT_T_OW > HEAT_T_STEPS && HEAT_T_OH > HEAT_T_STEPS,
              "heat_temporal: the output is wider than the halo (mirror's cells lie in the tile)");

/* The grid mirrored at its edges, as the insulated edge: the grid's cell that cell g of the
 * line mirrors, for a side of n cells. Beyond the edge the cells repeat in reverse order,
 * ... 1 0 | 0 1 ... n-1 | n-1 n-2 ..., so that the neighbour just outside the edge holds the
 * edge cell itself; a plane mirrored like this stays mirrored under heat steps. (A loop, not
 * a remainder: inside the grid it returns at once, and a tile wider than the grid is rare.) */
__device__ static inline int mirror(int g, int n)
{
    while (g < 0 || g >= n)
        g = g < 0 ? -1 - g : 2 * n - 1 - g;
    return g;
}

/* The sources in the block's tile, whose cell (0, 0) is grid cell (x0, y0): copied from
 * d_sources into list, a thread per source, and their number into *count. The count is set
 * to 0 before the others add to it (a barrier: RAW), and the list is read after the last
 * entry is in (a barrier: RAW again). The entries' order is any: the threads take their places
 * with atomicAdd. Tiles of a grid of a few sources have none, mostly. */
__device__ void tile_sources(struct heat_source *list, unsigned *count, int x0, int y0,
                             unsigned nsources)
{
    unsigned tid = threadIdx.y * HEAT_BX + threadIdx.x;
    if (tid == 0)
        *count = 0;
    __syncthreads();
    for (unsigned k = tid; k < nsources; k += HEAT_T_THREADS) {
        int cx = (int)d_sources[k].x - x0, cy = (int)d_sources[k].y - y0;
        if (cx >= 0 && cx < TW && cy >= 0 && cy < TH)
            list[atomicAdd(count, 1)] = d_sources[k];
    }
    __syncthreads();
}

/* 7. Temporal blocking: `steps` (up to HEAT_T_STEPS = 4) steps in one launch. A block loads
 * its 64 x 64 tile, its 56 x 56 output with a halo of 4 cells all round, steps in shared
 * memory between two buffers, and writes the output after the last. Every step computes the
 * whole tile: a wrong value at the tile's border (whose neighbours outside it are padding)
 * travels a cell a step, so after 4 steps it has not reached the output. Each thread keeps
 * the same 2 x 4 cells, so what a step costs is fixed before the first: the tile's cells
 * outside the grid hold the grid mirrored (mirror()), which makes the insulated edge the
 * plain stencil with no test, and the sources are looked at only in the tiles that have one.
 * A step is then 5 shared loads (3.5 with the column's loads shared), heat_update and a store
 * a cell, and a barrier. Global traffic: 4096 loads and 3136 stores for 4 steps of 3136
 * cells, 0.58 accesses a cell a step against 2 for a step a launch; paid for with 31 % more
 * cells computed than written, and a barrier a step. __launch_bounds__: blocks of
 * HEAT_T_THREADS, HEAT_T_BLOCKS of them on an SM, so the compiler keeps to the registers
 * that leaves (4 blocks of 512 threads: 32 a thread of the SM's 65536). */
/* The blocks of HEAT_T_THREADS an SM can hold at most, for the architecture being compiled:
 * 2048 threads on sm_80, sm_87, sm_90 and sm_100, 1536 on sm_86, sm_89 and sm_120, 1024 on
 * sm_75 (asking __launch_bounds__ for more is an error of ptxas's). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define HEAT_T_SM_THREADS 1024
#elif defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define HEAT_T_SM_THREADS 1536
#else
#define HEAT_T_SM_THREADS 2048
#endif
#define HEAT_T_MIN_BLOCKS                                                \
    (HEAT_T_BLOCKS * HEAT_T_THREADS <= HEAT_T_SM_THREADS ? HEAT_T_BLOCKS \
                                                         : HEAT_T_SM_THREADS / HEAT_T_THREADS)
__global__ void __launch_bounds__(HEAT_T_THREADS, HEAT_T_MIN_BLOCKS)
    heat_temporal(const int *__restrict__ in, int *__restrict__ out, unsigned width,
                  unsigned height, size_t pitch, unsigned steps, unsigned nsources)
{
    extern __shared__ int heat_t_shared[];
    int(*t)[TH + 2][TW + 2] = (int(*)[TH + 2][TW + 2]) heat_t_shared; /* two buffers */
    __shared__ struct heat_source list[HEAT_MAX_SOURCES];
    __shared__ unsigned count;
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (int)(blockIdx.x * HEAT_T_OW) - HEAT_T_STEPS;
    int y0 = (int)(blockIdx.y * HEAT_T_OH) - HEAT_T_STEPS;
    tile_sources(list, &count, x0, y0, nsources);
    /* TODO: the thread's cells are (cx, cy) = (tx + HEAT_BX * i, ty * HEAT_T_CY + j)
     * for i < HEAT_T_CX, j < HEAT_T_CY, at [cy + 1][cx + 1] in each buffer; tile cell (cx, cy)
     * is grid cell (x0 + cx, y0 + cy), which mirrors grid cell (mx, my) = (mirror(x0 + cx,
     * width), mirror(y0 + cy, height)). Load t[0][cy + 1][cx + 1] = in[my * pitch + mx] for
     * each, and set the padding ring of both buffers to 0 (any temperature would do). Step
     * s = 0 .. steps - 1: wait (RAW: this step reads what the last one wrote, or the load;
     * WAR: it overwrites what the last one read), compute the new value of each of the
     * thread's cells from buffer s % 2 (heat_update of the cell and its 4 neighbours), all the
     * loads of a step before its stores (the loads of a column can then be shared), and store
     * them into buffer (s + 1) % 2; then where the tile has sources (count of them in list),
     * store a source's temperature over each cell of the thread's that mirrors it. Last,
     * write the thread's cells that lie in the output (HEAT_T_STEPS <= cx < TW - HEAT_T_STEPS,
     * the same for cy) and in the grid, each from buffer steps % 2, where the thread itself
     * stored it. */
}

/* 8. The Sobel operator on an 8-bit image from a shared tile: the block's 32 x 32 pixels
 * (SOBEL_ROWS = 4 a thread, one under the other) and a halo of one pixel all round, 34 x 34
 * bytes, loaded as heat_shared loads its tile, each coordinate clamped into the image (the
 * replicated border). A 3 x 3 window reads its 8 neighbours, the diagonal ones too, so the
 * halo's 4 corners must be in the tile, where the 5-point heat stencil never reads them.
 * Teaches the halo of a 2D window, corners included, and the barrier after the load (RAW).
 * Costs the halo's 132 bytes a block, 13 % more loads than pixels (served by L2, since the
 * neighbouring blocks load them too), and a barrier; a warp's loads and stores are 32 bytes,
 * one sector. Each thread reads its 6 x 3 window of tile pixels into registers once, which
 * its 4 pixels share: 18 shared loads for 4 pixels where 36 would do them one by one. */
__global__ void sobel_shared(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                             unsigned width, unsigned height, size_t pitch)
{
    __shared__ unsigned char tile[SOBEL_TY + 2][SOBEL_BX + 2];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (int)(blockIdx.x * SOBEL_BX) - 1, y0 = (int)(blockIdx.y * SOBEL_TY) - 1;
    /* TODO: tile pixel (cx, cy) is image pixel (x0 + cx, y0 + cy), each coordinate
     * clamped into the image; pixel (x, y) is at in[y * pitch + x]. The thread's pixels are
     * (cx, cy) = (tx + 1, ty * SOBEL_ROWS + r + 1) for r < SOBEL_ROWS: load them; warp 0 also
     * loads row 0 of the tile at cx = tx + 1, the last warp (ty = SOBEL_BY - 1) row
     * SOBEL_TY + 1; threads k = ty * SOBEL_BX + tx < 2 (SOBEL_TY + 2) load the halo columns
     * cx = 0 and SOBEL_BX + 1, every row of them (k % (SOBEL_TY + 2)): the corners too. Wait
     * for the block; then read the thread's columns cx - 1, cx and cx + 1 of tile rows
     * ty * SOBEL_ROWS .. ty * SOBEL_ROWS + SOBEL_ROWS + 1, and write each of its pixels that
     * lies in the image: sobel_magnitude of its 3 rows of those columns. */
}

/* 9. The Sobel operator through a texture object over the image (launch.cu makes it:
 * unsigned char texels read as they are, point sampling, unnormalised coordinates, clamp
 * addressing). A thread takes SOBEL_ROWS pixels down a column as in sobel_shared and fetches
 * its 6 x 3 window, with no tile, no barrier and no clamp of its own: a coordinate past the
 * edge comes back as the edge's pixel, the replicated border. Teaches what the texture path
 * does for a 2D window: its cache keeps 2D neighbourhoods of texels (a warp's rows above and
 * below are in it), and its addressing clamps for free. Costs a fetch per window pixel,
 * 18 for 4 pixels where sobel_shared loads 1.13 a pixel from memory, each going through the
 * texture unit, whose rate of fetches an SM is lower than that of shared-memory loads; and
 * the texture object's set-up for each call. */
__global__ void sobel_texture(cudaTextureObject_t in, unsigned char *__restrict__ out,
                              unsigned width, unsigned height, size_t pitch)
{
    unsigned x = blockIdx.x * SOBEL_BX + threadIdx.x;
    unsigned y = (blockIdx.y * SOBEL_BY + threadIdx.y) * SOBEL_ROWS;
    /* TODO: the thread's pixels (x, y + r) of the image, r < SOBEL_ROWS. Fetch the
     * columns x - 1, x and x + 1 of rows y - 1 .. y + SOBEL_ROWS with
     * tex2D<unsigned char>(in, u, v) (texel (x, y)'s centre is at u = x + 0.5f, v = y + 0.5f;
     * clamped for you), then write each pixel that lies in the image: sobel_magnitude of its
     * 3 rows of those columns, at out[(y + r) * pitch + x]. */
}
