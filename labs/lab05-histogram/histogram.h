/* lab05: the 256-bin histogram of n bytes, 32-bit counts. The table of variants, the host
 * API that rows.c and the tests call (launch.cu), and the kernels of histogram.cu that
 * launch.cu launches. */
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bins; the block size of every variant. */
enum { HIST_BINS = 256, HIST_THREADS = 256 };

/* The variants, in the handout's order: each one idea against the contention of many
 * threads counting into few bins. A row: the enum constant, the name (tests, --variant,
 * bench rows, points), its launch facts, what it teaches. The facts:
 *   grid   1: a grid that fills the GPU once and strides over any n; 0: a thread per byte
 *   warps  1: a 32-bit sub-histogram per warp in dynamic shared memory (HIST_BINS counts a
 *          warp); 0: none, or one static sub-histogram per block */
// clang-format off
#define HIST_TABLE(X)                                        /* grid warps */ \
    X(HIST_GLOBAL_ATOMIC, "global_atomic",                     (  0,  0), \
      "atomicAdd on the global bin per byte: every thread contends for 256 words") \
    X(HIST_SHARED_PRIVATIZED, "shared_privatized",             (  1,  0), \
      "a sub-histogram per block in shared memory, merged with global atomics") \
    X(HIST_PER_WARP, "per_warp",                               (  1,  1), \
      "a sub-histogram per warp: contention only among a warp's 32 lanes") \
    X(HIST_WIDE_LOADS, "wide_loads",                           (  1,  1), \
      "16 bytes per load, any alignment: a sixteenth of the load instructions") \
    X(HIST_REGISTER_RUNS, "register_runs",                     (  1,  1), \
      "runs of equal bytes counted in registers: one atomic per run") \
    X(HIST_BEST, "best",                                       (  1,  1), \
      "wide loads with two vectors in flight before the first is counted")
// clang-format on

enum hist_variant { HIST_TABLE(LAB_ENUM) HIST_VARIANTS };
static const struct lab_variant hist_variants[] = {HIST_TABLE(LAB_VARIANT)};
struct hist_facts {
    unsigned grid_stride, per_warp;
};
static const struct hist_facts hist_facts[] = {HIST_TABLE(LAB_FACTS)};

/* The inputs the lab counts, because contention is the lesson: uniform random bytes (few
 * collisions), one byte repeated (every thread on one bin), a natural image's pixels
 * (runs, and a bin or two that dominate). */
enum hist_data { HIST_UNIFORM, HIST_SAME, HIST_IMAGE, HIST_DATA };
extern const char *const hist_data_names[HIST_DATA]; /* "uniform", "same", "image" */

/* out[b] = how many of in[0..n) equal b, for b < HIST_BINS (out: HIST_BINS unsigned ints),
 * with variant v. Returns LAB_OK (n == 0 included: out zeroed), LAB_EINVAL (bad variant,
 * in or out NULL, n beyond in, out smaller than HIST_BINS counts, n >= 2^32: counts and
 * indices are 32-bit) with nothing written, or LAB_ECUDA. Any alignment of in. Asynchronous,
 * like a kernel launch. */
int histogram(enum hist_variant v, struct gpu_buf in, size_t n, struct gpu_buf out);

/* The race that the lab starts from: `out[x]++` without an atomic (not a variant: its
 * counts are wrong on a GPU). The same arguments and checks as histogram(); synchronous, so
 * that the race checker's report of it comes back here, as LAB_ECUDA. */
int histogram_race(struct gpu_buf in, size_t n, struct gpu_buf out);

/* library.cu, CUDA builds only: cub::DeviceHistogram::HistogramEven on the same buffers.
 * Call with temp.ptr NULL first: *temp_bytes receives the scratch that CUB needs. */
int histogram_cub(struct gpu_buf in, size_t n, struct gpu_buf temp, size_t *temp_bytes,
                  struct gpu_buf out);

/* reference.c: the CPU loop everything is checked against (counts: HIST_BINS of them). */
void histogram_cpu(const unsigned char *x, size_t n, unsigned *counts);
/* reference.c: n bytes of input d; seed draws the uniform bytes and the repeated byte. The
 * image is a grey Mandelbrot set, 1024 x 1024, repeated (made once, in about 0.1 s). */
void histogram_fill(enum hist_data d, unsigned char *x, size_t n, uint64_t seed);

#ifdef __cplusplus
}

/* histogram.cu's kernels, for launch.cu. Each adds its counts of in[0..n) into out, which
 * the launcher zeroes first. */
__global__ void histogram_race_kernel(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_global_atomic(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_shared_privatized(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_per_warp(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_wide_loads(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_register_runs(const unsigned char *in, unsigned *out, unsigned n);
__global__ void histogram_best(const unsigned char *in, unsigned *out, unsigned n);
#endif
#endif
