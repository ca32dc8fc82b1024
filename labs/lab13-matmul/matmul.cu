/* lab13: matrix multiply, C = A B. Each element of C is a dot product of a row of A and a column
 * of B: 2k flops from 2k loaded floats if every thread fetches its own operands, a quarter of a
 * flop a byte, far below what a GPU needs to keep its FP32 units busy (the H100: about 20 flops
 * a byte of DRAM). But each float of A is used by n threads and each of B by m: the lesson is
 * reuse. Shared tiles, then registers, then tensor cores raise the flops per byte moved step by
 * step. Yours: the kernels (their shapes are in matmul.h); launch.cu checks the arguments and
 * launches them. Every matrix is row-major; every kernel takes any m, n, k. */
#include <mma.h>
#include "check.h"
#include "matmul.h"

/* 1. A thread per element of C, its dot product straight from global memory, with threadIdx.x
 * running down a column of C: the mapping of a first attempt (x for the row index i). Its cost
 * is the mapping: a warp's 32 lanes read A at 32 rows, k floats apart, 32 sectors for 32 useful
 * floats, and store C 32 rows apart; only B's loads (one address for the warp) are cheap. */
__global__ void matmul_naive(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    unsigned row = blockIdx.x * NAIVE_BX + threadIdx.x;
    unsigned col = blockIdx.y * NAIVE_BY + threadIdx.y;
    /* TODO: for an element inside C (row < m, col < n): sum over p < k of
     * A(row, p) B(p, col) in a float, then store it at C(row, col). Row-major: A(i, p) is
     * a[i * k + p]; compute indices in size_t (m k may pass 2^32). */
}

/* 2. The same, with threadIdx.x along a row of C: a warp's lanes read 32 neighbouring floats of
 * a row of B (128 bytes, four sectors), one float of A for all of them (a broadcast), and
 * store 32 neighbours of C. Same arithmetic, same instructions, a fraction of the sectors. */
__global__ void matmul_naive_coalesced(const float *__restrict__ a, const float *__restrict__ b,
                                       float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    unsigned col = blockIdx.x * NAIVE_BX + threadIdx.x;
    unsigned row = blockIdx.y * NAIVE_BY + threadIdx.y;
    /* TODO: matmul_naive's body: only the mapping above differs. */
}

/* 3. Shared tiles: a block of TILE x TILE threads computes a TILE x TILE tile of C, walking k a
 * TILE at a time. Each step the block loads a TILE x TILE tile of A and one of B (a float each
 * thread), and every float loaded is then used TILE times from shared memory: TILE times fewer
 * global loads, k / TILE steps of two barriers each. The first barrier: no thread reads the
 * tiles before every thread has stored its float (read after write). The second: no thread
 * overwrites them with the next step's floats while others still read this step's (write after
 * read). Outside the matrices the tiles hold 0, which adds nothing. */
__global__ void matmul_tiled_shared(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    /* TODO: for t = 0, TILE, 2 TILE, ... below k: as[ty][tx] = A(row, t + tx) and
     * bs[ty][tx] = B(t + ty, col), each 0 outside its matrix; wait; add as[ty][p] bs[p][tx]
     * for p < TILE to sum; wait again. After the last step store sum at C(row, col) if it is
     * inside C. Every thread of the block takes every step (none may skip a barrier). */
}

/* 4. Thread coarsening: each thread computes COARSE elements of its row of C, TILE columns
 * apart, so a block covers TILE x (COARSE TILE) of C. A step loads one tile of A and COARSE
 * tiles of B side by side: the A tile, loaded once, serves COARSE tiles of B (tiled_shared
 * loads it again for each). Fewer blocks, fewer loads of A, fewer barriers a flop; the price
 * is COARSE accumulators a thread and COARSE times fewer threads to hide latency with. */
__global__ void matmul_coarsened(const float *__restrict__ a, const float *__restrict__ b,
                                 float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE * COARSE];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * TILE + ty, col0 = blockIdx.x * TILE * COARSE + tx;
    float sum[COARSE] = {};
    /* TODO: tiled_shared's steps, with bs[ty][j TILE + tx] = B(t + ty, col0 +
     * j TILE) for j < COARSE, and sum[j] += as[ty][p] bs[p][j TILE + tx]. At the end sum[j]
     * goes to C(row, col0 + j TILE), inside C only. */
}

