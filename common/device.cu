/* The device's facts behind gpu.h: whether there is one, and what it can do. Host code
 * only: the grader's bench judge builds it too, to ask the device itself, not the worker. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "gpu.h"

int gpu_available(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no device" error */
        return 0;
    }
    return count > 0;
}

int gpu_query(struct gpu_info *info)
{
    cudaDeviceProp prop;
    int dev, clock_khz, bus_bits, sm_clock_khz;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    /* CUDA 13 removed cudaDeviceProp::memoryClockRate: ask for the attributes instead. */
    CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, dev));
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sms = prop.multiProcessorCount;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->global_bytes = prop.totalGlobalMem;
    info->mem_clock_khz = clock_khz;
    info->bus_width_bits = bus_bits;
    info->peak_gbs = ceiling_bandwidth_gbs(clock_khz, bus_bits);
    info->smem_per_block = prop.sharedMemPerBlock;
    info->smem_per_sm = prop.sharedMemPerMultiprocessor;
    info->regs_per_sm = prop.regsPerMultiprocessor;
    info->warp_size = prop.warpSize;
    info->max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    info->max_threads_per_block = prop.maxThreadsPerBlock;
    info->sm_clock_khz = sm_clock_khz;
    info->fp32_lanes = fp32_lanes_per_sm(prop.major, prop.minor);
    info->peak_gflops =
        ceiling_fp32_gflops(prop.multiProcessorCount, info->fp32_lanes, sm_clock_khz);
#ifdef BACKEND_CPU
    info->nominal = 1;
#endif
    return LAB_OK;
}
