/* lab09 library row: nppiDistanceTransformPBA_8u16u_C1R_Ctx, NPP's exact Euclidean distance
 * transform (Cao, Tang, Tan's Parallel Banding Algorithm), on the same mask as the lab's
 * kernels. It writes floor(|p - q|) to the nearest site as uint16, with no cap; the bench
 * checks min(that, D) = floor(sqrt(a)). On the H100 (CUDA 13) it refuses sides below 64
 * (NPP_SIZE_ERROR from its buffer size), and without a white pixel its output is undefined,
 * so the bench runs it only where neither holds. Compiled for BACKEND=cuda only, and calls NPP where
 * lab.mk found its header (LAB09_NPP); elsewhere the row is missing and the bench says so. */
#include <stdio.h>
#include "check.h"
#include "distance.h"

#ifdef LAB09_NPP
#include <nppi_filtering_functions.h>

#include "npp_call.h"

extern "C" size_t distance_npp_scratch_bytes(unsigned width, unsigned height)
{
    NppiSize roi = {(int)width, (int)height};
    size_t bytes = 0;
    if (width == 0 || height == 0 || width > DISTANCE_MAX_SIDE || height > DISTANCE_MAX_SIDE ||
        nppiDistanceTransformPBAGetBufferSize(roi, &bytes) != NPP_SUCCESS)
        return 0;
    return bytes ? bytes : 1;
}

/* The sites are the white pixels: values 1 to 255. */
extern "C" int distance_npp(struct gpu_buf mask, unsigned width, unsigned height,
                            struct gpu_buf scratch, struct gpu_buf out16)
{
    NppiSize roi = {(int)width, (int)height};
    NppStreamContext ctx;
    size_t need = distance_npp_scratch_bytes(width, height), n = (size_t)width * height;
    if (!need || !mask.ptr || mask.bytes < n || !out16.ptr || out16.bytes < 2 * n || !scratch.ptr ||
        scratch.bytes < need)
        return LAB_EINVAL;
    if (npp_context(&ctx) != LAB_OK)
        return LAB_ECUDA;
    NPP_TRY(nppiDistanceTransformPBA_8u16u_C1R_Ctx(
        (Npp8u *)mask.ptr, (int)width, 1, 255, NULL, 0, NULL, 0, NULL, 0, (Npp16u *)out16.ptr,
        (int)(2 * width), roi, (Npp8u *)scratch.ptr, ctx));
    return LAB_OK;
}
#else
extern "C" size_t distance_npp_scratch_bytes(unsigned width, unsigned height)
{
    (void)width;
    (void)height;
    return 0;
}

extern "C" int distance_npp(struct gpu_buf mask, unsigned width, unsigned height,
                            struct gpu_buf scratch, struct gpu_buf out16)
{
    (void)mask;
    (void)width;
    (void)height;
    (void)scratch;
    (void)out16;
    return LAB_EINVAL;
}
#endif
