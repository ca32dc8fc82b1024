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

/* compacted's scratch: the three queue counters, then its two queues (16 bytes in, so that
 * the queues' 8-byte entries are aligned). */
static const size_t QUEUES_AT = 16;

extern "C" size_t detector_scratch_bytes(enum detector_variant v, size_t width, size_t height)
{
    size_t windows = detector_windows(width, height);
    if ((unsigned)v >= DETECTOR_VARIANTS || !detector_facts[v].chunk || windows == 0)
        return 0;
    return QUEUES_AT + 2 * windows * sizeof(struct detector_window);
}

/* compacted: a launch per chunk of stages, one after another in the default stream, the
 * queues swapping between them. The host cannot know how many windows a chunk leaves without
 * waiting for it (a copy of the counter per chunk, 128 round trips), so every launch gets the
 * same grid, blocks enough to fill every SM once at the kernel's occupancy (no more than the
 * first queue, every window, needs), and its warps stride over whatever queue they find. */
static int launch_compacted(const unsigned char *img, unsigned w, unsigned h,
                            const struct detector_stage *stages, unsigned nstages, unsigned char *m,
                            unsigned *r, size_t windows, void *scratch)
{
    unsigned *counts = (unsigned *)scratch;
    struct detector_window *queue = (struct detector_window *)((char *)scratch + QUEUES_AT);
    int dev, sms, per_sm;
    size_t blocks;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, detector_compacted,
                                                           DETECTOR_BLOCK, 0));
    blocks = (size_t)sms * (size_t)(per_sm > 0 ? per_sm : 1);
    if (blocks > div_up(windows, DETECTOR_BLOCK))
        blocks = div_up(windows, DETECTOR_BLOCK);
    CUDA_TRY(cudaMemsetAsync(counts, 0, 3 * sizeof(unsigned)));
    for (unsigned base = 0, c = 0; base < nstages; base += DETECTOR_CHUNK, c++) {
        detector_compacted<<<(unsigned)blocks, DETECTOR_BLOCK>>>(
            img, w, h, stages, nstages, base, queue + c % 2 * windows,
            queue + (c + 1) % 2 * windows, counts, m, r);
        CUDA_TRY_LAUNCH();
    }
    return LAB_OK;
}

extern "C" int detector(enum detector_variant v, struct gpu_buf image, size_t width, size_t height,
                        struct gpu_buf cascade, unsigned nstages, struct gpu_buf mask,
                        struct gpu_buf ran, struct gpu_buf scratch)
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
    if (detector_scratch_bytes(v, width, height) &&
        !fits(scratch, detector_scratch_bytes(v, width, height), 1))
        return LAB_EINVAL;
    if (windows == 0)
        return LAB_OK;
    if (v == DETECTOR_COMPACTED)
        return launch_compacted(img, (unsigned)width, (unsigned)height, stages, nstages, m, r,
                                windows, scratch.ptr);
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
