/* lab06: the sum of n int32 on the device, and their min and max. The table of variants, the
 * host API that rows.c and the tests call (launch.cu), and what reduction.cu gives launch.cu. */
#ifndef REDUCTION_H
#define REDUCTION_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a variant computes (a fact of each): the sum (reduce_sum), or the min and the max
 * at once (reduce_extrema). */
enum { OP_SUM, OP_MINMAX };

/* One variant per step of Harris's "Optimizing Parallel Reduction in CUDA" (1-7), the
 * steps that came with later GPUs (8-10), the two atomic baselines students meet first, and
 * step 10 with another operator. A row: the enum constant, the name (tests, --variant, bench
 * rows, points), its launch facts, what it teaches. The facts:
 *   min   the smallest block it takes (blocks are powers of two up to 1024, except for
 *         the atomic baselines, which take any size from 1)
 *   load  elements a thread adds while loading, in one pass (a block covers load x threads)
 *   grid  1: a grid that fills the GPU once and strides over any n; 0: one block per
 *         load x threads elements, pass after pass
 *   int4  1: 16-byte loads, so the input must be 16-byte aligned
 *   atom  1: atomics on the result: one pass, no scratch
 *   op    OP_SUM or OP_MINMAX: what it computes, and so the function that runs it */
// clang-format off
#define REDUCE_TABLE(X)                                   /* min load grid int4 atom op */         \
    X(REDUCE_INTERLEAVED_DIVERGENT, "interleaved_divergent", ( 2,   1,   0,   0,   0, OP_SUM),     \
      "1: tid % (2s) picks the adding threads: divergent warps")                                   \
    X(REDUCE_INTERLEAVED_STRIDED, "interleaved_strided",     ( 2,   1,   0,   0,   0, OP_SUM),     \
      "2: index 2 s tid: no divergence, but bank conflicts")                                       \
    X(REDUCE_SEQUENTIAL, "sequential",                       ( 2,   1,   0,   0,   0, OP_SUM),     \
      "3: halve the active range: no conflicts, half the threads idle at once")                    \
    X(REDUCE_FIRST_ADD_DURING_LOAD, "first_add_during_load", ( 1,   2,   0,   0,   0, OP_SUM),     \
      "4: each thread adds two elements while loading")                                            \
    X(REDUCE_UNROLL_LAST_WARP, "unroll_last_warp",           (64,   2,   0,   0,   0, OP_SUM),     \
      "5: the last 32 threads finish without __syncthreads")                                       \
    X(REDUCE_COMPLETE_UNROLL, "complete_unroll",             ( 1,   2,   0,   0,   0, OP_SUM),     \
      "6: the block size a template parameter, every loop unrolled")                               \
    X(REDUCE_CASCADED, "cascaded",                           ( 1,   2,   1,   0,   0, OP_SUM),     \
      "7: many elements per thread, a grid sized to the GPU")                                      \
    X(REDUCE_WARP_SHUFFLE, "warp_shuffle",                   (32,   2,   1,   0,   0, OP_SUM),     \
      "8: warps add in registers with __shfl_down_sync")                                           \
    X(REDUCE_VECTOR_LOAD, "vector_load",                     (32,   4,   1,   1,   0, OP_SUM),     \
      "9: 16-byte int4 loads")                                                                     \
    X(REDUCE_SINGLE_PASS, "single_pass",                     (32,   4,   1,   1,   0, OP_SUM),     \
      "10: one launch: the last block done adds the partial sums")                                 \
    X(REDUCE_GLOBAL_ATOMIC, "global_atomic",                 ( 1,   1,   0,   0,   1, OP_SUM),     \
      "baseline: one atomicAdd on the result per element")                                         \
    X(REDUCE_SHARED_ATOMIC, "shared_atomic",                 ( 1,   1,   0,   0,   1, OP_SUM),     \
      "baseline: atomics on a shared sum, one global atomic per block")                            \
    X(REDUCE_MINMAX, "minmax",                               (32,   4,   1,   1,   0, OP_MINMAX),  \
      "10 with min and max at once: another associative operator, and its identity")
// clang-format on