/* Elements (r, c) to (r, c + 3) of a rows x cols matrix, 0 where outside it: one 16-byte load
 * when vec (every row starts on 16 bytes: launch.cu checked) and all four are inside, else one
 * float at a time (the tail of a row, or rows that are not aligned). c is a multiple of 4. */
__device__ float4 load4(const float *__restrict__ p, unsigned rows, unsigned cols, unsigned r,
                        unsigned c, bool vec)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    /* TODO: nothing when r >= rows. With vec and c + 4 <= cols, v is element
     * (r * cols + c) / 4 of p seen as a float4 array; else v.x, v.y, v.z, v.w are the
     * elements c, c + 1, ... that lie below cols (the others stay 0). */
    return v;
}

/* register_tiled's and double_buffered's tiles in shared memory: A's transposed (at[p][i] is
 * the tile's A(i, p)), so that a thread reads its RT_TM floats of a column of A as a row of
 * at; its rows padded by RT_PAD floats, so that the transposed stores of a warp fall in 32
 * different banks. B's as it is. */
typedef float rt_a_tile[RT_BK][RT_BM + RT_PAD];
typedef float rt_b_tile[RT_BK][RT_BN];

/* The float4s this thread loads for the step at column t of A: of A's RT_BM x RT_BK tile, row
 * tid / 2, columns 4 (tid % 2) on; of B's RT_BK x RT_BN tile, row tid / 32, columns 4 (tid %
 * 32) on. 256 threads, 1024 floats each tile: one float4 of each a thread. */
struct rt_loads {
    float4 a, b;
};
__device__ rt_loads rt_load(const float *__restrict__ a, const float *__restrict__ b, unsigned m,
                            unsigned n, unsigned k, unsigned t, bool a_vec, bool b_vec)
{
    unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
    return {load4(a, m, k, blockIdx.y * RT_BM + tid / 2, t + tid % 2 * 4, a_vec),
            load4(b, k, n, t + tid / 32, blockIdx.x * RT_BN + tid % 32 * 4, b_vec)};
}

/* The thread's loads into the shared tiles. */
__device__ void rt_store(rt_a_tile at, rt_b_tile bt, rt_loads v)
{
    unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned ai = tid / 2, ap = tid % 2 * 4, bp = tid / 32, bj = tid % 32 * 4;
    /* TODO: v.a holds the tile's A(ai, ap) to A(ai, ap + 3): store them at
     * at[ap][ai] to at[ap + 3][ai]. v.b holds B(bp, bj) to B(bp, bj + 3): store it whole at
     * bt[bp][bj] (a float4 store: bt's rows are 16-byte aligned). */
}

/* One step's products: the thread's RT_TM x RT_TN block of C, rows RT_TM threadIdx.y on and
 * columns RT_TN threadIdx.x on within the block's tile, gets the outer product of RT_TM floats
 * of A's column p and RT_TN floats of B's row p, for each p < RT_BK. Read into registers
 * first, each float loaded from shared memory is used RT_TN or RT_TM times from a register:
 * 64 FMAs for 16 shared loads, against tiled_shared's 1 for 2. */
__device__ void rt_multiply(const rt_a_tile at, const rt_b_tile bt, float acc[RT_TM][RT_TN])
{
    /* TODO: for p < RT_BK: ra[i] = at[p][RT_TM threadIdx.y + i], rb[j] =
     * bt[p][RT_TN threadIdx.x + j] (arrays in registers: indexed by constants once the
     * loops are unrolled), then acc[i][j] += ra[i] rb[j] for every i, j. */
}

/* The thread's block of C from its registers to global memory. */
__device__ void rt_write(float *__restrict__ c, unsigned m, unsigned n,
                         const float acc[RT_TM][RT_TN])
{
    unsigned row0 = blockIdx.y * RT_BM + RT_TM * threadIdx.y;
    unsigned col0 = blockIdx.x * RT_BN + RT_TN * threadIdx.x;
    /* TODO: acc[i][j] is C(row0 + i, col0 + j): store each one inside C. */
}

/* 5. Register tiling: a block of 16 x 16 threads computes a 128 x 128 tile of C, each thread an
 * 8 x 8 block of it held in 64 registers, walking k 8 columns a step. A step loads 8 KB (a
 * float4 of A and one of B a thread) for 262144 flops: 32 flops a byte of L2 traffic, eight
 * times tiled_shared's 4. The costs: 64 accumulators and the operands take over 100 registers
 * a thread, which caps the threads an SM holds (occupancy), and a tile of 128 x 128 wastes work
 * at the edges of a small C. */
