/* lab06: parallel reduction, the sum of n ints. Every variant reads each element once and
 * adds it once, so all of them move the same 4 n bytes; what differs is how well the
 * threads are kept busy while the memory streams in. Kernels 1-7 follow the seven steps of
 * Harris's "Optimizing Parallel Reduction in CUDA"; 8-10 are the steps that came with
 * later GPUs; the two atomic kernels are the baselines a student writes first; minmax is
 * kernel 10 with another operator. Yours: the kernels. launch.cu checks the arguments and
 * launches them, pass after pass. */
#include <limits.h>
#include "check.h"
#include "reduction.h"
#include "warp.h"

/* ------------------------------------------------------------- kernels 1-3: the tree
 * Each block loads blockDim.x elements into shared memory and adds them pairwise in
 * log2(blockDim.x) steps with a barrier between steps; thread 0 writes the block's sum.
 * The three differ only in which threads add which pairs. */

/* 1. Interleaved addressing, divergent: in step s, threads whose index is a multiple of 2s
 * add the element s to their right. Teaches the tree and __syncthreads. Costs: the % is
 * slow, and the active threads are scattered over every warp, so every warp keeps issuing
 * while most of its lanes sit idle (divergence). */
__global__ void reduce_interleaved_divergent(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    /* TODO: for s = 1, 2, 4, ... below blockDim.x: the threads with
     * tid % (2 * s) == 0 add sdata[tid + s] into sdata[tid]; a barrier after each step. */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 2. Interleaved addressing, strided index: thread tid works on index 2 s tid, so the
 * active threads are the first ones and whole warps retire. Costs: in step s a warp's
 * lanes touch words 2s apart, which fall into few of the 32 shared-memory banks: a
 * conflict of up to 32 ways, which the hardware serialises. */
__global__ void reduce_interleaved_strided(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    /* TODO: the same steps s = 1, 2, 4, ...; thread tid adds into
     * index = 2 * s * tid when that index is below blockDim.x. */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 3. Sequential addressing: fold the upper half onto the lower half, s = blockDim.x / 2
 * down to 1. Consecutive lanes touch consecutive words: no bank conflicts, no divergence
 * until fewer than 32 threads are active. Costs: half the threads only load, and idle from
 * the first step on. */
__global__ void reduce_sequential(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    /* TODO: for s = blockDim.x / 2 down to 1 (halving): threads with
     * tid < s add sdata[tid + s] into sdata[tid]; a barrier after each step. */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 4. First add during the global load: a block covers 2 blockDim.x elements and each
 * thread adds its two while loading, so every thread does useful work and half as many
 * blocks run. Costs: still a barrier per step, and a loop for the warp that is left. */
__global__ void reduce_first_add_during_load(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * (2 * blockDim.x) + tid;
    /* TODO: sdata[tid] = in[i] + in[i + blockDim.x] (each term only when its
     * index is below n, else 0); a barrier; then the tree of kernel 3. */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* ------------------------------------------------------------- the last warp
 * Once 32 threads or fewer are active they are one warp, and a warp needs no block-wide
 * barrier. Harris's version relied on the warp's 32 lanes moving in lockstep (through a
 * volatile pointer); since Volta each lane has its own program counter and may run ahead,
 * so a lane could read sdata[tid + s] before or after its neighbour updated it. The safe
 * form reads into a register, waits for the warp (__syncwarp), then writes, and waits
 * again before the next read. */

/* One step of the last warp: v += sdata[tid + s], published in sdata[tid]. */
__device__ int warp_step(int *sdata, unsigned tid, int v, unsigned s, unsigned mask)
{
    /* TODO: add sdata[tid + s] to v; __syncwarp(mask) so every lane has read
     * before any lane writes; store v in sdata[tid]; __syncwarp(mask) again so the
     * writes are seen by the next step's reads. */
    return v;
}

/* 5. Unroll the last warp: the tree with barriers down to 64 elements, then warp 0 folds
 * 64 into 1 with warp_step and no __syncthreads. Saves the barriers and the loop overhead
 * of the last six steps, in which almost every warp was idle anyway. Needs blockDim.x >= 64. */
__global__ void reduce_unroll_last_warp(const int *in, int *out, unsigned n)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x, i = blockIdx.x * (2 * blockDim.x) + tid;
    /* TODO: the load of kernel 4 and its tree for s > 32 only; then the threads
     * with tid < 32 take v = sdata[tid] and run warp_step for s = 32, 16, 8, 4, 2, 1
     * (full mask: the whole warp takes part). */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* ------------------------------------------------------------- kernels 6-7: templates
 * With the block size a compile-time constant every `if (BLOCK >= ...)` below is decided
 * by the compiler: no loop counter, no dead comparisons, only the adds that this block
 * size needs. The launcher's switch instantiates each power of two from 1 to 1024. */

/* The shared-memory tree of a BLOCK-thread block, completely unrolled. Threads with
 * tid < 32 finish it with warp_step; below 32 threads the warp is partial, so the mask
 * names only the lanes that exist. sdata has at least 64 elements, so the idle lanes'
 * reads past the block stay in bounds (their sums are never used). */
template <unsigned BLOCK>
__device__ void block_tree_unrolled(int *sdata, unsigned tid)
{
    const unsigned mask = BLOCK >= 32 ? 0xffffffffu : (1u << BLOCK) - 1;
    /* TODO: for s = 512, 256, 128, 64: when BLOCK >= 2 s, threads with tid < s
     * add sdata[tid + s], then __syncthreads(). Then threads with tid < 32 take
     * v = sdata[tid] and, for s = 32 down to 1 while BLOCK >= 2 s, call warp_step. */
}

/* 6. Completely unrolled: kernel 5 with BLOCK known at compile time. Saves the loop and
 * its comparisons, which at this point cost as much as the adds. Costs a template and a
 * switch over block sizes in the launcher. */
template <unsigned BLOCK>
__global__ void reduce_complete_unroll(const int *in, int *out, unsigned n)
{
    __shared__ int sdata[BLOCK < 64 ? 64 : BLOCK];
    unsigned tid = threadIdx.x, i = blockIdx.x * (2 * BLOCK) + tid;
    /* TODO: the load of kernel 4 (with BLOCK for blockDim.x), a barrier, then
     * block_tree_unrolled<BLOCK>. */
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 7. Algorithm cascading: a grid sized to fill the GPU once, each thread summing many
 * elements in a register (two per trip, a grid-stride loop) before the tree. The tree's
 * log2(BLOCK) steps are now paid once per block instead of once per 2 BLOCK elements, and
 * many independent loads are in flight. A second launch of one block adds the partials. */
template <unsigned BLOCK>
__global__ void reduce_cascaded(const int *in, int *out, unsigned n)
{
    __shared__ int sdata[BLOCK < 64 ? 64 : BLOCK];
    unsigned tid = threadIdx.x;
    int sum = 0;
    /* TODO: start at i = blockIdx.x * 2 * BLOCK + tid and step by
     * 2 * BLOCK * gridDim.x while i < n, adding in[i] and (when below n) in[i + BLOCK]
     * into sum. */
    sdata[tid] = sum;
    __syncthreads();
    block_tree_unrolled<BLOCK>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* ------------------------------------------------------------- kernels 8-10: shuffles
 * Since Kepler a warp can add across its lanes in registers: __shfl_down_sync(mask, v, s)
 * hands each lane the v of the lane s above it. Five shuffles sum a warp, with no shared
 * memory and no barrier; shared memory only carries one value per warp. */

/* The sum of v over the 32 lanes of the warp, in lane 0. */
__device__ int warp_reduce_shuffle(int v)
{
    /* TODO: for s = 16, 8, 4, 2, 1 add __shfl_down_sync(0xffffffff, v, s). */
    return v;
}

/* The sum of v over the block (blockDim.x a multiple of 32), in thread 0. */
__device__ int block_reduce_shuffle(int v)
{
    __shared__ int warp_sums[32];
    unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    /* TODO: reduce v within each warp; lane 0 of warp w stores it in
     * warp_sums[w]; __syncthreads(); warp 0 loads warp_sums[lane] (0 beyond the
     * blockDim.x / 32 warps) and reduces that. */
    return v;
}

/* 8. Warp shuffle: kernel 7's grid-stride sum, then block_reduce_shuffle instead of the
 * shared-memory tree. Saves the tree's shared-memory traffic and all but one barrier, and
 * the block size becomes a run-time value again (any power of two from 32). */
__global__ void reduce_warp_shuffle(const int *in, int *out, unsigned n)
{
    int sum = 0;
    /* TODO: kernel 7's loop with blockDim.x for BLOCK: start at
     * blockIdx.x * 2 * blockDim.x + threadIdx.x, step 2 * blockDim.x * gridDim.x, add in[i]
     * and (when below n) in[i + blockDim.x]. */
    sum = block_reduce_shuffle(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/* This thread's share of in[0..n) read as int4: the grid-stride loop over the n / 4 whole
 * vectors, four of them per trip so that four 16-byte loads are in flight before the
 * first add needs one; then the vectors left over, then the last n % 4 ints. */
__device__ int thread_sum_int4(const int *__restrict__ in, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;
    const int4 *in4 = (const int4 *)in;
    int sum = 0;
    /* TODO: while i + 3 * stride < n / 4, load in4[i], in4[i + stride],
     * in4[i + 2 * stride] and in4[i + 3 * stride] (all four loads before any add), add
     * their ints, i += 4 * stride; then while i < n / 4 add in4[i] (i += stride); then for
     * j from n / 4 * 4 + the thread's global index, step stride, below n, add in[j]. */
    return sum;
}

/* 9. Vector loads: each load instruction moves 16 bytes instead of 4, a quarter of the
 * instructions for the same bytes, and more bytes in flight per thread. Needs in 16-byte
 * aligned (the launcher checks). */
__global__ void reduce_vector_load(const int *__restrict__ in, int *out, unsigned n)
{
    int sum = block_reduce_shuffle(thread_sum_int4(in, n));
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/* 10. Single pass: kernel 9, but the block that finishes last adds the partial sums, so
 * the second launch (and its wait for the first to drain) disappears. Each block's thread
 * 0 stores its partial, fences (the store is visible to every block before the count
 * is), then counts itself in `done`; the block that draws gridDim.x - 1 is the last. The
 * launcher zeroes `done` before the launch. */
__global__ void reduce_single_pass(const int *__restrict__ in, int *partials, unsigned *done,
                                   int *out, unsigned n)
{
    __shared__ bool last;
    int sum = block_reduce_shuffle(thread_sum_int4(in, n));
    /* TODO: thread 0 stores sum in partials[blockIdx.x], calls __threadfence(),
     * and sets `last` when atomicAdd(done, 1) returns gridDim.x - 1. After a barrier, the
     * last block (fence again, then read the partials through a volatile pointer so that
     * nothing stale is reused) adds them with a block-stride loop and block_reduce_shuffle,
     * and thread 0 writes *out. */
}

/* ------------------------------------------------------------- the atomic baselines */

/* One atomicAdd on the single result per element: correct and short, but every add
 * goes to one address in the L2 cache, where same-address atomics are serialised. */
__global__ void reduce_global_atomic(const int *in, int *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: when i < n, atomicAdd in[i] into *out. */
}

/* Privatisation: each block adds into its own shared-memory sum (shared atomics, done in
 * the SM) and sends one global atomic, so the L2 sees n / blockDim.x atomics, not n. */
__global__ void reduce_shared_atomic(const int *in, int *out, unsigned n)
{
    __shared__ int block_sum;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    /* TODO: thread 0 zeroes block_sum; barrier; when i < n, atomicAdd in[i]
     * into block_sum; barrier; thread 0 atomicAdds block_sum into *out. */
}

/* ------------------------------------------------------------- another operator: min and max
 * Nothing in the tree needs +. The kernels above combine partial results in groupings and
 * orders of their own (a lane's trips, the shuffles, the warps, the blocks in the order they
 * finish), and any operator that is associative and commutative gives the same answer under
 * all of them: min and max are two. What changes is the value an empty share starts from, the
 * operator's identity element, op(identity, x) = x: 0 for +, INT_MAX for min, INT_MIN for
 * max. A thread with no element, the warps that a small block does not have and the last
 * block's fold all start from it; a 0 there would be a value the input may not hold, and the
 * min of positive ints would come out 0. Unlike a float sum, whose rounding depends on the
 * order of the adds, min and max are exact: the answer is one of the inputs, the same bits in
 * any order and on any grid. The cost: two results per element (a min and a max instruction
 * for each int, two shuffles per step, two partials per block) for the same 4 n bytes, read
 * once; the kernel is still memory bound, and should run as fast as kernel 10. */

/* The min and the max of a share of the input; {INT_MAX, INT_MIN} for an empty one. */
struct minmax {
    int lo, hi;
};

/* m with the four ints of a folded in. */
__device__ struct minmax fold_int4(struct minmax m, int4 a)
{
    /* TODO: m.lo = the min of m.lo, a.x, a.y, a.z and a.w; m.hi their max (min()
     * and max() take two ints). */
    return m;
}

/* The min and the max over the 32 lanes of the warp, in lane 0. */
__device__ struct minmax warp_minmax_shuffle(struct minmax m)
{
    /* TODO: warp_reduce_shuffle with min for lo and max for hi: for s = 16, 8, 4,
     * 2, 1, m.lo = min(m.lo, the lo of the lane s above), m.hi = max(m.hi, its hi). */
    return m;
}

/* The min and the max over the block (blockDim.x a multiple of 32), in thread 0. */
__device__ struct minmax block_minmax_shuffle(struct minmax m)
{
    __shared__ int warp_lo[32], warp_hi[32];
    unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    /* TODO: block_reduce_shuffle for both: each warp's result, from its lane 0,
     * into warp_lo[w] and warp_hi[w]; __syncthreads(); warp 0 loads warp_lo[lane] and
     * warp_hi[lane] (the identities INT_MAX and INT_MIN beyond the blockDim.x / 32 warps)
     * and reduces those. */
    return m;
}

/* This thread's share of in[0..n), as thread_sum_int4 walks it, folded into a min and a max
 * that start from the identities: a thread with no element returns them. */
__device__ struct minmax thread_minmax_int4(const int *__restrict__ in, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;
    const int4 *in4 = (const int4 *)in;
    struct minmax m = {INT_MAX, INT_MIN};
    /* TODO: thread_sum_int4's three loops, with fold_int4 for the adds: four int4
     * loads before the first fold while i + 3 * stride < n / 4, then one int4 at a time while
     * i < n / 4, then the last n % 4 ints one by one into m.lo (min) and m.hi (max). */
    return m;
}

/* Min and max: kernel 10 with min and max for +. Each block folds its share in registers,
 * stores its min in partials[blockIdx.x] and its max in partials[gridDim.x + blockIdx.x]; the
 * last block to finish folds those into out[0] (the min) and out[1] (the max). The launcher
 * zeroes `done` before the launch. */
__global__ void reduce_minmax(const int *__restrict__ in, int *partials, unsigned *done, int *out,
                              unsigned n)
{
    __shared__ bool last;
    struct minmax m = block_minmax_shuffle(thread_minmax_int4(in, n));
    /* TODO: kernel 10's ending for two values: thread 0 stores m.lo and m.hi in
     * partials, __threadfence(), and sets `last` when atomicAdd(done, 1) returns
     * gridDim.x - 1. After a barrier the last block (fence, volatile reads) folds the
     * partials with a block-stride loop into a minmax that starts from the identities, then
     * block_minmax_shuffle, and thread 0 writes out[0] and out[1]. */
}

/* ------------------------------------------------------------- launching 6 and 7
 * Harris's switch: a block size known only at run time picks the instantiation compiled
 * for it. (launch.cu does the rest of the launching: CUDA launches a template kernel only
 * from the file that defines it.) */

template <unsigned BLOCK>
static void launch_templated(enum reduce_variant v, unsigned blocks, const int *in, int *out,
                             unsigned n)
{
    if (v == REDUCE_COMPLETE_UNROLL)
        reduce_complete_unroll<BLOCK><<<blocks, BLOCK>>>(in, out, n);
    else
        reduce_cascaded<BLOCK><<<blocks, BLOCK>>>(in, out, n);
}

int reduce_launch_unrolled(enum reduce_variant v, unsigned blocks, unsigned threads, const int *in,
                           int *out, unsigned n)
{
    switch (threads) {
    case 1024:
        launch_templated<1024>(v, blocks, in, out, n);
        break;
    case 512:
        launch_templated<512>(v, blocks, in, out, n);
        break;
    case 256:
        launch_templated<256>(v, blocks, in, out, n);
        break;
    case 128:
        launch_templated<128>(v, blocks, in, out, n);
        break;
    case 64:
        launch_templated<64>(v, blocks, in, out, n);
        break;
    case 32:
        launch_templated<32>(v, blocks, in, out, n);
        break;
    case 16:
        launch_templated<16>(v, blocks, in, out, n);
        break;
    case 8:
        launch_templated<8>(v, blocks, in, out, n);
        break;
    case 4:
        launch_templated<4>(v, blocks, in, out, n);
        break;
    case 2:
        launch_templated<2>(v, blocks, in, out, n);
        break;
    case 1:
        launch_templated<1>(v, blocks, in, out, n);
        break;
    default:
        return LAB_EINVAL;
    }
    return LAB_OK;
}
