/* lab04's host API: the arguments checked against the table of dot.h, the grid chosen,
 * then the kernels of dot.cu launched. */
#include <stdint.h>
#include "check.h"
#include "dot.h"

/* Scratch: the counter of the one-launch variants, then the blocks' sums (float, or
 * double for double_acc), 16 bytes in so that doubles are aligned. */
static const size_t SUMS_AT = 16;

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

static unsigned floor_log2(size_t x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* Blocks that fill every SM once at the kernel's occupancy, and no more than the n / 4
 * float4s need (at least one). */
static int device_grid(enum dot_variant v, size_t n, unsigned *blocks)
{
    int dev, sms, per_sm;
    const void *kernel =
        v == DOT_DOUBLE_ACC ? (const void *)dot_double_acc : (const void *)dot_shuffle_vec4;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, DOT_THREADS, 0));
    *blocks = (unsigned)sms * (unsigned)per_sm;
    if (*blocks > div_up(n / 4, DOT_THREADS))
        *blocks = n / 4 >= DOT_THREADS ? (unsigned)div_up(n / 4, DOT_THREADS) : 1;
    return LAB_OK;
}

/* The blocks v launches for n elements, or 0 when the device cannot say. */
static unsigned grid_of(enum dot_variant v, size_t n)
{
    unsigned blocks = 0;
    if (v == DOT_FIND_THE_BUG) /* two pairs a thread */
        return (unsigned)div_up(n, 2 * DOT_THREADS);
    if (!dot_facts[v].grid_stride)
        return (unsigned)div_up(n, DOT_THREADS);
    return device_grid(v, n, &blocks) == LAB_OK ? blocks : 0;
}

extern "C" size_t dot_scratch_bytes(enum dot_variant v, size_t n)
{
    unsigned blocks;
    if ((unsigned)v >= DOT_VARIANTS || n == 0 || n > UINT32_MAX || !(blocks = grid_of(v, n)))
        return 0;
    return SUMS_AT + (size_t)blocks * dot_facts[v].acc_bytes;
}

/* The depth of each variant's order of summation, from its kernels: a thread's own
 * additions, the block's (log2 256 = 8 steps, in the tree or the shuffles), and those that
 * join the blocks' sums; plus 1 for the product's own rounding. */
extern "C" unsigned dot_rounding_depth(enum dot_variant v, size_t n)
{
    const unsigned tree = floor_log2(DOT_THREADS);
    unsigned blocks;
    size_t per_thread;
    if ((unsigned)v >= DOT_VARIANTS || n == 0 || n > UINT32_MAX || !(blocks = grid_of(v, n)))
        return 0;
    switch (v) {
    case DOT_HOST_FINISH: /* the host's loop over the sums */
    case DOT_ATOMIC_ADD:  /* the atomics, one after another in some order */
        return 1 + tree + blocks;
    case DOT_TWO_KERNELS: /* one block: a strided share per thread, then the tree */
    case DOT_LAST_BLOCK:
        return 1 + tree + (unsigned)div_up(blocks, DOT_THREADS) + tree;
    case DOT_FIND_THE_BUG: /* the same, and a thread's two products added first */
        return 2 + tree + (unsigned)div_up(blocks, DOT_THREADS) + tree;
    default: /* 4 adds per float4, the tail's one, the block, then the last block's share */
        per_thread = div_up(div_up(n / 4, DOT_THREADS), blocks);
        return (unsigned)(1 + 4 * per_thread + 1 + tree + div_up(blocks, DOT_THREADS) + tree);
    }
}

static int fits(struct gpu_buf buf, size_t n, size_t size)
{
    return buf.ptr && n <= buf.bytes / size;
}

/* Variant 1: the kernel, then the blocks' sums copied back a piece at a time and added
 * here in float, in order, and the result copied to the device. Synchronous: the host must
 * wait for the sums. */
static int host_finish(const float *a, const float *b, unsigned n, unsigned blocks, float *sums,
                       float *out)
{
    float piece[4096], total = 0.0f;
    dot_block_sums<<<blocks, DOT_THREADS>>>(a, b, sums, n);
    CUDA_TRY_LAUNCH();
    for (unsigned k = 0; k < blocks; k += 4096) {
        unsigned count = blocks - k < 4096 ? blocks - k : 4096;
        CUDA_TRY(cudaMemcpy(piece, sums + k, count * sizeof(float), cudaMemcpyDeviceToHost));
        for (unsigned j = 0; j < count; j++)
            total += piece[j];
    }
    CUDA_TRY(cudaMemcpy(out, &total, sizeof total, cudaMemcpyHostToDevice));
    return LAB_OK;
}

static int launch(enum dot_variant v, const float *a, const float *b, unsigned n, char *scratch,
                  float *out)
{
    unsigned blocks = grid_of(v, n), *done = (unsigned *)scratch;
    float *sums = (float *)(scratch + SUMS_AT);
    if (!blocks)
        return LAB_ECUDA;
    /* the one-launch variants: the blocks count up from 0 */
    if (v == DOT_LAST_BLOCK || v == DOT_FIND_THE_BUG || dot_facts[v].grid_stride)
        CUDA_TRY(cudaMemsetAsync(done, 0, sizeof *done));
    switch (v) {
    case DOT_HOST_FINISH:
        return host_finish(a, b, n, blocks, sums, out);
    case DOT_TWO_KERNELS:
        dot_block_sums<<<blocks, DOT_THREADS>>>(a, b, sums, n);
        CUDA_TRY_LAUNCH();
        dot_sum_partials<<<1, DOT_THREADS>>>(sums, out, blocks);
        break;
    case DOT_ATOMIC_ADD:
        CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out));
        dot_atomic_add<<<blocks, DOT_THREADS>>>(a, b, out, n);
        break;
    case DOT_LAST_BLOCK:
        dot_last_block<<<blocks, DOT_THREADS>>>(a, b, sums, done, out, n);
        break;
    case DOT_SHUFFLE_VEC4:
        dot_shuffle_vec4<<<blocks, DOT_THREADS>>>((const float4 *)a, (const float4 *)b, sums, done,
                                                  out, n);
        break;
    case DOT_DOUBLE_ACC:
        dot_double_acc<<<blocks, DOT_THREADS>>>((const float4 *)a, (const float4 *)b,
                                                (double *)sums, done, out, n);
        break;
    case DOT_FIND_THE_BUG:
        dot_find_the_bug<<<blocks, DOT_THREADS>>>(a, b, sums, done, out, n);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

extern "C" int dot(enum dot_variant v, struct gpu_buf a, struct gpu_buf b, size_t n,
                   struct gpu_buf scratch, struct gpu_buf out)
{
    if ((unsigned)v >= DOT_VARIANTS || !fits(out, 1, sizeof(float)) || n > UINT32_MAX)
        return LAB_EINVAL;
    if (n == 0) {
        CUDA_TRY(cudaMemsetAsync(out.ptr, 0, sizeof(float)));
        return LAB_OK;
    }
    if (!fits(a, n, sizeof(float)) || !fits(b, n, sizeof(float)))
        return LAB_EINVAL;
    if (dot_facts[v].vec4 && ((uintptr_t)a.ptr % 16 || (uintptr_t)b.ptr % 16))
        return LAB_EINVAL;
    if (!scratch.ptr || scratch.bytes < dot_scratch_bytes(v, n))
        return LAB_EINVAL;
    return launch(v, (const float *)a.ptr, (const float *)b.ptr, (unsigned)n, (char *)scratch.ptr,
                  (float *)out.ptr);
}
