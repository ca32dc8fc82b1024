/* lab06's host API: the arguments checked against the table of reduction.h, then the
 * kernels of reduction.cu launched, pass after pass (the sums) or in one (minmax). */
#include <limits.h>
#include <stdint.h>
#include "check.h"
#include "reduction.h"

static const unsigned MAX_THREADS = 1024;

static unsigned div_up(size_t x, size_t y)
{
    return (unsigned)((x + y - 1) / y);
}

static int is_pow2(unsigned x)
{
    return x && !(x & (x - 1));
}

extern "C" int reduce_threads_ok(enum reduce_variant v, unsigned threads)
{
    if ((unsigned)v >= REDUCE_VARIANTS || threads < reduce_facts[v].min_threads ||
        threads > MAX_THREADS)
        return 0;
    return reduce_facts[v].atomic || is_pow2(threads);
}

/* Elements one block covers in one pass; for the grid-stride kernels, the fewest each
 * block is given (a grid larger than n / this would leave threads without work). */
static size_t per_block(enum reduce_variant v, unsigned threads)
{
    return (size_t)reduce_facts[v].load * threads;
}

/* Scratch layout, in ints: [first-pass partials: p1][second-pass partials: p2][counter].
 * Passes after the second reuse the two regions in turn, each pass smaller than the last.
 * minmax, in one pass: [the blocks' mins: p1][their maxes: p2 = p1][counter]. */
static void scratch_layout(enum reduce_variant v, size_t n, unsigned threads, size_t *p1,
                           size_t *p2)
{
    *p1 = div_up(n, per_block(v, threads));
    *p2 = reduce_facts[v].op == OP_MINMAX ? *p1 : div_up(*p1, per_block(v, threads));
}

extern "C" size_t reduce_scratch_bytes(enum reduce_variant v, size_t n, unsigned threads)
{
    size_t p1, p2;
    if (!reduce_threads_ok(v, threads) || n == 0 || n > INT_MAX || reduce_facts[v].atomic)
        return 0;
    scratch_layout(v, n, threads, &p1, &p2);
    return (p1 + p2 + 1) * sizeof(int);
}

/* Blocks that fill the GPU once: as many as each SM holds at once (its thread limit or
 * its block limit, whichever bites first), on every SM. The grid-stride kernels use this
 * grid whatever n is, so their partial sums never outnumber it. */
static int device_grid(unsigned threads, unsigned *blocks)
{
    int dev, sms, sm_threads, sm_blocks;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sm_blocks, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    *blocks =
        (unsigned)sms *
        (unsigned)(sm_threads / (int)threads < sm_blocks ? sm_threads / (int)threads : sm_blocks);
    return LAB_OK;
}

