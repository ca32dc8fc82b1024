/* What the labs' NPP rows share (lab09's distance transform, lab10's Sobel): an NPP call's
 * status checked like a CUDA call's (NPP_TRY), and NPP's stream context for the default
 * stream, filled once from the device's attributes. Included by a lab's library.cu after
 * NPP's header, where its lab.mk found one; CUDA_TRY and the LAB_ statuses come from check.h. */
#ifndef NPP_CALL_H
#define NPP_CALL_H
#include <stdio.h>
#include <nppdefs.h>
#include "check.h"

static int npp_try(NppStatus status, const char *call, const char *file, int line)
{
    if (status == NPP_SUCCESS)
        return LAB_OK;
    fprintf(stderr, "%s:%d: %s: NPP status %d\n", file, line, call, (int)status);
    return LAB_ECUDA;
}
#define NPP_TRY(call)                                             \
    do {                                                          \
        if (npp_try((call), #call, __FILE__, __LINE__) != LAB_OK) \
            return LAB_ECUDA;                                     \
    } while (0)

static int npp_context(NppStreamContext *ctx)
{
    static NppStreamContext c;
    static int filled;
    if (!filled) {
        int dev, smem;
        CUDA_TRY(cudaGetDevice(&dev));
        c.hStream = 0;
        c.nCudaDeviceId = dev;
        CUDA_TRY(
            cudaDeviceGetAttribute(&c.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev));
        CUDA_TRY(cudaDeviceGetAttribute(&c.nMaxThreadsPerMultiProcessor,
                                        cudaDevAttrMaxThreadsPerMultiProcessor, dev));
        CUDA_TRY(
            cudaDeviceGetAttribute(&c.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev));
        CUDA_TRY(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMajor,
                                        cudaDevAttrComputeCapabilityMajor, dev));
        CUDA_TRY(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMinor,
                                        cudaDevAttrComputeCapabilityMinor, dev));
        CUDA_TRY(cudaStreamGetFlags(0, &c.nStreamFlags));
        CUDA_TRY(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, dev));
        c.nSharedMemPerBlock = (size_t)smem;
        filled = 1;
    }
    *ctx = c;
    return LAB_OK;
}
#endif
