// The CPU backend's virtual device, as cudaGetDeviceProperties and cudaDeviceGetAttribute
// describe it (README: The virtual device), the settings of the environment that shape it and
// the launches, and the rest of the device-wide API: flags, versions, the profiler, nvcc's fast
// math intrinsics.
#include "runtime.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <algorithm>

namespace cucc {
// ---------------------------------------------------------------------------------------------
// The virtual device.
// CUDA_CPU_STRICT=1 (the grader's): what CUDA leaves undefined but lets run is an error.
bool strict_mode()
{
    const char *s = getenv("CUDA_CPU_STRICT");
    return s && *s && strcmp(s, "0");
}

int workers()
{
    const char *s = getenv("CUDA_CPU_WORKERS");
    int n = s ? atoi(s) : 1;
    return n < 1 ? 1 : n > 256 ? 256 : n;
}

// gridDim.y and gridDim.z reach 65535 on a GPU; CUDA_CPU_MAX_GRID_YZ=N (read each time, so a
// test can setenv it) makes it N here, so that a test folds grids at sizes run in seconds.
unsigned grid_yz_limit()
{
    const char *s = getenv("CUDA_CPU_MAX_GRID_YZ");
    long n = s ? atol(s) : 65535;
    return n < 1 ? 1 : n > 65535 ? 65535 : (unsigned)n;
}

// CUDA_CPU_SMS=N: the SMs the device reports (default: one per worker), so that a test can
// have the grids that code sizes to the device be a GPU's, whatever runs their blocks, or
// (up to 2^24 SMs) cover 2^32 elements in one pass, which CUDA_CPU_WINDOW then cuts down.
static int sms()
{
    const char *s = getenv("CUDA_CPU_SMS");
    long n = s ? atol(s) : 0;
    return n < 1 ? workers() : (int)std::min(n, 1L << 24);
}

static cudaDeviceProp properties()
{
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    int w = workers();
    snprintf(p.name, sizeof p.name, "CPU backend (%d worker%s)", w, w > 1 ? "s" : "");
    p.totalGlobalMem = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    p.sharedMemPerBlock = kSmemPerBlock;
    p.sharedMemPerBlockOptin = kSmemOptin;
    p.sharedMemPerMultiprocessor = kSmemOptin;
    p.regsPerBlock = p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.memPitch = INT32_MAX;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = INT32_MAX, p.maxGridSize[1] = p.maxGridSize[2] = (int)grid_yz_limit();
    p.totalConstMem = 65536;
    // The warp semantics implemented: _sync collectives, independent lanes.
    p.major = 7;
    p.minor = 0;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.maxTexture1D = p.maxTexture2D[0] = 1 << 17; // an H100's
    p.maxTexture2D[1] = 1 << 16;
    p.multiProcessorCount = sms();
    p.maxThreadsPerMultiProcessor = 2048;
    p.maxBlocksPerMultiProcessor = 32;
    p.integrated = p.canMapHostMemory = p.unifiedAddressing = p.managedMemory = 1;
    p.pageableMemoryAccess = p.concurrentManagedAccess = 1;
    // Nominal dual-channel DDR4-3200, not measured: the backend has no timing model.
    p.memoryBusWidth = 128;
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    p.l2CacheSize = l2 > 0 ? (int)l2 : 1 << 20;
    return p;
}
static const int kMemoryClockKHz = 1600000;
} // namespace cucc

using namespace cucc;
static unsigned device_flags;

