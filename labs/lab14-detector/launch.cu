/* lab14's host API: the arguments checked, then the kernels of detector.cu launched. */
#include "check.h"
#include "detector.h"

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

static int fits(struct gpu_buf buf, size_t n, size_t size)
{
    return buf.ptr && n <= buf.bytes / size;
}

extern "C" int detector(enum detector_variant v, struct gpu_buf image, size_t width, size_t height,
                        struct gpu_buf cascade, unsigned nstages, struct gpu_buf mask,
                        struct gpu_buf ran)
{
    const unsigned char *img = (const unsigned char *)image.ptr;
    const struct detector_stage *stages = (const struct detector_stage *)cascade.ptr;
    unsigned char *m = (unsigned char *)mask.ptr;
    unsigned *r = (unsigned *)ran.ptr;
    size_t windows = detector_windows(width, height), threads;
    if ((unsigned)v >= DETECTOR_VARIANTS || width > DETECTOR_MAX_SIDE ||
        height > DETECTOR_MAX_SIDE || nstages == 0 || nstages > DETECTOR_MAX_STAGES)
        return LAB_EINVAL;
    if (!fits(image, width * height, 1) || !fits(cascade, nstages, sizeof *stages) ||
        !fits(mask, windows, 1) || !fits(ran, windows, sizeof(unsigned)))
        return LAB_EINVAL;
    if (windows == 0)
        return LAB_OK;
    /* A thread, a warp, or a warp per 4 windows of a row. */
    if (v == DETECTOR_THREAD_PER_WINDOW)
        threads = windows;
    else if (v == DETECTOR_WARP_PER_WINDOW)
        threads = windows * 32;
    else
        threads = div_up(width - DETECTOR_WIN + 1, 4) * (height - DETECTOR_WIN + 1) * 32;
    dim3 grid((unsigned)div_up(threads, DETECTOR_BLOCK)), block(DETECTOR_BLOCK);
    unsigned w = (unsigned)width, h = (unsigned)height;
    switch (v) {
    case DETECTOR_THREAD_PER_WINDOW:
        detector_thread_per_window<<<grid, block>>>(img, w, h, stages, nstages, m, r);
        break;
    case DETECTOR_WARP_PER_WINDOW:
        detector_warp_per_window<<<grid, block>>>(img, w, h, stages, nstages, m, r);
        break;
    case DETECTOR_WARP_PER_4_WINDOWS:
        detector_warp_per_4_windows<<<grid, block>>>(img, w, h, stages, nstages, m, r);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
