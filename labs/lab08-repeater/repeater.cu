/* lab08: the repeater. Yours: the kernels; launch.cu checks the arguments, sizes the grids
 * and launches them. The 2D kernels run 32 x 8 blocks and step over rows by the whole grid
 * (gridDim.y is at most 65535); the others run ROW_THREADS threads a block. */
#include "repeater.h"

/* The first row this thread handles, and the step to its next one. */
__device__ unsigned first_row(void)
{
    return blockIdx.y * blockDim.y + threadIdx.y;
}

__device__ unsigned row_step(void)
{
    return gridDim.y * blockDim.y;
}

/* 1.4. A thread per point, its repeater cell found by two modulos. Teaches the 2D grid and
 * coalescing: a warp writes 32 neighbours in a row; costs a modulo pair and a (cached) read
 * per float written. */
__global__ void tile_modulo(float *target, unsigned width, unsigned height, const float *repeater,
                            unsigned rw, unsigned rh)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    /* TODO: for each of this thread's rows y (first_row(), step row_step()),
     * target[y * width + x] (in size_t) = repeater[(y % rh) * rw + x % rw]. */
}

/* 1.5. The mistake of shared memory: thread 0 of every block copies the whole repeater into
 * shared memory (rw rh floats, launch.cu sizes it) while the others wait, then every thread
 * reads its value there. Correct, and kept to be explained: each block reads rw rh floats
 * to write 256 (10000 for 256 at R = 100), and 255 threads idle while one copies. */
__global__ void tile_shared_mistake(float *target, unsigned width, unsigned height,
                                    const float *repeater, unsigned rw, unsigned rh)
{
    extern __shared__ float tile[];
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: thread (0, 0) copies repeater[0 .. rw rh) into tile; every thread
     * waits at a barrier (all of them: no return before it), then those with x < width
     * write their rows as tile_modulo does, reading tile instead of repeater. */
}

/* 1.6. The grid over the repeater: a thread per repeater cell (rx, ry) writes its value to
 * every point it tiles, rw floats apart in a row, rh rows apart. No modulo; but a warp's
 * stores are 32 neighbours only when rw >= 32, and the grid has only rw rh threads: at
 * R = 16, 256 threads for the whole GPU. */
__global__ void tile_grid_over_repeater(float *target, unsigned width, unsigned height,
                                        const float *repeater, unsigned rw, unsigned rh)
{
    unsigned rx = blockIdx.x * blockDim.x + threadIdx.x;
    if (rx >= rw || rx >= width)
        return;
    /* TODO: for each repeater row ry of this thread (first_row(), row_step()),
     * while ry < rh and ry < height: value = repeater[ry * rw + rx]; then for y from ry
     * (step rh) below height and x from rx (step rw) below width, target[y * width + x]
     * (size_t) = value. */
}

/* The repeater's row ry in ext[0 .. rw + 3), wrapped around (ext[i] = row[i % rw]), so that
 * four values from any phase below rw are ext[p .. p + 3] without a test. Every thread of
 * the block calls it: it waits at a barrier, so that no thread reads ext before all of it
 * is written. */
__device__ void load_row(float *ext, const float *repeater, unsigned rw, unsigned ry)
{
    for (unsigned i = threadIdx.x; i < rw + 3; i += blockDim.x)
        ext[i] = repeater[(size_t)ry * rw + (i < rw ? i : i % rw)];
    __syncthreads();
}

/* Row y of the target from ext: the floats before the first 16-byte boundary one at a
 * time, then float4 stores, each thread's phase in the repeater advanced by a constant step
 * with one compare instead of a modulo, then the tail one at a time. */
__device__ void write_row(float *row, unsigned width, const float *ext, unsigned rw)
{
    unsigned head = (unsigned)((16 - (size_t)row % 16) % 16 / 4);
    head = head < width ? head : width;
    unsigned nvec = (width - head) / 4, tail = head + 4 * nvec;
    float4 *body = (float4 *)(row + head);
    if (threadIdx.x < head)
        row[threadIdx.x] = ext[threadIdx.x % rw];
    /* TODO: phase p = (head + 4 threadIdx.x) % rw and step = 4 blockDim.x % rw,
     * once; then for k from threadIdx.x below nvec (step blockDim.x): body[k] = the four
     * ext[p .. p + 3]; p += step, minus rw when it reaches rw. Then the tail: the thread
     * with tail + threadIdx.x < width writes that float, ext[its x % rw]. */
}

