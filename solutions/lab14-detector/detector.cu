/* lab14: a sliding-window detector. Yours: the kernels; launch.cu checks the arguments and
 * launches them. Every 16 x 16 window of the image runs a soft cascade: stage t adds its weak
 * classifier's answer to the window's confidence d, and the window is rejected as soon as d
 * falls below the stage's threshold. Most windows fall within a few stages, a few percent run
 * hundreds or thousands: the lesson is how to map work this irregular onto warps. Everything
 * is integer, so every variant's decisions are the reference's exactly. */
#include <limits.h>
#include "detector.h"
#include "warp.h"

/* Stage t of the cascade in one 16-byte load (a copy of the struct would load it field by
 * field, four loads). */
__device__ struct detector_stage stage(const struct detector_stage *cascade, unsigned t)
{
    union {
        int4 raw;
        struct detector_stage s;
    } u;
    u.raw = __ldg((const int4 *)cascade + t);
    return u.s;
}

/* The answer of stage s for the window whose top-left pixel is p: +weight when pixel a is
 * brighter than pixel b by more than theta, else -weight. */
__device__ int respond(const unsigned char *p, unsigned width, struct detector_stage s)
{
    int f = p[s.a / DETECTOR_WIN * width + s.a % DETECTOR_WIN] -
            p[s.b / DETECTOR_WIN * width + s.b % DETECTOR_WIN];
    return f > s.theta ? s.weight : -s.weight;
}

/* 1. A thread per window: each thread walks the cascade of its window, stage after stage,
 * and stops at the first stage whose threshold its confidence falls below. Teaches the early
 * exit. Costs: a warp's 32 windows reject at different stages, and the warp runs until its
 * last one does, most of its lanes idle (with a few percent of the windows running long,
 * most warps hold one). Its loads are the cheapest of the three: the lanes read the same
 * stage and 32 neighbouring pixels. */
__global__ void detector_thread_per_window(const unsigned char *image, unsigned width,
                                           unsigned height, const struct detector_stage *cascade,
                                           unsigned nstages, unsigned char *mask, unsigned *ran)
{
    unsigned across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    /* SOLUTION BEGIN: w = the global thread index (in size_t); a thread with w < across *
     * down takes window w, whose top-left pixel is (w % across, w / across). d = 0; for
     * t = 0, 1, ...: s = stage(cascade, t), d += respond(p, width, s), and when d < s.reject
     * the window is rejected after t + 1 stages. mask[w] = 1 when no stage rejected it (0
     * otherwise); ran[w] = the stages it evaluated. */
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= (size_t)across * down)
        return;
    const unsigned char *p = image + w / across * width + w % across;
    int d = 0, accepted = 1;
    unsigned t = 0;
    for (; t < nstages; t++) {
        struct detector_stage s = stage(cascade, t);
        d += respond(p, width, s);
        if (d < s.reject) {
            accepted = 0;
            break;
        }
    }
    mask[w] = (unsigned char)accepted;
    ran[w] = accepted ? t : t + 1;
    /* SOLUTION END */
}

/* 2. A warp per window: lane i evaluates stage base + i, 32 stages at once. The confidence
 * after each of them is the running sum of the answers: a prefix sum across the warp
 * (__shfl_up_sync, five steps), plus d before the chunk. A ballot of the lanes under their
 * threshold says whether the window falls in this chunk, and __ffs at which stage. Teaches
 * warp-wide decisions: the lanes never diverge. Costs: the stages past the rejecting one are
 * evaluated for nothing (31 of 32 lanes wasted for a window rejected at its first stage). */