enum reduce_variant { REDUCE_TABLE(LAB_ENUM) REDUCE_VARIANTS };
static const struct lab_variant reduce_variants[] = {REDUCE_TABLE(LAB_VARIANT)};
struct reduce_facts {
    unsigned min_threads, load, grid_stride, int4_loads, atomic, op;
};
static const struct reduce_facts reduce_facts[] = {REDUCE_TABLE(LAB_FACTS)};

enum { REDUCE_THREADS = 256 }; /* the block size rows.c and most tests use */

/* 1 when variant v takes blocks of `threads` threads (its table row), else 0. */
int reduce_threads_ok(enum reduce_variant v, unsigned threads);

/* Bytes of device scratch that reduce_sum or reduce_extrema needs for n elements (partial
 * sums of each pass, the partial mins and maxes, the counter of single_pass and minmax); 0
 * for the atomic baselines or bad arguments. */
size_t reduce_scratch_bytes(enum reduce_variant v, size_t n, unsigned threads);

/* out[0] = in[0] + ... + in[n - 1] (int32, wrapping as the hardware adds) with variant v
 * on blocks of `threads` threads, launching as many passes as v needs. Returns LAB_OK,
 * LAB_EINVAL (bad variant or one that is not OP_SUM, n == 0 or n > INT_MAX, n beyond in,
 * NULL or too small out or scratch, a block size v does not take, in not 16-byte aligned
 * for the int4 variants) or LAB_ECUDA. Asynchronous, like a kernel launch. */
int reduce_sum(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
               struct gpu_buf scratch, struct gpu_buf out);

/* out[0] = the min of in[0..n), out[1] = their max, with an OP_MINMAX variant v on blocks
 * of `threads` threads (out holds two ints). Returns what reduce_sum returns, LAB_EINVAL
 * also for a variant that is not OP_MINMAX. Asynchronous, like a kernel launch. */
int reduce_extrema(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
                   struct gpu_buf scratch, struct gpu_buf out);

/* library.cu, CUDA builds only: cub::DeviceReduce::Sum on the same buffers. Call with
 * temp.ptr NULL first: *temp_bytes receives the scratch that CUB needs. */
int reduce_cub(struct gpu_buf in, size_t n, struct gpu_buf temp, size_t *temp_bytes,
               struct gpu_buf out);

/* reference.c: the CPU loops everything is checked against: the sum accumulated in 64 bits;
 * the min and the max of x[0..n) in *min and *max (INT_MAX and INT_MIN for n == 0). */
long long reduce_sum_cpu(const int *x, size_t n);
void reduce_extrema_cpu(const int *x, size_t n, int *min, int *max);

#ifdef __cplusplus
}

/* reduction.cu's kernels, for launch.cu. Each block writes the sum of its share of in to
 * out[blockIdx.x]; the baselines add into *out (zeroed first). */
__global__ void reduce_interleaved_divergent(const int *in, int *out, unsigned n);
__global__ void reduce_interleaved_strided(const int *in, int *out, unsigned n);
__global__ void reduce_sequential(const int *in, int *out, unsigned n);
__global__ void reduce_first_add_during_load(const int *in, int *out, unsigned n);
__global__ void reduce_unroll_last_warp(const int *in, int *out, unsigned n);
__global__ void reduce_warp_shuffle(const int *in, int *out, unsigned n);
__global__ void reduce_vector_load(const int *__restrict__ in, int *out, unsigned n);
__global__ void reduce_single_pass(const int *__restrict__ in, int *partials, unsigned *done,
                                   int *out, unsigned n);
__global__ void reduce_global_atomic(const int *in, int *out, unsigned n);
__global__ void reduce_shared_atomic(const int *in, int *out, unsigned n);
/* The min/max variant: out[0] = the min, out[1] = the max; partials: gridDim.x mins, then
 * gridDim.x maxes. */
__global__ void reduce_minmax(const int *__restrict__ in, int *partials, unsigned *done, int *out,
                              unsigned n);
/* Kernels 6 and 7 are templates over the block size: CUDA launches a template kernel only
 * from the file that defines it, so reduction.cu launches them for launch.cu. */
int reduce_launch_unrolled(enum reduce_variant v, unsigned blocks, unsigned threads, const int *in,
                           int *out, unsigned n);
#endif
#endif
