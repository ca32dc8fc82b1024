/* lab01: vector addition, c = a + b. One line of arithmetic, so the lesson is all in how
 * threads are mapped onto elements and how fast the memory can feed them: every variant
 * moves 12 bytes per element (two loads, one store) and does one add. Yours: the kernels,
 * their grids, the round trip and the timing of one launch; launch.cu checks the arguments
 * before any of them. */
#include "check.h"
#include "vector_add.h"

static const unsigned THREADS = 256;            /* a good default block: 8 warps */
static const unsigned ONE_BLOCK_THREADS = 1024; /* the largest block a GPU accepts */
static const size_t ROW = 1024;                 /* grid_2d sees the vectors as rows of ROW floats */
static const size_t GRID_Y_LIMIT = 65535;       /* the largest gridDim.y and gridDim.z */

/* One block: teaches threadIdx and blockDim. Costs nearly the whole GPU: a block runs on
 * one SM, so every other SM idles. */
__global__ void add_one_block(const float *a, const float *b, float *c, size_t n)
{
    /* TODO: thread threadIdx.x handles elements threadIdx.x,
     * threadIdx.x + blockDim.x, threadIdx.x + 2 * blockDim.x, ... while below n. */
}

/* One thread per element: the classic launch. Teaches the global index; costs a bounds
 * check in every thread and a grid that grows with n. */
__global__ void add_thread_per_element(const float *a, const float *b, float *c, size_t n)
{
    /* TODO: compute this thread's global index i from blockIdx.x,
     * blockDim.x and threadIdx.x (in size_t: n may exceed 2^31); add when i < n. */
}

/* Grid-stride loop: a grid sized to fill the GPU once, each thread stepping by the whole
 * grid. One launch shape for any n; thread start-up is paid once per thread, not per
 * element. */
__global__ void add_grid_stride(const float *a, const float *b, float *c, size_t n)
{
    /* TODO: start at the global index, step by the number of threads in
     * the grid (gridDim.x * blockDim.x) while below n. */
}

/* 2D grid: the vectors seen as a matrix, rows of ROW floats (an image, say), each block a
 * tile of 32 x 8 threads: blockIdx.x and threadIdx.x give the column, blockIdx.y and
 * threadIdx.y the row. Teaches 2D indices and 2D launches, and their limit: gridDim.y (and
 * z) stops at 65535, where gridDim.x goes to 2^31 - 1. Costs the index arithmetic and a
 * ragged last row. */
__global__ void add_grid_2d(const float *a, const float *b, float *c, size_t n)
{
    /* TODO: the column is blockIdx.x * blockDim.x + threadIdx.x, the row
     * blockIdx.y * blockDim.y + threadIdx.y (in size_t); the element is row * ROW + column:
     * add it when the column is inside the row and the element is below n. */
}

/* float4: each load and store moves 16 bytes, a quarter of the memory instructions of
 * the float loop. Needs 16-byte aligned vectors (the launcher checks) and a scalar loop
 * for the last n % 4 elements. */
__global__ void add_grid_stride_float4(const float *a, const float *b, float *c, size_t n)
{
    /* TODO: view a, b, c as float4 arrays of n / 4 elements and run the
     * grid-stride loop over them (add .x, .y, .z, .w); then let the same threads finish
     * the elements from 4 * (n / 4) to n one float at a time. */
}

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* Just enough blocks to fill every SM at full occupancy (and no more than n needs). */
template <typename Kernel>
static int grid_for_device(Kernel kernel, size_t n, unsigned *blocks)
{
    int dev, sms, per_sm;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    *blocks = (unsigned)sms * (unsigned)per_sm;
    if (*blocks > div_up(n, THREADS))
        *blocks = (unsigned)div_up(n, THREADS);
    return LAB_OK;
}

/* Each variant's launch, on arguments launch.cu has checked: choosing the grid is this
 * lab's lesson. */
int vector_add_launch(enum vector_add_variant v, const float *a, const float *b, float *c, size_t n)
{
    size_t blocks = div_up(n, THREADS);
    unsigned grid;
    switch (v) {
    case ADD_ONE_BLOCK:
        add_one_block<<<1, ONE_BLOCK_THREADS>>>(a, b, c, n);
        break;
    case ADD_THREAD_PER_ELEMENT:
        if (blocks > 0x7fffffffu)
            return LAB_EINVAL; /* beyond gridDim.x: the 2D grid is for this */
        add_thread_per_element<<<(unsigned)blocks, THREADS>>>(a, b, c, n);
        break;
    case ADD_GRID_STRIDE:
        if (grid_for_device(add_grid_stride, n, &grid) != LAB_OK)
            return LAB_ECUDA;
        add_grid_stride<<<grid, THREADS>>>(a, b, c, n);
        break;
    case ADD_GRID_2D: {
        dim3 block(32, 8);
        dim3 grid2(1, 1);
        /* TODO: cover the matrix of ceil(n / ROW) rows of ROW floats with blocks of
         * `block`: grid2.x blocks across a row, grid2.y down the rows. */
        if (grid2.y > GRID_Y_LIMIT)
            return LAB_EINVAL; /* more rows than gridDim.y reaches (question 6) */
        add_grid_2d<<<grid2, block>>>(a, b, c, n);
        break;
    }
    case ADD_GRID_STRIDE_FLOAT4:
        if (grid_for_device(add_grid_stride_float4, div_up(n, 4), &grid) != LAB_OK)
            return LAB_ECUDA;
        add_grid_stride_float4<<<grid, THREADS>>>(a, b, c, n);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* The steps of every CUDA program; d[] holds the device pointers so that the caller frees
 * them whatever step failed. */
int vector_add_round_trip(const float *a, const float *b, float *c, size_t n, float *d[3])
{
    size_t bytes = n * sizeof(float);
    unsigned grid;
    /* TODO: cudaMalloc d[0], d[1], d[2] (bytes each); copy a into d[0] and
     * b into d[1] (cudaMemcpyHostToDevice); launch add_grid_stride on a grid from
     * grid_for_device; copy d[2] back into c. Wrap every call in CUDA_TRY and check the
     * launch with CUDA_TRY_LAUNCH(). */
    return LAB_OK;
}

/* One launch timed on the GPU's own clock: an event recorded on the stream before the launch,
 * one after it. A launch returns before its kernel has run, so the host's clock around it
 * times the launch call; the events time the GPU's work between them, once the host has
 * waited for the stop (until then its time is not ready: cudaErrorNotReady). */
int vector_add_timed_launch(enum vector_add_variant v, const float *a, const float *b, float *c,
                            size_t n, float *ms)
{
    cudaEvent_t start, stop;
    int status = LAB_OK;
    /* TODO: create two events, start and stop (cudaEventCreate); record start on
     * the default stream (cudaEventRecord(start, 0)), launch with vector_add_launch and keep
     * its status in status, record stop; wait for stop (cudaEventSynchronize), then, if the
     * launch went well, read cudaEventElapsedTime(ms, start, stop); destroy both events
     * whatever the launch's status. Every CUDA call in CUDA_TRY. */
    return status;
}