/* Beyond the seed. A block per row, striding by the grid, which the launcher makes a
 * multiple of rh (or no larger than the rows): every row of a block comes from one row of
 * the repeater, staged once in shared memory; then each target row is written with 16-byte
 * stores and no modulo in the loop, and no barrier between rows. Teaches wide stores and
 * strength reduction; costs rw + 3 floats of shared memory. */
__global__ void tile_rows_vec4(float *target, unsigned width, unsigned height,
                               const float *repeater, unsigned rw, unsigned rh)
{
    extern __shared__ float ext[];
    load_row(ext, repeater, rw, blockIdx.x % rh);
    for (unsigned y = blockIdx.x; y < height; y += gridDim.x)
        write_row(target + (size_t)y * width, width, ext, rw);
}

/* Floor of x / d for d > 0 (C's / truncates towards 0). */
__device__ int floor_div(int x, int d)
{
    return x / d - (x % d != 0 && x < 0);
}

/* 2.3. A thread per target point: the copies that may cover it come from the lattice's plan
 * (repeater.h), a in [a_first, a_last] and b likewise; it adds the non-zero values of those
 * that do, a then b ascending, and writes their mean. One store per point, but up to
 * LATTICE_MAX_CANDIDATES tests and four divisions per point: arithmetic, not memory, may
 * set the pace. */
__global__ void lattice_gather(float *target, unsigned width, unsigned height,
                               const float *repeater, struct lattice l)
{
    int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= (int)width)
        return;
    for (int y = (int)first_row(); y < (int)height; y += (int)row_step()) {
        int A = l.ax * x + l.ay * y, B = l.bx * x + l.by * y;
        int a_first = -floor_div(l.a_hi - A, l.det), a_last = floor_div(A - l.a_lo, l.det);
        int b_first = -floor_div(l.b_hi - B, l.det), b_last = floor_div(B - l.b_lo, l.det);
        float sum = 0.0f;
        unsigned count = 0;
        /* TODO: for a from a_first to a_last, b from b_first to b_last (both
         * included, a outside): d = (x, y) - (a u + b v); when 0 <= d.x < rw and
         * 0 <= d.y < rh and repeater[d.y rw + d.x] is not 0, add it to sum and count it. */
        target[(size_t)y * width + x] = count ? sum / (float)count : 0.0f;
    }
}

/* 2.4. A block per copy (a, b) = (a0 + blockIdx.x / nb, b0 + blockIdx.x % nb): its threads
 * add the copy's non-zero cells into sum and count (both zeroed by the launcher) with
 * atomics, since neighbouring copies add to the same points in any order; then
 * lattice_normalise divides. Coalesced, no search; costs a zeroing pass, two atomics a cell
 * and the division's pass. */
__global__ void lattice_scatter_atomic(float *sum, unsigned *count, unsigned width, unsigned height,
                                       const float *repeater, struct lattice l, int a0, int b0,
                                       unsigned nb)
{
    int a = a0 + (int)(blockIdx.x / nb), b = b0 + (int)(blockIdx.x % nb);
    int px = a * l.ux + b * l.vx, py = a * l.uy + b * l.vy;
    if (px >= (int)width || py >= (int)height || px + l.rw <= 0 || py + l.rh <= 0)
        return; /* a copy of the plan's box that misses the target */
    /* TODO: for each cell i from threadIdx.x below rw rh (step blockDim.x):
     * (x, y) = (px + i % rw, py + i / rw); inside the target and with a non-zero value,
     * atomicAdd the value to sum[y width + x] (size_t) and 1 to count[...]. */
}

/* The mean where a copy counted, 0 (the zeroed sum) elsewhere. */
__global__ void lattice_normalise(float *target, const unsigned *count, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        if (count[i])
            target[i] /= (float)count[i];
}
