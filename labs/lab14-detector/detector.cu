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
    /* TODO: w = the global thread index (in size_t); a thread with w < across *
     * down takes window w, whose top-left pixel is (w % across, w / across). d = 0; for
     * t = 0, 1, ...: s = stage(cascade, t), d += respond(p, width, s), and when d < s.reject
     * the window is rejected after t + 1 stages. mask[w] = 1 when no stage rejected it (0
     * otherwise); ran[w] = the stages it evaluated. */
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
    /* TODO: w = the global thread index / 32 (in size_t): the warp's window,
     * when below across * down (the whole warp returns otherwise). d = 0; for each chunk
     * base = 0, 32, ...: lane's answer x for stage t = base + lane (from stage(cascade, t);
     * 0, with threshold INT_MIN, past the last stage); an inclusive prefix sum of x over the
     * lanes by __shfl_up_sync at offsets 1, 2, 4, 8, 16 (a lane below the offset adds
     * nothing); x += d; out = __ballot_sync of x < threshold. out != 0: rejected, having run
     * base + __ffs(out) stages. Else d = lane 31's x, next chunk. Lane 0 writes mask and ran. */
}

/* The lanes of each window in detector_warp_per_4_windows while 3 or 4 of its windows live:
 * the stages of each that a chunk evaluates then. */
#define GROUP 8u

/* 3. A warp per 4 neighbouring windows of a row, whose survivors take the lanes of the fallen.
 * The lanes form a segment of w lanes per window, lane j of a segment evaluating stage base + j
 * of its window: a prefix sum of width w (__shfl_up_sync) and the segment's w bits of one
 * ballot decide each window. w starts at 8, 8 stages of each of 4 windows, and after a chunk in
 * which windows fell it follows the survivors, whom a ballot of the segments' first lanes
 * counts: 8 while 3 or 4 live, 16 when 2 do, 32 when 1 does. Where w grows, each lane fetches
 * the column and the confidence of the survivor whose segment it joins (__shfl_sync from that
 * segment's first lane); a window's first lane writes its answer as it falls. Teaches segmented
 * warp collectives, and a warp that re-deals its lanes as its work shrinks. In the first chunk
 * the 4 lanes of a stage (j, 8 + j, 16 + j, 24 + j) read the same 16 bytes of the cascade and 4
 * neighbouring pixels (as the seed's 16-byte loads served a feature to 4 windows at once), and
 * a window that falls there wastes at most 7 lanes, not 31; a window left alone runs 32 stages
 * a chunk, as a warp per window does, not 8 with 24 lanes idle. Costs: after a chunk in which
 * windows fell, a ballot, a popcount and a compare, and two shuffles where w grows; every
 * prefix sum takes the 5 shuffles of a warp's, whatever w; a window wastes up to w - 1 lanes
 * past its rejection, and the warp still lives as long as the last of its 4 windows. */
__global__ void detector_warp_per_4_windows(const unsigned char *image, unsigned width,
                                            unsigned height, const struct detector_stage *cascade,
                                            unsigned nstages, unsigned char *mask, unsigned *ran)
{
    unsigned across = width - DETECTOR_WIN + 1, down = height - DETECTOR_WIN + 1;
    unsigned lane = threadIdx.x % WARP, groups = (across + 3) / 4;
    /* TODO: g = the global thread index / 32 (in size_t), the warp's group of 4
     * windows when below groups * down: row wy = g / groups, first column g % groups * 4. At
     * first w = 8, lane's window wx = that + lane / 8 (alive while wx < across), j = lane % 8,
     * d = 0, and fell = __ballot_sync of the lanes not alive. For each chunk, base = 0, then
     * += w, below nstages: when fell != 0, first = __ballot_sync of the alive lanes with j == 0
     * (a bit per live window, at its segment's first lane), n = __popc(first); none: done;
     * wide = 8 for n >= 3, 16 for 2, 32 for 1; where wide != w, the lanes below wide take the
     * survivor at first's lowest bit, the others the one at its next (first & (first - 1)):
     * its wx and d by __shfl_sync from that lane; then alive, w = wide, j = lane % w. Lane's
     * stage base + j, its answer x (0 with threshold INT_MIN when dead or past the last
     * stage); a prefix sum of width w at offsets 1 .. 16 (a lane with j < offset adds
     * nothing); x += d; fell = __ballot_sync of x < threshold; out = fell's w bits from the
     * segment's first lane, lane - j; alive and out != 0: dead, and lane j == 0 writes mask 0
     * and ran base + __ffs(out). d = lane w - 1's x of the segment. After the last chunk, lane
     * j == 0 of each window still alive writes mask 1 and ran nstages. */
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
    /* TODO: end = base + DETECTOR_CHUNK, or nstages if less. The queue: queued =
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
}
