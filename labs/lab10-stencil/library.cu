/* lab10 library row: nppiGradientVectorSobelBorder_8u16s_C1R_Ctx, NPP's Sobel gradient, on the
 * same image as the Sobel kernels: 3 x 3 masks, the L1 norm |Sx| + |Sy| as the magnitude
 * (int16, neither scaled nor capped), and a replicated border (NPP_BORDER_REPLICATE, the
 * kernels' clamp). Only the magnitude is asked for: NPP computes an output whose pointer is
 * not NULL. Compiled for BACKEND=cuda only, and calls NPP where lab.mk found its header
 * (LAB10_NPP); elsewhere the row is missing and the bench says so. */
#include <stdio.h>
#include "check.h"
#include "stencil.h"

#ifdef LAB10_NPP
#include <nppi_filtering_functions.h>

#include "npp_call.h"

extern "C" size_t sobel_npp_bytes(size_t pitch, size_t height)
{
    if (pitch == 0 || height == 0 || pitch > SIZE_MAX / 2 / height)
        return 0;
    return 2 * pitch * height;
}

extern "C" int sobel_npp(struct gpu_buf in, struct gpu_buf mag16, size_t width, size_t height,
                         size_t pitch)
{
    NppiSize size = {(int)width, (int)height};
    NppiPoint origin = {0, 0};
    NppStreamContext ctx;
    if (width == 0 || height == 0 || width > SOBEL_MAX_SIDE || height > SOBEL_MAX_SIDE ||
        pitch < width || pitch > INT32_MAX / 2 || !in.ptr || in.bytes / pitch < height ||
        !mag16.ptr || mag16.bytes < sobel_npp_bytes(pitch, height))
        return LAB_EINVAL;
    if (npp_context(&ctx) != LAB_OK)
        return LAB_ECUDA;
    NPP_TRY(nppiGradientVectorSobelBorder_8u16s_C1R_Ctx(
        (const Npp8u *)in.ptr, (int)pitch, size, origin, NULL, 0, NULL, 0, (Npp16s *)mag16.ptr,
        (int)(2 * pitch), NULL, 0, size, NPP_MASK_SIZE_3_X_3, nppiNormL1, NPP_BORDER_REPLICATE,
        ctx));
    return LAB_OK;
}
#else
extern "C" size_t sobel_npp_bytes(size_t pitch, size_t height)
{
    (void)pitch;
    (void)height;
    return 0;
}

extern "C" int sobel_npp(struct gpu_buf in, struct gpu_buf mag16, size_t width, size_t height,
                         size_t pitch)
{
    (void)in;
    (void)mag16;
    (void)width;
    (void)height;
    (void)pitch;
    return LAB_EINVAL;
}
#endif
