/* lab00: hello from the GPU. Yours: the kernels, which work out where each thread is, their
 * launches, which must report a shape the device refuses instead of going on as if it had
 * run, and the query of the device. launch.cu checks the arguments first. */
#include <stdio.h>
#include "check.h"
#include "hello.h"

/* The thread's number in its block, x fastest: warps are cut from it, 32 at a time. */
__device__ unsigned thread_in_block(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ unsigned block_in_grid(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

__device__ void write_place(struct thread_place *out, unsigned global)
{
    struct thread_place p;
    p.global = global;
    p.block = block_in_grid();
    p.thread = thread_in_block();
    /* TODO: warp and lane from the thread's number in its block (warpSize). */
    out[global] = p;
}

/* A row of threads: the index every 1D kernel starts from. */
__global__ void place_1d(struct thread_place *out)
{
    /* TODO: write_place(out, the global index from blockIdx.x, blockDim.x and
     * threadIdx.x). */
}

/* A plane of threads: x and y over the whole grid, rows as wide as the grid's threads. */
__global__ void place_2d(struct thread_place *out)
{
    /* TODO: x and y over the grid, then write_place(out, y * width + x), the
     * width being the grid's threads along x. */
}

/* A volume of threads: planes of rows, x fastest. */
__global__ void place_3d(struct thread_place *out)
{
    /* TODO: x, y and z over the grid, then write_place(out, (z * height + y) *
     * width + x), height and width the grid's threads along y and x. */
}

/* Every thread says where it is. The lines come in the order the warps reach printf, which
 * is the scheduler's business, not the order of the threads. */
__global__ void say_hello(void)
{
    printf("hello from block (%u, %u, %u), thread (%u, %u, %u)\n", blockIdx.x, blockIdx.y,
           blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
}

int hello_places_launch(enum hello_variant v, dim3 grid, dim3 block, struct thread_place *out)
{
    /* TODO: launch the variant's kernel on grid x block, then CUDA_TRY_LAUNCH():
     * a shape the device refuses launches nothing, and only cudaGetLastError says so. */
    return LAB_OK;
}

int hello_print_launch(dim3 grid, dim3 block)
{
    /* TODO: launch say_hello on grid x block, and check the launch. */
    return LAB_OK;
}

/* The device's figures: most from cudaGetDeviceProperties, the two clocks from
 * cudaDeviceGetAttribute (CUDA 13 took them out of cudaDeviceProp). Every call checked: a
 * device number that does not exist is CUDA's to refuse, and the caller's to hear of. */
int hello_query_device(int device, struct device_facts *out)
{
    cudaDeviceProp prop;
    /* TODO: for HELLO_THIS_DEVICE, ask cudaGetDevice which device this thread uses;
     * then cudaGetDeviceProperties(&prop, device) for the name, the compute capability (major,
     * minor), multiProcessorCount, warpSize, maxThreadsPerBlock, sharedMemPerBlock,
     * totalGlobalMem and memoryBusWidth, and cudaDeviceGetAttribute for the clocks
     * (cudaDevAttrClockRate, cudaDevAttrMemoryClockRate). Fill every field of *out, and wrap
     * every call in CUDA_TRY. */
    return LAB_OK;
}