__global__ void matmul_register_tiled(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                      bool a_vec, bool b_vec)
{
    __shared__ __align__(16) rt_a_tile at;
    __shared__ __align__(16) rt_b_tile bt;
    float acc[RT_TM][RT_TN] = {};
    /* TODO: for t = 0, RT_BK, ... below k: rt_store the step's rt_load, wait,
     * rt_multiply, wait (the same two hazards as tiled_shared's). Then rt_write. */
}

/* 6. Double buffering: register_tiled with two pairs of shared tiles. A step first issues the
 * global loads of the next step's tiles into registers, then multiplies this step's tiles
 * while those loads are in flight, then stores them into the other pair: the load latency
 * hides behind the arithmetic, and one barrier a step suffices (the pair written in step s
 * was last read in step s - 1, before the barrier that ended it). The price: twice the shared
 * memory and a float4 pair of registers more. On Ampere and later, cp.async copies global to
 * shared memory without the registers; this lab's version runs everywhere (the CPU backend has
 * no cp.async). */
__global__ void matmul_double_buffered(const float *__restrict__ a, const float *__restrict__ b,
                                       float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                       bool a_vec, bool b_vec)
{
    __shared__ __align__(16) rt_a_tile at[2];
    __shared__ __align__(16) rt_b_tile bt[2];
    float acc[RT_TM][RT_TN] = {};
    /* TODO: store step 0's loads into pair 0, wait. Then for each step t (pair s =
     * t / RT_BK % 2): if a step follows, rt_load it; rt_multiply pair s; if a step follows,
     * rt_store its loads into pair 1 - s; wait. Then rt_write. */
}

/* 7. Tensor cores through wmma: each of a block's 4 warps computes a 32 x 32 part of the
 * block's 64 x 64 tile of C as 2 x 2 accumulator fragments of 16 x 16, each step multiplying
 * 16 x 8 fragments of A by 8 x 16 fragments of B (m16n16k8, the TF32 shape). A tensor core
 * does a fragment's 2048 FMAs in a few instructions, 7.4 times the FP32 units' rate on the
 * H100, if the tiles arrive fast enough. The price is precision: TF32 keeps 10 of a float's
 * 23 fraction bits, so each input is rounded (__float_to_tf32, to nearest) with a relative
 * error up to 2^-11 before the products, which are added in FP32. The tiles go through shared
 * memory, rounded on the way in, rows padded by TC_PAD floats; C goes out through shared memory
 * too, where each warp stores its fragments and copies its part to C inside its bounds. TF32
 * needs compute capability 8.0: older GPUs compile this kernel empty, and launch.cu refuses
 * to launch it there. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define MATMUL_HAS_TF32 1
#endif
__global__ void matmul_tensor_core(const float *__restrict__ a, const float *__restrict__ b,
                                   float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                   bool a_vec, bool b_vec)
{
#ifdef MATMUL_HAS_TF32
    using namespace nvcuda;
    __shared__ __align__(32) float at[TC_BM][TC_BK + TC_PAD];
    __shared__ __align__(32) float bt[TC_BK][TC_BN + TC_PAD];
    __shared__ __align__(32) float ct[TC_BM][TC_BN + TC_PAD];
    unsigned tid = threadIdx.x, lane = tid % 32;
    unsigned wm = tid / 32 / 2 * TC_WM, wn = tid / 32 % 2 * TC_WN; /* the warp's part */
    unsigned row0 = blockIdx.y * TC_BM, col0 = blockIdx.x * TC_BN;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb[2];
    /* TODO: zero the accumulators (fill_fragment). For t = 0, TC_BK, ... below k:
     * the block loads A's TC_BM x TC_BK tile at (row0, t) into at and B's TC_BK x TC_BN tile
     * at (t, col0) into bt, a float4 (load4) at a time, each float through __float_to_tf32;
     * wait; for each 8 columns kk of the tile, load fa[i] from at[wm + 16 i][kk] and fb[j]
     * from bt[kk][wn + 16 j] (ldm: the padded row lengths) and mma_sync each acc[i][j] with
     * fa[i] and fb[j]; wait. Then store acc[i][j] at ct[wm + 16 i][wn + 16 j] (row-major),
     * wait for the warp (a lane copies what other lanes stored), and copy the warp's 32 x 32
     * part of ct to C, inside C only. */
#endif
}