/* One pass: `blocks` blocks reduce count elements of src into dst[0..blocks). */
static int launch_pass(enum reduce_variant v, unsigned blocks, unsigned threads, const int *src,
                       int *dst, unsigned count)
{
    size_t shared = threads * sizeof(int);
    switch (v) {
    case REDUCE_INTERLEAVED_DIVERGENT:
        reduce_interleaved_divergent<<<blocks, threads, shared>>>(src, dst, count);
        break;
    case REDUCE_INTERLEAVED_STRIDED:
        reduce_interleaved_strided<<<blocks, threads, shared>>>(src, dst, count);
        break;
    case REDUCE_SEQUENTIAL:
        reduce_sequential<<<blocks, threads, shared>>>(src, dst, count);
        break;
    case REDUCE_FIRST_ADD_DURING_LOAD:
        reduce_first_add_during_load<<<blocks, threads, shared>>>(src, dst, count);
        break;
    case REDUCE_UNROLL_LAST_WARP:
        reduce_unroll_last_warp<<<blocks, threads, shared>>>(src, dst, count);
        break;
    case REDUCE_COMPLETE_UNROLL:
    case REDUCE_CASCADED:
        if (reduce_launch_unrolled(v, blocks, threads, src, dst, count) != LAB_OK)
            return LAB_EINVAL;
        break;
    case REDUCE_WARP_SHUFFLE:
        reduce_warp_shuffle<<<blocks, threads>>>(src, dst, count);
        break;
    case REDUCE_VECTOR_LOAD:
        reduce_vector_load<<<blocks, threads>>>(src, dst, count);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* The multi-level launch: the end of a kernel is the only barrier between all blocks, so
 * each pass turns count elements into one partial sum per block, and the next launch
 * reduces those, until one block writes the result. Kernels 1-6 need a grid as large as
 * count / per_block(); the grid-stride kernels (device_blocks > 0) take a grid that fills
 * the GPU, and one block for the second pass, since a grid-stride block can sum any count. */
static int reduce_passes(enum reduce_variant v, const int *in, unsigned n, unsigned threads,
                         int *scratch, size_t p1, unsigned device_blocks, int *out)
{
    const int *src = in;
    unsigned count = n;
    for (int pass = 0;; pass++) {
        unsigned blocks = div_up(count, per_block(v, threads));
        int *dst, status;
        if (device_blocks && (pass > 0 || blocks > device_blocks))
            blocks = pass > 0 ? 1 : device_blocks;
        dst = blocks == 1 ? out : pass % 2 ? scratch + p1 : scratch;
        status = launch_pass(v, blocks, threads, src, dst, count);
        if (status != LAB_OK || blocks == 1)
            return status;
        src = dst;
        count = blocks;
    }
}

static int launch(enum reduce_variant v, const int *in, unsigned n, unsigned threads, int *scratch,
                  size_t p1, size_t p2, int *out)
{
    unsigned blocks = div_up(n, per_block(v, threads)), device_blocks = 0;
    if (reduce_facts[v].grid_stride && device_grid(threads, &device_blocks) != LAB_OK)
        return LAB_ECUDA;
    switch (v) {
    case REDUCE_SINGLE_PASS:
    case REDUCE_MINMAX: {
        unsigned *done = (unsigned *)(scratch + p1 + p2);
        if (blocks > device_blocks)
            blocks = device_blocks;
        CUDA_TRY(cudaMemsetAsync(done, 0, sizeof *done));
        if (v == REDUCE_MINMAX)
            reduce_minmax<<<blocks, threads>>>(in, scratch, done, out, n);
        else
            reduce_single_pass<<<blocks, threads>>>(in, scratch, done, out, n);
        break;
    }
    case REDUCE_GLOBAL_ATOMIC:
        CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out));
        reduce_global_atomic<<<blocks, threads>>>(in, out, n);
        break;
    case REDUCE_SHARED_ATOMIC:
        CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out));
        reduce_shared_atomic<<<blocks, threads>>>(in, out, n);
        break;
    default:
        return reduce_passes(v, in, n, threads, scratch, p1, device_blocks, out);
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* The checks that reduce_sum and reduce_extrema share: v computes op, and out holds
 * out_ints results. */
static int args_ok(enum reduce_variant v, unsigned op, struct gpu_buf in, size_t n,
                   unsigned threads, struct gpu_buf scratch, struct gpu_buf out, size_t out_ints)
{
    if (!reduce_threads_ok(v, threads) || reduce_facts[v].op != op)
        return 0;
    if (n == 0 || n > INT_MAX || !in.ptr || n > in.bytes / sizeof(int))
        return 0;
    if (!out.ptr || out.bytes < out_ints * sizeof(int))
        return 0;
    if (!reduce_facts[v].atomic &&
        (!scratch.ptr || scratch.bytes < reduce_scratch_bytes(v, n, threads)))
        return 0;
    return !(reduce_facts[v].int4_loads && (uintptr_t)in.ptr % 16);
}

static int run(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
               struct gpu_buf scratch, struct gpu_buf out)
{
    size_t p1 = 0, p2 = 0;
    if (!reduce_facts[v].atomic)
        scratch_layout(v, n, threads, &p1, &p2);
    return launch(v, (const int *)in.ptr, (unsigned)n, threads, (int *)scratch.ptr, p1, p2,
                  (int *)out.ptr);
}

extern "C" int reduce_sum(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
                          struct gpu_buf scratch, struct gpu_buf out)
{
    if (!args_ok(v, OP_SUM, in, n, threads, scratch, out, 1))
        return LAB_EINVAL;
    return run(v, in, n, threads, scratch, out);
}

extern "C" int reduce_extrema(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
                              struct gpu_buf scratch, struct gpu_buf out)
{
    if (!args_ok(v, OP_MINMAX, in, n, threads, scratch, out, 2))
        return LAB_EINVAL;
    return run(v, in, n, threads, scratch, out);
}
