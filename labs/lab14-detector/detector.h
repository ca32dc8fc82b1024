/* lab14: detector. The table of variants, the host API that rows.c and the tests call
 * (launch.cu), and the kernels of detector.cu that launch.cu launches. */
#ifndef DETECTOR_H
#define DETECTOR_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* compacted's stages per launch: a launch evaluates stages base .. base + DETECTOR_CHUNK - 1
 * of the windows still alive. Fewer stages a launch keep fewer lanes waiting on a window
 * that a chunk rejects early, and cost more launches and more queue traffic. */
#ifndef DETECTOR_CHUNK /* -DDETECTOR_CHUNK=8 to compare */
#define DETECTOR_CHUNK 16u
#endif
#if DETECTOR_CHUNK < 1 || DETECTOR_CHUNK > 65535
#error "DETECTOR_CHUNK: 1 to 65535 stages a launch"
#endif

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its launch facts, what it teaches. The facts:
 *   windows  how many windows one warp evaluates (0: one per thread, 32 per warp)
 *   chunk    the stages one launch evaluates (0: the whole cascade in one launch) */
// clang-format off
#define DETECTOR_TABLE(X) /* windows per warp, stages per launch */ \
    X(DETECTOR_THREAD_PER_WINDOW, "thread_per_window", (0, 0), \
      "a thread walks one window's cascade: lanes that reject early idle for the slowest") \
    X(DETECTOR_WARP_PER_WINDOW, "warp_per_window", (1, 0), \
      "32 stages at a time, a shuffle prefix sum and a ballot: no lane waits for another window") \
    X(DETECTOR_WARP_PER_4_WINDOWS, "warp_per_4_windows", (4, 0), \
      "4 windows a warp, 8 lanes each, the survivors taking the lanes of the fallen") \
    X(DETECTOR_COMPACTED, "compacted", (0, DETECTOR_CHUNK), \
      "a launch per chunk of stages over a queue of the survivors: no lane kept on a dead window")
// clang-format on

enum detector_variant { DETECTOR_TABLE(LAB_ENUM) DETECTOR_VARIANTS };
static const struct lab_variant detector_variants[] = {DETECTOR_TABLE(LAB_VARIANT)};
struct detector_facts {
    unsigned windows, chunk;
};
static const struct detector_facts detector_facts[] = {DETECTOR_TABLE(LAB_FACTS)};

/* A window: DETECTOR_WIN x DETECTOR_WIN pixels, at every pixel (x, y) of the image where it
 * fits, so a width x height image has (width - 15) x (height - 15) windows, numbered row
 * after row (none when a side is below 16). */
#define DETECTOR_WIN 16u
#define DETECTOR_MAX_SIDE (1u << 15)
/* At most 65535 stages of weight at most 32767: the confidence never overflows an int. */
#define DETECTOR_MAX_STAGES 65535u
/* The threads of a block, in every variant: 4 warps. A block keeps its warps' slots on the SM
 * until its last warp is done, and the windows' work differs by three orders of magnitude:
 * big blocks leave slots waiting for one long window, small ones ask the block scheduler for
 * a block every few windows. 4 warps were the fastest of 1, 2, 4 and 8 on an H100. */
#ifndef DETECTOR_BLOCK /* -DDETECTOR_BLOCK=256 to compare */
#define DETECTOR_BLOCK 128u
#endif

/* One stage of the soft cascade: a weak classifier and its rejection threshold. The
 * classifier compares two pixels of the window, p[a] - p[b] > theta, and answers +weight or
 * -weight; the confidence d is the sum of the answers so far, and a window whose d falls
 * below reject is rejected at that stage. a and b are y * 16 + x in the window, so that any
 * byte names one of its pixels. 16 bytes, aligned to 16: a thread loads a stage in one 16-byte
 * load (detector.cu's stage()). */
struct __attribute__((aligned(16))) detector_stage {
    unsigned char a, b;
    short weight;
    int theta;
    int reject;
    int unused; /* 0 */
};

/* A window in compacted's queue: its number and its confidence after the stages it has run
 * so far (8 bytes, one load). */
struct __attribute__((aligned(8))) detector_window {
    unsigned window;
    int d;
};

/* Bytes of device scratch that detector needs with variant v on a width x height image:
 * compacted's three queue counters and its two queues of a detector_window per window; 0
 * for the other variants, an image without windows or a bad variant. */
size_t detector_scratch_bytes(enum detector_variant v, size_t width, size_t height);