extern "C" {
cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (!prop)
        return fail(cudaErrorInvalidValue);
    if (device != 0)
        return fail(cudaErrorInvalidDevice);
    *prop = properties();
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return fail(cudaErrorInvalidValue);
    if (device != 0)
        return fail(cudaErrorInvalidDevice);
    cudaDeviceProp p = properties();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case cudaDevAttrMaxBlockDimY:
        *value = p.maxThreadsDim[1];
        break;
    case cudaDevAttrMaxBlockDimZ:
        *value = p.maxThreadsDim[2];
        break;
    case cudaDevAttrMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case cudaDevAttrMaxGridDimY:
        *value = p.maxGridSize[1];
        break;
    case cudaDevAttrMaxGridDimZ:
        *value = p.maxGridSize[2];
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = (int)p.sharedMemPerBlock;
        break;
    case cudaDevAttrTotalConstantMemory:
        *value = (int)p.totalConstMem;
        break;
    case cudaDevAttrWarpSize:
        *value = p.warpSize;
        break;
    case cudaDevAttrMaxRegistersPerBlock:
        *value = p.regsPerBlock;
        break;
    case cudaDevAttrClockRate:
        *value = 1000000;
        break; // nominal, like the memory figures
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrMemoryClockRate:
        *value = kMemoryClockKHz;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = (int)p.sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = (int)p.sharedMemPerBlockOptin;
        break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
        *value = p.maxBlocksPerMultiProcessor;
        break;
    case cudaDevAttrMaxPitch:
        *value = (int)p.memPitch;
        break;
    case cudaDevAttrTextureAlignment:
        *value = (int)p.textureAlignment;
        break;
    case cudaDevAttrTexturePitchAlignment:
        *value = (int)p.texturePitchAlignment;
        break;
    case cudaDevAttrMaxTexture1DWidth:
        *value = p.maxTexture1D;
        break;
    case cudaDevAttrMaxTexture1DLinearWidth:
        *value = 1 << 28;
        break;
    case cudaDevAttrMaxTexture2DWidth:
        *value = p.maxTexture2D[0];
        break;
    case cudaDevAttrMaxTexture2DHeight:
        *value = p.maxTexture2D[1];
        break;
    case cudaDevAttrComputeMode:
        *value = cudaComputeModeDefault;
        break;
    case cudaDevAttrIntegrated:
        *value = p.integrated;
        break;
    case cudaDevAttrCanMapHostMemory:
        *value = p.canMapHostMemory;
        break;
    case cudaDevAttrUnifiedAddressing:
        *value = p.unifiedAddressing;
        break;
    case cudaDevAttrManagedMemory:
        *value = p.managedMemory;
        break;
    case cudaDevAttrPageableMemoryAccess:
        *value = p.pageableMemoryAccess;
        break;
    case cudaDevAttrConcurrentManagedAccess:
        *value = p.concurrentManagedAccess;
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
        *value = p.regsPerMultiprocessor;
        break;
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrAsyncEngineCount:
    case cudaDevAttrCooperativeLaunch:
        *value = 0;
        break;
    default:
        return fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v)
{
    return v ? (*v = CUDART_VERSION, cudaSuccess) : fail(cudaErrorInvalidValue);
}
cudaError_t cudaRuntimeGetVersion(int *v)
{
    return cudaDriverGetVersion(v);
}
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!free_bytes || !total_bytes)
        return fail(cudaErrorInvalidValue);
    *total_bytes = properties().totalGlobalMem;
    *free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~(cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax))
        return fail(cudaErrorInvalidValue);
    device_flags = flags;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return fail(cudaErrorInvalidValue);
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}
cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

// nvcc's fast intrinsics, which glibc declares in math.h but does not export: the exact functions.
float __expf(float x) noexcept
{
    return expf(x);
}
float __exp10f(float x) noexcept
{
    return exp10f(x);
}
float __logf(float x) noexcept
{
    return logf(x);
}
float __log2f(float x) noexcept
{
    return log2f(x);
}
float __log10f(float x) noexcept
{
    return log10f(x);
}
float __powf(float x, float y) noexcept
{
    return powf(x, y);
}
float __sinf(float x) noexcept
{
    return sinf(x);
}
float __cosf(float x) noexcept
{
    return cosf(x);
}
float __tanf(float x) noexcept
{
    return tanf(x);
}
void __sincosf(float x, float *s, float *c) noexcept
{
    sincosf(x, s, c);
}
}