__global__ void detector_warp_per_window(const unsigned char *image, unsigned width,
                                         unsigned height, const struct detector_stage *cascade,
                                         unsigned nstages, unsigned char *mask, unsigned *ran)
{
    unsigned across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    unsigned lane = threadIdx.x % WARP;
    /* SOLUTION BEGIN: w = the global thread index / 32 (in size_t): the warp's window,
     * when below across * down (the whole warp returns otherwise). d = 0; for each chunk
     * base = 0, 32, ...: lane's answer x for stage t = base + lane (from stage(cascade, t);
     * 0, with threshold INT_MIN, past the last stage); an inclusive prefix sum of x over the
     * lanes by __shfl_up_sync at offsets 1, 2, 4, 8, 16 (a lane below the offset adds
     * nothing); x += d; out = __ballot_sync of x < threshold. out != 0: rejected, having run
     * base + __ffs(out) stages. Else d = lane 31's x, next chunk. Lane 0 writes mask and ran. */
    size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (w >= (size_t)across * down)
        return;
    const unsigned char *p = image + w / across * width + w % across;
    int d = 0, accepted = 1;
    unsigned stages = nstages;
    for (unsigned base = 0; base < nstages; base += WARP) {
        unsigned t = base + lane;
        int x = 0, reject = INT_MIN;
        if (t < nstages) {
            struct detector_stage s = stage(cascade, t);
            x = respond(p, width, s);
            reject = s.reject;
        }
        for (unsigned off = 1; off < WARP; off *= 2) {
            int y = __shfl_up_sync(FULL_MASK, x, off);
            if (lane >= off)
                x += y;
        }
        x += d;
        unsigned out = __ballot_sync(FULL_MASK, x < reject);
        if (out) {
            accepted = 0;
            stages = base + __ffs(out);
            break;
        }
        d = __shfl_sync(FULL_MASK, x, WARP - 1);
    }
    if (lane == 0) {
        mask[w] = (unsigned char)accepted;
        ran[w] = stages;
    }
    /* SOLUTION END */
}

/* The lanes of a window in detector_warp_per_4_windows, and its stages per chunk. */
#define GROUP 8u

/* 3. A warp per 4 neighbouring windows of a row: lanes 8k .. 8k + 7 evaluate 8 consecutive
 * stages of window k, a prefix sum over 8 lanes (__shfl_up_sync of width 8) and the window's
 * byte of one ballot decide each window, and the warp goes on while any of its windows lives.
 * Teaches segmented warp collectives. The 4 lanes of a stage (j, 8 + j, 16 + j, 24 + j) read
 * the same 16 bytes of the cascade and 4 neighbouring pixels: a chunk's loads touch 8 stages
 * and at most 8 rows of the image for 4 windows (as the seed's 16-byte loads served a feature
 * to 4 windows at once). Costs: 8 stages a step, fewer wasted past a rejection, but a warp
 * lives as long as the last of its 4 windows. */
__global__ void detector_warp_per_4_windows(const unsigned char *image, unsigned width,
                                            unsigned height, const struct detector_stage *cascade,
                                            unsigned nstages, unsigned char *mask, unsigned *ran)
{
    unsigned across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    unsigned lane = threadIdx.x % WARP;
    unsigned k = lane / GROUP, j = lane % GROUP, groups = (across + 3) / 4;
    /* SOLUTION BEGIN: g = the global thread index / 32 (in size_t), the warp's group of 4
     * windows when below groups * down: row g / groups, first column g % groups * 4; lane's
     * window wx = that + k, alive while wx < across. For each chunk base = 0, 8, ... while
     * __any_sync(alive): lane's stage base + j, its answer x (0 with threshold INT_MIN when
     * dead or past the last stage); a prefix sum of width 8; x += d; out = the window's byte
     * of the ballot of x < threshold; out != 0: dead after base + __ffs(out) stages; d = lane
     * 7's x of the group. Lane j == 0 of a window inside the image writes mask and ran. */
    size_t g = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (g >= (size_t)groups * down)
        return;
    unsigned wy = (unsigned)(g / groups), wx = (unsigned)(g % groups) * 4 + k;
    const unsigned char *p = image + (size_t)wy * width + wx;
    int d = 0, alive = wx < across;
    unsigned stages = nstages;
    for (unsigned base = 0; base < nstages && __any_sync(FULL_MASK, alive); base += GROUP) {
        int x = 0, reject = INT_MIN;
        if (alive && base + j < nstages) {
            struct detector_stage s = stage(cascade, base + j);
            x = respond(p, width, s);
            reject = s.reject;
        }
        for (unsigned off = 1; off < GROUP; off *= 2) {
            int y = __shfl_up_sync(FULL_MASK, x, off, GROUP);
            if (j >= off)
                x += y;
        }
        x += d;
        unsigned out = __ballot_sync(FULL_MASK, x < reject) >> (k * GROUP) & 0xffu;
        if (alive && out) {
            alive = 0;
            stages = base + __ffs(out);
        }
        d = __shfl_sync(FULL_MASK, x, GROUP - 1, GROUP);
    }
    if (j == 0 && wx < across) {
        mask[(size_t)wy * across + wx] = (unsigned char)alive;
        ran[(size_t)wy * across + wx] = stages;
    }
    /* SOLUTION END */
}

