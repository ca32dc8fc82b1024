/* lab06: the sum of n int32 on the device, the host API that main.c and the tests call.
 * One variant per step of Harris's "Optimizing Parallel Reduction in CUDA" (kernels 1-7),
 * the modern steps that followed, and the two atomic baselines students meet first. */
#ifndef REDUCTION_H
#define REDUCTION_H

#include <stddef.h>
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

enum reduce_variant {
    REDUCE_INTERLEAVED_DIVERGENT, /* 1: tid % (2s) picks the adding threads: divergent warps */
    REDUCE_INTERLEAVED_STRIDED,   /* 2: index 2 s tid: no divergence, bank conflicts */
    REDUCE_SEQUENTIAL,            /* 3: halves the active range: no conflicts */
    REDUCE_FIRST_ADD_DURING_LOAD, /* 4: each thread adds two elements while loading */
    REDUCE_UNROLL_LAST_WARP,      /* 5: the last 32 threads finish without __syncthreads */
    REDUCE_COMPLETE_UNROLL,       /* 6: block size a template parameter, every loop unrolled */
    REDUCE_CASCADED,              /* 7: many elements per thread, grid sized to the GPU */
    REDUCE_WARP_SHUFFLE,          /* 8: warps reduce in registers with __shfl_down_sync */
    REDUCE_VECTOR_LOAD,           /* 9: 16-byte int4 loads */
    REDUCE_SINGLE_PASS,           /* 10: one launch, the last block done adds the partials */
    REDUCE_GLOBAL_ATOMIC,         /* baseline: one atomicAdd on the result per element */
    REDUCE_SHARED_ATOMIC,         /* baseline: atomics on a shared sum, one global per block */
    REDUCE_VARIANTS
};

static const char *const reduce_names[] = {
    "interleaved_divergent", "interleaved_strided", "sequential", "first_add_during_load",
    "unroll_last_warp",      "complete_unroll",     "cascaded",   "warp_shuffle",
    "vector_load",           "single_pass",         "global_atomic", "shared_atomic", NULL};

enum { REDUCE_THREADS = 256 }; /* the block size main.c and most tests use */

/* 1 when variant v accepts blocks of `threads` threads, else 0. Every tree variant needs a
 * power of two: 2..1024 for kernels 1-3 (one thread cannot halve anything), 64..1024 for
 * unroll_last_warp (its last warp reads sdata[tid + 32]), 1..1024 for first_add_during_load,
 * complete_unroll and cascaded, 32..1024 for the shuffle variants (whole warps); the atomic
 * baselines take any size from 1 to 1024. */
int reduce_threads_ok(enum reduce_variant v, unsigned threads);

/* Bytes of device scratch that reduce_sum needs for n elements (partial sums of each
 * pass, and the counter of single_pass); 0 for the atomic baselines or bad arguments. */
size_t reduce_scratch_bytes(enum reduce_variant v, size_t n, unsigned threads);

/* out[0] = in[0] + ... + in[n - 1] (int32, wrapping as the hardware adds) with variant v
 * on blocks of `threads` threads, launching as many passes as v needs. Returns LAB_OK,
 * LAB_EINVAL (bad variant, n == 0 or n > INT_MAX, n beyond in, NULL or too small out or
 * scratch, a block size v does not accept, in not 16-byte aligned for the int4 variants)
 * or LAB_ECUDA. Asynchronous, like a kernel launch. */
int reduce_sum(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
               struct gpu_buf scratch, struct gpu_buf out);

/* library.cu, CUDA builds only: cub::DeviceReduce::Sum on the same buffers. Call with
 * temp.ptr NULL first: *temp_bytes receives the scratch that CUB needs. */
int reduce_cub(struct gpu_buf in, size_t n, struct gpu_buf temp, size_t *temp_bytes,
               struct gpu_buf out);

/* reference.c: the CPU loop everything is checked against, accumulated in 64 bits. */
long long reduce_sum_cpu(const int *x, size_t n);

#ifdef __cplusplus
}
#endif
#endif
