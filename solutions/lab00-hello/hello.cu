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
    /* SOLUTION BEGIN: warp and lane from the thread's number in its block (warpSize). */
    p.warp = p.thread / warpSize;
    p.lane = p.thread % warpSize;
    /* SOLUTION END */
    out[global] = p;
}

/* A row of threads: the index every 1D kernel starts from. */
__global__ void place_1d(struct thread_place *out)
{
    /* SOLUTION BEGIN: write_place(out, the global index from blockIdx.x, blockDim.x and
     * threadIdx.x). */
    write_place(out, blockIdx.x * blockDim.x + threadIdx.x);
    /* SOLUTION END */
}

/* A plane of threads: x and y over the whole grid, rows as wide as the grid's threads. */
__global__ void place_2d(struct thread_place *out)
{
    /* SOLUTION BEGIN: x and y over the grid, then write_place(out, y * width + x), the
     * width being the grid's threads along x. */
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    write_place(out, y * (gridDim.x * blockDim.x) + x);
    /* SOLUTION END */
}

/* A volume of threads: planes of rows, x fastest. */
__global__ void place_3d(struct thread_place *out)
{
    /* SOLUTION BEGIN: x, y and z over the grid, then write_place(out, (z * height + y) *
     * width + x), height and width the grid's threads along y and x. */
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned width = gridDim.x * blockDim.x, height = gridDim.y * blockDim.y;
    write_place(out, (z * height + y) * width + x);
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: launch the variant's kernel on grid x block, then CUDA_TRY_LAUNCH():
     * a shape the device refuses launches nothing, and only cudaGetLastError says so. */
    switch (v) {
    case HELLO_PLACE_1D:
        place_1d<<<grid, block>>>(out);
        break;
    case HELLO_PLACE_2D:
        place_2d<<<grid, block>>>(out);
        break;
    default:
        place_3d<<<grid, block>>>(out);
        break;
    }
    CUDA_TRY_LAUNCH();
    /* SOLUTION END */
    return LAB_OK;
}

int hello_print_launch(dim3 grid, dim3 block)
{
    /* SOLUTION BEGIN: launch say_hello on grid x block, and check the launch. */
    say_hello<<<grid, block>>>();
    CUDA_TRY_LAUNCH();
    /* SOLUTION END */
    return LAB_OK;
}

/* The device's figures: most from cudaGetDeviceProperties, the two clocks from
 * cudaDeviceGetAttribute (CUDA 13 took them out of cudaDeviceProp). Every call checked: a
 * device number that does not exist is CUDA's to refuse, and the caller's to hear of. */
int hello_query_device(int device, struct device_facts *out)
{
    cudaDeviceProp prop;
    /* SOLUTION BEGIN: for HELLO_THIS_DEVICE, ask cudaGetDevice which device this thread uses;
     * then cudaGetDeviceProperties(&prop, device) for the name, the compute capability (major,
     * minor), multiProcessorCount, warpSize, maxThreadsPerBlock, sharedMemPerBlock,
     * totalGlobalMem and memoryBusWidth, and cudaDeviceGetAttribute for the clocks
     * (cudaDevAttrClockRate, cudaDevAttrMemoryClockRate). Fill every field of *out, and wrap
     * every call in CUDA_TRY. */
    if (device == HELLO_THIS_DEVICE)
        CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    CUDA_TRY(cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, device));
    CUDA_TRY(cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, device));
    snprintf(out->name, sizeof out->name, "%s", prop.name);
    out->cc_major = prop.major;
    out->cc_minor = prop.minor;
    out->sms = prop.multiProcessorCount;
    out->warp_size = prop.warpSize;
    out->max_threads_per_block = prop.maxThreadsPerBlock;
    out->smem_per_block = prop.sharedMemPerBlock;
    out->global_bytes = prop.totalGlobalMem;
    out->bus_width_bits = prop.memoryBusWidth;
    /* SOLUTION END */
    return LAB_OK;
}