/* 4. Compacted: the cascade in chunks of DETECTOR_CHUNK stages, a launch each, over a queue of
 * the windows still alive. A thread takes a window of the queue and walks the chunk's stages
 * with the early exit; a window that a stage rejects is written out, one that passes the chunk
 * goes into the next launch's queue with its confidence. The warp's survivors take their
 * places with one atomicAdd (a ballot says which lanes keep a window, __popc how many, and
 * each lane's place is the keepers below it): the queue's order is whatever the atomics'
 * order is, and nothing depends on it, since each window's answer goes to its own place in
 * mask and ran. Teaches compaction between launches: the work of a launch follows the
 * survivors, so after the first chunks no lane is spent on a window that is already rejected,
 * and a lane waits for another window at most to the end of the chunk. Costs: a launch per
 * chunk (128 of them for 2048 stages, each waiting for the one before, even once the queue is
 * empty), a write and a read of the queue per survivor per chunk, and a grid sized without
 * knowing the queue's length (the host would have to wait for it), striding over it. */
__global__ void detector_compacted(const unsigned char *image, unsigned width, unsigned height,
                                   const struct detector_stage *cascade, unsigned nstages,
                                   unsigned base, const struct detector_window *in,
                                   struct detector_window *out, unsigned *counts,
                                   unsigned char *mask, unsigned *ran)
{
    unsigned across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    unsigned lane = threadIdx.x % WARP, chunk = base / DETECTOR_CHUNK;
    /* SOLUTION BEGIN: end = base + DETECTOR_CHUNK, or nstages if less. The queue: queued =
     * across * down windows for chunk 0 (entry i: window i, d = 0), else counts[chunk % 3]
     * entries of in. Thread 0 of block 0 zeroes counts[(chunk + 2) % 3]. The warps stride
     * over the queue by the grid's threads, each warp at i0 = its first thread's global index
     * (the same for its 32 lanes, so that all of them reach every *_sync); lane's entry
     * i = i0 + lane when below queued: stages base .. end - 1 from its d, stopping at the
     * first d < s.reject (mask 0, ran t + 1); alive after end == nstages: mask 1, ran
     * nstages; alive before that: kept. keep = __ballot_sync of the kept lanes; lane 0 takes
     * __popc(keep) places at once, at = atomicAdd(&counts[(chunk + 1) % 3], __popc(keep)),
     * when keep != 0; __shfl_sync gives at to every lane; a kept lane writes its window and
     * d to out[at + the kept lanes below it]. */
    unsigned end = nstages - base < DETECTOR_CHUNK ? nstages : base + DETECTOR_CHUNK;
    unsigned queued = base == 0 ? across * down : counts[chunk % 3];
    unsigned *next = &counts[(chunk + 1) % 3];
    size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x - lane;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        counts[(chunk + 2) % 3] = 0;
    for (; i0 < queued; i0 += (size_t)gridDim.x * blockDim.x) {
        size_t i = i0 + lane;
        struct detector_window q = {(unsigned)i, 0};
        int kept = 0;
        if (i < queued) {
            if (base != 0)
                q = in[i];
            const unsigned char *p = image + q.window / across * width + q.window % across;
            unsigned t = base;
            for (; t < end; t++) {
                struct detector_stage s = stage(cascade, t);
                q.d += respond(p, width, s);
                if (q.d < s.reject)
                    break;
            }
            if (t < end) {
                mask[q.window] = 0;
                ran[q.window] = t + 1;
            } else if (end == nstages) {
                mask[q.window] = 1;
                ran[q.window] = nstages;
            } else {
                kept = 1;
            }
        }
        unsigned keep = __ballot_sync(FULL_MASK, kept), at = 0;
        if (lane == 0 && keep)
            at = atomicAdd(next, __popc(keep));
        at = __shfl_sync(FULL_MASK, at, 0);
        if (kept)
            out[at + __popc(keep & ((1u << lane) - 1))] = q;
    }
    /* SOLUTION END */
}