/* The cascade: stages[0 .. nstages - 1] applied in order to every window of image (width x
 * height bytes, row after row): mask[w] = 1 when window w passes every stage, 0 when it is
 * rejected; ran[w] = the stages it evaluated (nstages when accepted, t + 1 when rejected at
 * stage t). scratch: detector_scratch_bytes(v, width, height) bytes of device memory (none
 * where that is 0), which the call may overwrite. Returns LAB_OK (nothing to do for an image
 * without windows), LAB_EINVAL for a bad variant, a NULL buffer, a side beyond
 * DETECTOR_MAX_SIDE, nstages of 0 or beyond DETECTOR_MAX_STAGES, or a buffer too small
 * (image: width x height bytes; cascade: nstages stages; mask: a byte, ran: an unsigned per
 * window; scratch: detector_scratch_bytes); or LAB_ECUDA. Asynchronous. */
int detector(enum detector_variant v, struct gpu_buf image, size_t width, size_t height,
             struct gpu_buf cascade, unsigned nstages, struct gpu_buf mask, struct gpu_buf ran,
             struct gpu_buf scratch);

/* The number of windows of a width x height image. */
static inline size_t detector_windows(size_t width, size_t height)
{
    if (width < DETECTOR_WIN || height < DETECTOR_WIN)
        return 0;
    return (width - DETECTOR_WIN + 1) * (height - DETECTOR_WIN + 1);
}

/* reference.c: the CPU loop everything is checked against (windows row0 .. row0 + rows - 1
 * of the rows of windows; rows.c deals them out to cores), and the synthetic problem. */
void detector_cpu_rows(const unsigned char *image, size_t width, size_t height,
                       const struct detector_stage *cascade, unsigned nstages, unsigned char *mask,
                       unsigned *ran, size_t row0, size_t rows);
void detector_cpu(const unsigned char *image, size_t width, size_t height,
                  const struct detector_stage *cascade, unsigned nstages, unsigned char *mask,
                  unsigned *ran);
/* A cascade of nstages drawn from seed, trained on an object (a 16 x 16 pattern drawn from
 * the same seed): every stage's pixel pair differs by 48 or more on it, so that the object
 * passes every stage with 8 grey levels of noise on it (its confidence: the sum of the
 * weights). The threshold after stage t is what a window of noise expects by then (each stage
 * answers +weight with the chance that p[a] - p[b] > theta for two random bytes) plus 1/32 of
 * the weights so far: a window must beat chance to stay. Most windows of noise fall within a
 * few stages; the few whose pixels happen to resemble the object beat chance for hundreds or
 * thousands of stages, like a real detector's hard negatives; the last stage asks for half
 * the object's confidence, which only the objects have. */
void detector_cascade(struct detector_stage *cascade, unsigned nstages, uint64_t seed);
/* A noise image drawn from seed with count copies of the object (seed's) planted at (x[k],
 * y[k]), each with its own noise of up to 8 levels. */
void detector_image(unsigned char *image, size_t width, size_t height, uint64_t seed,
                    const size_t *x, const size_t *y, size_t count);

#ifdef __cplusplus
}

__global__ void detector_thread_per_window(const unsigned char *image, unsigned width,
                                           unsigned height, const struct detector_stage *cascade,
                                           unsigned nstages, unsigned char *mask, unsigned *ran);
__global__ void detector_warp_per_window(const unsigned char *image, unsigned width,
                                         unsigned height, const struct detector_stage *cascade,
                                         unsigned nstages, unsigned char *mask, unsigned *ran);
__global__ void detector_warp_per_4_windows(const unsigned char *image, unsigned width,
                                            unsigned height, const struct detector_stage *cascade,
                                            unsigned nstages, unsigned char *mask, unsigned *ran);
/* compacted: one launch per chunk of stages, base = 0, DETECTOR_CHUNK, 2 DETECTOR_CHUNK, ...
 * below nstages, in one stream. The launch of chunk c = base / DETECTOR_CHUNK evaluates
 * stages base .. min(base + DETECTOR_CHUNK, nstages) - 1 of the windows in its queue: every
 * window of the image (w, with d = 0) for chunk 0, which reads nothing from in; in[0 ..
 * counts[c % 3] - 1] after. It writes mask and ran of the windows that a stage of the chunk
 * rejects and, in the last chunk, of those that pass it; it appends the others, with their
 * confidence, to out, counting them in counts[(c + 1) % 3], and zeroes counts[(c + 2) % 3],
 * which the next launch appends to (launch.cu zeroes the three before chunk 0). in and out
 * swap from one launch to the next; each holds a detector_window per window. */
__global__ void detector_compacted(const unsigned char *image, unsigned width, unsigned height,
                                   const struct detector_stage *cascade, unsigned nstages,
                                   unsigned base, const struct detector_window *in,
                                   struct detector_window *out, unsigned *counts,
                                   unsigned char *mask, unsigned *ran);
#endif
#endif
