/* lab13: matrix multiply, C = A B. Each element of C is a dot product of a row of A and a column
 * of B: 2k flops from 2k loaded floats if every thread fetches its own operands, a quarter of a
 * flop a byte, far below what a GPU needs to keep its FP32 units busy (the H100: about 20 flops
 * a byte of DRAM). But each float of A is used by n threads and each of B by m: the lesson is
 * reuse. Shared tiles, then registers, then tensor cores raise the flops per byte moved step by
 * step. Yours: the kernels (their shapes are in matmul.h); launch.cu checks the arguments and
 * launches them. Every matrix is row-major; every kernel takes any m, n, k. */
#include <cuda_pipeline_primitives.h>
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
    /* SOLUTION BEGIN: for an element inside C (row < m, col < n): sum over p < k of
     * A(row, p) B(p, col) in a float, then store it at C(row, col). Row-major: A(i, p) is
     * a[i * k + p]; compute indices in size_t (m k may pass 2^32). */
    if (row < m && col < n) {
        float sum = 0.0f;
        for (unsigned p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
    /* SOLUTION END */
}

/* 2. The same, with threadIdx.x along a row of C: a warp's lanes read 32 neighbouring floats of
 * a row of B (128 bytes, four sectors), one float of A for all of them (a broadcast), and
 * store 32 neighbours of C. Same arithmetic, same instructions, a fraction of the sectors. */
__global__ void matmul_naive_coalesced(const float *__restrict__ a, const float *__restrict__ b,
                                       float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    unsigned col = blockIdx.x * NAIVE_BX + threadIdx.x;
    unsigned row = blockIdx.y * NAIVE_BY + threadIdx.y;
    /* SOLUTION BEGIN: matmul_naive's body: only the mapping above differs. */
    if (row < m && col < n) {
        float sum = 0.0f;
        for (unsigned p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: for t = 0, TILE, 2 TILE, ... below k: as[ty][tx] = A(row, t + tx) and
     * bs[ty][tx] = B(t + ty, col), each 0 outside its matrix; wait; add as[ty][p] bs[p][tx]
     * for p < TILE to sum; wait again. After the last step store sum at C(row, col) if it is
     * inside C. Every thread of the block takes every step (none may skip a barrier). */
    for (unsigned t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++)
            sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: tiled_shared's steps, with bs[ty][j TILE + tx] = B(t + ty, col0 +
     * j TILE) for j < COARSE, and sum[j] += as[ty][p] bs[p][j TILE + tx]. At the end sum[j]
     * goes to C(row, col0 + j TILE), inside C only. */
    for (unsigned t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        for (int j = 0; j < COARSE; j++) {
            unsigned col = col0 + j * TILE;
            bs[ty][j * TILE + tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        }
        __syncthreads();
        for (int p = 0; p < TILE; p++)
            for (int j = 0; j < COARSE; j++)
                sum[j] += as[ty][p] * bs[p][j * TILE + tx];
        __syncthreads();
    }
    for (int j = 0; j < COARSE; j++)
        if (row < m && col0 + j * TILE < n)
            c[(size_t)row * n + col0 + j * TILE] = sum[j];
    /* SOLUTION END */
}

/* Elements (r, c) to (r, c + 3) of a rows x cols matrix, 0 where outside it: one 16-byte load
 * when vec (every row starts on 16 bytes: launch.cu checked) and all four are inside, else one
 * float at a time (the tail of a row, or rows that are not aligned). c is a multiple of 4. */
__device__ float4 load4(const float *__restrict__ p, unsigned rows, unsigned cols, unsigned r,
                        unsigned c, bool vec)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    /* SOLUTION BEGIN: nothing when r >= rows. With vec and c + 4 <= cols, v is element
     * (r * cols + c) / 4 of p seen as a float4 array; else v.x, v.y, v.z, v.w are the
     * elements c, c + 1, ... that lie below cols (the others stay 0). */
    if (r < rows) {
        size_t at = (size_t)r * cols + c;
        if (vec && c + 4 <= cols)
            return ((const float4 *)p)[at / 4];
        v.x = c < cols ? p[at] : 0.0f;
        v.y = c + 1 < cols ? p[at + 1] : 0.0f;
        v.z = c + 2 < cols ? p[at + 2] : 0.0f;
        v.w = c + 3 < cols ? p[at + 3] : 0.0f;
    }
    /* SOLUTION END */
    return v;
}

/* register_tiled's and double_buffered's shapes must divide: whole float4s, and as many of each
 * tile for every thread. */
static_assert(RT_TM % 4 == 0 && RT_TN % 4 == 0 && RT_BK % 4 == 0, "whole float4s");
static_assert(RT_BM * RT_BK / 4 % RT_THREADS == 0 && RT_BK * RT_BN / 4 % RT_THREADS == 0,
              "every thread loads as many float4s of each tile");
enum { RT_A_LOADS = RT_BM * RT_BK / 4 / RT_THREADS, RT_B_LOADS = RT_BK * RT_BN / 4 / RT_THREADS };

/* register_tiled's and double_buffered's tiles in shared memory: A's transposed (at[p][i] is
 * the tile's A(i, p)), so that a thread reads its floats of a column of A as float4s of a row
 * of at; its rows padded by RT_PAD floats, so that the transposed stores of a warp fall in 32
 * different banks. B's as it is. */
typedef float rt_a_tile[RT_BK][RT_BM + RT_PAD];
typedef float rt_b_tile[RT_BK][RT_BN];

/* The rows of C a thread computes, within the block's tile: RT_TM / 4 groups of 4 neighbours,
 * RT_BM / (RT_TM / 4) apart (64 for 8 rows), at 4 threadIdx.y in each. Its i-th row; and its
 * j-th column, the same along x. */
__device__ unsigned rt_row(int i)
{
    return i / 4 * (4 * RT_BM / RT_TM) + 4 * threadIdx.y + i % 4;
}
__device__ unsigned rt_col(int j)
{
    return j / 4 * (4 * RT_BN / RT_TN) + 4 * threadIdx.x + j % 4;
}

/* The float4s this thread loads for the step at column t of A. Its l-th is chunk q = tid + l
 * RT_THREADS of each tile: of A's RT_BM x RT_BK tile, row q / (RT_BK / 4), columns 4 (q %
 * (RT_BK / 4)) on; of B's RT_BK x RT_BN tile, row q / (RT_BN / 4), columns 4 (q % (RT_BN / 4))
 * on. 256 threads, 1024 floats each tile: one float4 of each a thread. */
struct rt_loads {
    float4 a[RT_A_LOADS], b[RT_B_LOADS];
};
__device__ rt_loads rt_load(const float *__restrict__ a, const float *__restrict__ b, unsigned m,
                            unsigned n, unsigned k, unsigned t, bool a_vec, bool b_vec)
{
    unsigned tid = threadIdx.y * (RT_BN / RT_TN) + threadIdx.x;
    rt_loads v;
    for (int l = 0; l < RT_A_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS;
        v.a[l] =
            load4(a, m, k, blockIdx.y * RT_BM + q / (RT_BK / 4), t + q % (RT_BK / 4) * 4, a_vec);
    }
    for (int l = 0; l < RT_B_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS;
        v.b[l] =
            load4(b, k, n, t + q / (RT_BN / 4), blockIdx.x * RT_BN + q % (RT_BN / 4) * 4, b_vec);
    }
    return v;
}

/* The thread's loads into the shared tiles. */
__device__ void rt_store(rt_a_tile at, rt_b_tile bt, const rt_loads &v)
{
    unsigned tid = threadIdx.y * (RT_BN / RT_TN) + threadIdx.x;
    /* SOLUTION BEGIN: for each l, chunk q = tid + l RT_THREADS. v.a[l] holds the tile's A(i, p)
     * to A(i, p + 3), i = q / (RT_BK / 4), p = 4 (q % (RT_BK / 4)): store them at at[p][i] to
     * at[p + 3][i]. v.b[l] holds B(p, j) to B(p, j + 3), p = q / (RT_BN / 4), j = 4 (q % (RT_BN
     * / 4)): store it whole at bt[p][j] (a float4 store: bt's rows are 16-byte aligned). */
    for (int l = 0; l < RT_A_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS, i = q / (RT_BK / 4), p = q % (RT_BK / 4) * 4;
        at[p][i] = v.a[l].x;
        at[p + 1][i] = v.a[l].y;
        at[p + 2][i] = v.a[l].z;
        at[p + 3][i] = v.a[l].w;
    }
    for (int l = 0; l < RT_B_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS;
        *(float4 *)&bt[q / (RT_BN / 4)][q % (RT_BN / 4) * 4] = v.b[l];
    }
    /* SOLUTION END */
}

/* One step's products: the thread's RT_TM x RT_TN elements of C, rows rt_row(i) and columns
 * rt_col(j), get the outer product of its RT_TM floats of A's column p and RT_TN floats of B's
 * row p, for each p < RT_BK. Read into registers first, a float4 at a time (4 neighbours in a
 * row of at or bt), each float loaded from shared memory is used RT_TN or RT_TM times from a
 * register: 64 FMAs for 4 loads of 16 bytes, against tiled_shared's 1 FMA for 2 loads of 4. */
__device__ void rt_multiply(const rt_a_tile at, const rt_b_tile bt, float acc[RT_TM][RT_TN])
{
    /* SOLUTION BEGIN: for p < RT_BK: ra[i] to ra[i + 3] = the float4 at &at[p][rt_row(i)] for i
     * = 0, 4, ... below RT_TM, rb[j] to rb[j + 3] the one at &bt[p][rt_col(j)]; then acc[i][j]
     * += ra[i] rb[j] for every i, j. ra and rb are arrays in registers: indexed by constants
     * once the loops are unrolled (#pragma unroll on the loop over p unrolls it too, so that
     * the compiler can load step p + 1's floats during step p's FMAs). */
#pragma unroll
    for (int p = 0; p < RT_BK; p++) {
        float ra[RT_TM], rb[RT_TN];
        for (int i = 0; i < RT_TM; i += 4) {
            float4 v = *(const float4 *)&at[p][rt_row(i)];
            ra[i] = v.x, ra[i + 1] = v.y, ra[i + 2] = v.z, ra[i + 3] = v.w;
        }
        for (int j = 0; j < RT_TN; j += 4) {
            float4 v = *(const float4 *)&bt[p][rt_col(j)];
            rb[j] = v.x, rb[j + 1] = v.y, rb[j + 2] = v.z, rb[j + 3] = v.w;
        }
        for (int i = 0; i < RT_TM; i++)
            for (int j = 0; j < RT_TN; j++)
                acc[i][j] += ra[i] * rb[j];
    }
    /* SOLUTION END */
}

/* The thread's elements of C from its registers to global memory. */
__device__ void rt_write(float *__restrict__ c, unsigned m, unsigned n,
                         const float acc[RT_TM][RT_TN])
{
    unsigned row0 = blockIdx.y * RT_BM, col0 = blockIdx.x * RT_BN;
    /* SOLUTION BEGIN: acc[i][j] is C(row0 + rt_row(i), col0 + rt_col(j)): store each one
     * inside C. */
    for (int i = 0; i < RT_TM; i++)
        for (int j = 0; j < RT_TN; j++) {
            unsigned row = row0 + rt_row(i), col = col0 + rt_col(j);
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
    /* SOLUTION END */
}

/* 5. Register tiling: a block of 16 x 16 threads computes a 128 x 128 tile of C, each thread 8 x
 * 8 elements of it held in 64 registers, walking k 8 columns a step. A step loads 8 KB (a float4
 * of A and one of B a thread) for 262144 flops: 32 flops a byte of L2 traffic, eight times
 * tiled_shared's 4. A thread's 8 x 8 are 2 x 2 blocks of 4 x 4, 64 rows and 64 columns apart
 * (rt_row, rt_col), not one block: 8 threads along x then read 8 neighbouring float4s of a row
 * of bt, 128 bytes, every bank once (16-byte loads are served 8 lanes at a time), where blocks of
 * 8 columns would put them 32 bytes apart, two to a bank. The costs: 64 accumulators and the
 * operands take over 100 registers a thread, which caps the threads an SM holds (occupancy;
 * __launch_bounds__ asks the compiler to fit 2 blocks of 256 threads an SM, 128 registers a
 * thread), and a tile of 128 x 128 wastes work at the edges of a small C. */
__global__ void __launch_bounds__(RT_THREADS, 2)
    matmul_register_tiled(const float *__restrict__ a, const float *__restrict__ b,
                          float *__restrict__ c, unsigned m, unsigned n, unsigned k, bool a_vec,
                          bool b_vec)
{
    __shared__ __align__(16) rt_a_tile at;
    __shared__ __align__(16) rt_b_tile bt;
    float acc[RT_TM][RT_TN] = {};
    /* SOLUTION BEGIN: for t = 0, RT_BK, ... below k: rt_store the step's rt_load, wait,
     * rt_multiply, wait (the same two hazards as tiled_shared's). Then rt_write. */
    for (unsigned t = 0; t < k; t += RT_BK) {
        rt_store(at, bt, rt_load(a, b, m, n, k, t, a_vec, b_vec));
        __syncthreads();
        rt_multiply(at, bt, acc);
        __syncthreads();
    }
    rt_write(c, m, n, acc);
    /* SOLUTION END */
}

/* An asynchronous copy (cp.async, through cuda_pipeline_primitives.h) of `bytes` (4 or 16) from
 * p + at to shared memory at dst, started and not waited for; outside the matrix, zeros instead
 * and nothing read (zfill: all the bytes). The copy needs dst and p + at aligned to its size.
 * Before compute capability 8.0 the header copies at once, through a register. */
template <int bytes>
__device__ void copy_async(float *dst, const float *__restrict__ p, size_t at, bool inside)
{
    if (inside)
        __pipeline_memcpy_async(dst, p + at, bytes);
    else
        __pipeline_memcpy_async(dst, p, bytes, bytes);
}

/* load4's asynchronous twin: elements (r, c) to (r, c + 3) of a rows x cols matrix into shared
 * memory at dst (16-byte aligned), 0 where outside it: one copy of 16 bytes when vec (every
 * row starts on 16 bytes, cols is a multiple of 4), else four of 4. c is a multiple of 4. */
__device__ void copy4(float *dst, const float *__restrict__ p, unsigned rows, unsigned cols,
                      unsigned r, unsigned c, bool vec)
{
    size_t at = (size_t)r * cols + c;
    /* SOLUTION BEGIN: with vec, one copy_async<16> of element at, inside when r < rows and c <
     * cols (then all four are: cols is a multiple of 4); else copy_async<4> of each element at +
     * e to dst + e, inside when r < rows and c + e < cols. */
    if (vec) {
        copy_async<16>(dst, p, at, r < rows && c < cols);
        return;
    }
    for (unsigned e = 0; e < 4; e++)
        copy_async<4>(dst + e, p, at + e, r < rows && c + e < cols);
    /* SOLUTION END */
}

/* double_buffered's loads: the thread's chunks of the step at column t (rt_load's), copied by
 * cp.async straight into the shared tiles. A cp.async moves bytes as they lie and cannot
 * transpose: A's go in a float at a time, at[p][i] from A(i, p); B's with copy4. */
__device__ void rt_copy(rt_a_tile at, rt_b_tile bt, const float *__restrict__ a,
                        const float *__restrict__ b, unsigned m, unsigned n, unsigned k, unsigned t,
                        bool b_vec)
{
    unsigned tid = threadIdx.y * (RT_BN / RT_TN) + threadIdx.x;
    /* SOLUTION BEGIN: rt_load's chunks. Of A's: for e < 4, copy_async<4> of A(row, t + p + e)
     * (row = blockIdx.y RT_BM + i) to at[p + e][i], inside when row < m and t + p + e < k. Of
     * B's: copy4 of B(t + p, blockIdx.x RT_BN + j) to bt[p][j]. */
    for (int l = 0; l < RT_A_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS, i = q / (RT_BK / 4), p = q % (RT_BK / 4) * 4;
        unsigned row = blockIdx.y * RT_BM + i;
        for (unsigned e = 0; e < 4; e++)
            copy_async<4>(&at[p + e][i], a, (size_t)row * k + t + p + e, row < m && t + p + e < k);
    }
    for (int l = 0; l < RT_B_LOADS; l++) {
        unsigned q = tid + l * RT_THREADS, p = q / (RT_BN / 4), j = q % (RT_BN / 4) * 4;
        copy4(&bt[p][j], b, k, n, t + p, blockIdx.x * RT_BN + j, b_vec);
    }
    /* SOLUTION END */
}

/* 6. Double buffering with cp.async: register_tiled's products on tiles that asynchronous
 * copies bring into a ring of RT_STAGES pairs of shared tiles (2 by default: double buffering).
 * While a step multiplies one pair, the copies of the next RT_STAGES - 1 steps are in flight:
 * their latency hides behind the arithmetic, and no registers hold them on the way. A step first
 * waits for its own copies (__pipeline_wait_prior: all but the latest RT_STAGES - 2 groups),
 * then at the barrier for everyone's; only then does it start copying into the pair that the
 * step before read, which every thread has finished with by then: one barrier a step. Each
 * thread commits one group a step, empty past the last step, so that "all but the latest
 * RT_STAGES - 2" is always this step's group. The price: RT_STAGES times the shared memory. The
 * copies need compute capability 8.0; before, the header copies synchronously (the CPU backend
 * writes a copy when its thread waits for it, so a missing wait shows). */
__global__ void __launch_bounds__(RT_THREADS, 2)
    matmul_double_buffered(const float *__restrict__ a, const float *__restrict__ b,
                           float *__restrict__ c, unsigned m, unsigned n, unsigned k, bool b_vec)
{
    __shared__ __align__(16) rt_a_tile at[RT_STAGES];
    __shared__ __align__(16) rt_b_tile bt[RT_STAGES];
    float acc[RT_TM][RT_TN] = {};
    unsigned steps = (k + RT_BK - 1) / RT_BK;
    /* SOLUTION BEGIN: for s < RT_STAGES - 1: rt_copy step s (column s RT_BK) into pair s if s <
     * steps, then __pipeline_commit (always). Then for each step s: __pipeline_wait_prior(
     * RT_STAGES - 2), wait for the block, rt_copy step s + RT_STAGES - 1 into its pair ((s +
     * RT_STAGES - 1) % RT_STAGES) if that step exists, commit (always), and rt_multiply pair s %
     * RT_STAGES. Then rt_write. */
    for (unsigned s = 0; s + 1 < RT_STAGES; s++) {
        if (s < steps)
            rt_copy(at[s], bt[s], a, b, m, n, k, s * RT_BK, b_vec);
        __pipeline_commit();
    }
    for (unsigned s = 0; s < steps; s++) {
        unsigned next = s + RT_STAGES - 1;
        __pipeline_wait_prior(RT_STAGES - 2);
        __syncthreads();
        if (next < steps)
            rt_copy(at[next % RT_STAGES], bt[next % RT_STAGES], a, b, m, n, k, next * RT_BK, b_vec);
        __pipeline_commit();
        rt_multiply(at[s % RT_STAGES], bt[s % RT_STAGES], acc);
    }
    rt_write(c, m, n, acc);
    /* SOLUTION END */
}

/* 7. Tensor cores through wmma: each of a block's 8 warps computes a 64 x 64 part of the block's
 * 128 x 256 tile of C as 4 x 4 accumulator fragments of 16 x 16, each k step of 8 multiplying 16
 * x 8 fragments of A by 8 x 16 fragments of B (m16n16k8, the TF32 shape). A tensor core does a
 * fragment's 2048 FMAs in four instructions (HMMA), and on the H100 what else a warp issues, the
 * fragments' loads and their rounding, the copies, the loop, is the limit: a scheduler issues
 * one instruction a clock, and its tensor core takes an HMMA about every four. So each fragment
 * loaded serves 4 products (128 accumulators a thread: __launch_bounds__(256, 1) lets the
 * compiler use up to 255 registers, one block an SM), and the tiles, 16 columns of A and rows of
 * B a step, come as in double_buffered, by cp.async through TC_STAGES (3) stages, one 16-byte
 * copy each from a stepped pointer wherever a step's tiles lie inside A and B (tc_copy). The
 * price is precision: TF32 keeps 10 of a float's 23 fraction bits, so each input is rounded
 * (__float_to_tf32, to nearest) with a relative error up to 2^-11 before the products, which
 * are added in FP32. cp.async copies floats as they are, so the fragments are rounded once
 * loaded, two instructions an element. The stages take 79.5 KiB of shared memory, dynamic (past
 * 48 KiB a kernel must ask for it: launch.cu does; GPUs of compute capability 8.6 and 8.9 give
 * a block 99 KiB at most), and at the end hold each warp's strip of 16 rows, where it stores a
 * row of its fragments at a time and copies them to C inside its bounds. TF32 needs compute
 * capability 8.0: older GPUs compile this kernel empty, and launch.cu refuses to launch it
 * there. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define MATMUL_HAS_TF32 1
#endif
static_assert(TC_WM % 16 == 0 && TC_WN % 16 == 0 && TC_BK % 8 == 0 && TC_BM % TC_WM == 0 &&
                  TC_BN % TC_WN == 0 && TC_THREADS <= 1024,
              "whole fragments, whole warps, at most 1024 threads");
static_assert(TC_THREADS % (TC_BK / 4) == 0 && TC_THREADS % (TC_BN / 4) == 0 &&
                  TC_BM * TC_BK / 4 % TC_THREADS == 0 && TC_BK * TC_BN / 4 % TC_THREADS == 0,
              "every thread copies as many float4s of each tile, all at the same columns");
static_assert(TC_APAD % 4 == 0 && TC_BPAD % 4 == 0 && TC_CPAD % 4 == 0,
              "rows of whole 16-byte chunks, as cp.async and wmma need");
static_assert(TC_STAGES >= 2 && MM_TC_MIN_BLOCKS >= 1, "two stages at least");
static_assert(TC_SMEM <= 227 * 1024, "227 KiB of shared memory a block at most (the H100's)");
enum {
    TC_FM = TC_WM / 16, /* a warp's fragments down and across */
    TC_FN = TC_WN / 16,
    TC_A_COPIES = TC_BM * TC_BK / 4 / TC_THREADS, /* a thread's float4s of a stage's tiles */
    TC_B_COPIES = TC_BK * TC_BN / 4 / TC_THREADS,
    TC_A_ROWS = TC_THREADS / (TC_BK / 4), /* the rows between them */
    TC_B_ROWS = TC_THREADS / (TC_BN / 4)
};

/* A stage of tensor_core's pipeline: A's TC_BM x TC_BK tile and B's TC_BK x TC_BN, as they lie
 * in A and B, rows padded. */
struct tc_stage {
    float a[TC_BM][TC_BK + TC_APAD];
    float b[TC_BK][TC_BN + TC_BPAD];
};
typedef float tc_c_row[TC_WN + TC_CPAD]; /* a row of a warp's strip of C, padded */

/* tensor_core's copies of the step at column t into stage s. The thread's share: TC_A_COPIES
 * float4s of A's tile, at rows r, r + TC_A_ROWS, ... and columns p to p + 3 (the same p for all:
 * TC_THREADS is a multiple of TC_BK / 4), and TC_B_COPIES of B's, at rows q, q + TC_B_ROWS, ...
 * and columns j to j + 3. Where both tiles lie inside A and B with rows on 16 bytes (every step
 * of every block when TC_BM divides m, TC_BN n and TC_BK k), each is one 16-byte copy from a
 * pointer TC_A_ROWS or TC_B_ROWS rows past the last: no bound to check, no zeros to choose.
 * Elsewhere copy4 checks every float. */
__device__ void tc_copy(tc_stage &s, const float *__restrict__ a, const float *__restrict__ b,
                        unsigned m, unsigned n, unsigned k, unsigned t, bool a_vec, bool b_vec)
{
    unsigned row0 = blockIdx.y * TC_BM, col0 = blockIdx.x * TC_BN;
    unsigned r = threadIdx.x / (TC_BK / 4), p = threadIdx.x % (TC_BK / 4) * 4;
    unsigned q = threadIdx.x / (TC_BN / 4), j = threadIdx.x % (TC_BN / 4) * 4;
    if (a_vec && b_vec && row0 + TC_BM <= m && col0 + TC_BN <= n && t + TC_BK <= k) {
        const float *pa = a + (size_t)(row0 + r) * k + t + p;
        const float *pb = b + (size_t)(t + q) * n + col0 + j;
        for (int l = 0; l < TC_A_COPIES; l++)
            __pipeline_memcpy_async(&s.a[r + l * TC_A_ROWS][p], pa + (size_t)l * TC_A_ROWS * k, 16);
        for (int l = 0; l < TC_B_COPIES; l++)
            __pipeline_memcpy_async(&s.b[q + l * TC_B_ROWS][j], pb + (size_t)l * TC_B_ROWS * n, 16);
        return;
    }
    for (int l = 0; l < TC_A_COPIES; l++)
        copy4(&s.a[r + l * TC_A_ROWS][p], a, m, k, row0 + r + l * TC_A_ROWS, t + p, a_vec);
    for (int l = 0; l < TC_B_COPIES; l++)
        copy4(&s.b[q + l * TC_B_ROWS][j], b, k, n, t + q + l * TC_B_ROWS, col0 + j, b_vec);
}

#ifdef MATMUL_HAS_TF32
using namespace nvcuda;
typedef wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc_acc;
typedef wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tc_fa;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tc_fb;

/* A fragment's elements rounded to TF32, to nearest (the tensor core would cut their low 13 bits
 * instead). Which lane holds which element is the hardware's business: every one is rounded. */
template <class Fragment>
__device__ void tf32_round(Fragment &f)
{
    for (int e = 0; e < f.num_elements; e++)
        f.x[e] = wmma::__float_to_tf32(f.x[e]);
}

/* One step's products for the warp whose part of C starts at row wm and column wn of the
 * block's tile: for each 8 columns kk of the stage's tiles, TC_FM fragments of A and TC_FN of B
 * loaded and rounded, then all TC_FM x TC_FN products: each fragment loaded serves TC_FN or
 * TC_FM of them. */
__device__ void tc_multiply(const tc_stage &s, unsigned wm, unsigned wn, tc_acc acc[TC_FM][TC_FN])
{
    tc_fa fa[TC_FM];
    tc_fb fb[TC_FN];
    /* SOLUTION BEGIN: for kk = 0, 8, ... below TC_BK: fa[i] from &s.a[wm + 16 i][kk] and fb[j]
     * from &s.b[kk][wn + 16 j] (load_matrix_sync; ldm: the padded row lengths), each through
     * tf32_round; then mma_sync each acc[i][j] with fa[i] and fb[j] (#pragma unroll on the
     * loop over kk, as in rt_multiply). */
#pragma unroll
    for (int kk = 0; kk < TC_BK; kk += 8) {
        for (int i = 0; i < TC_FM; i++) {
            wmma::load_matrix_sync(fa[i], &s.a[wm + 16 * i][kk], TC_BK + TC_APAD);
            tf32_round(fa[i]);
        }
        for (int j = 0; j < TC_FN; j++) {
            wmma::load_matrix_sync(fb[j], &s.b[kk][wn + 16 * j], TC_BN + TC_BPAD);
            tf32_round(fb[j]);
        }
        for (int i = 0; i < TC_FM; i++)
            for (int j = 0; j < TC_FN; j++)
                wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    /* SOLUTION END */
}

/* The warp's part of C, a row of fragments at a time: the row's TC_FN fragments stored into the
 * warp's strip ct of shared memory (16 rows), then copied from there to C inside its bounds. A
 * lane copies elements that other lanes stored (which lane holds which element of a fragment is
 * the hardware's business): a __syncwarp() between; and another after the copy, before the next
 * row's stores overwrite what other lanes may still be copying. */
__device__ void tc_write(float *__restrict__ c, unsigned m, unsigned n, tc_c_row *ct, unsigned wm,
                         unsigned wn, const tc_acc acc[TC_FM][TC_FN])
{
    unsigned lane = threadIdx.x % 32, row0 = blockIdx.y * TC_BM + wm,
             col0 = blockIdx.x * TC_BN + wn;
    /* SOLUTION BEGIN: for each i < TC_FM: store acc[i][j] at ct[0][16 j] for every j
     * (store_matrix_sync, row-major, ldm the strip's padded row), wait for the warp, copy the
     * strip's 16 x TC_WN elements to C from row row0 + 16 i and column col0 on, inside C only,
     * and wait for the warp again. */
    for (int i = 0; i < TC_FM; i++) {
        for (int j = 0; j < TC_FN; j++)
            wmma::store_matrix_sync(&ct[0][16 * j], acc[i][j], TC_WN + TC_CPAD,
                                    wmma::mem_row_major);
        __syncwarp();
        for (unsigned e = lane; e < 16 * TC_WN; e += 32) {
            unsigned r = e / TC_WN, j = e % TC_WN;
            if (row0 + 16 * i + r < m && col0 + j < n)
                c[(size_t)(row0 + 16 * i + r) * n + col0 + j] = ct[r][j];
        }
        __syncwarp();
    }
    /* SOLUTION END */
}
#endif

__global__ void __launch_bounds__(TC_THREADS, MM_TC_MIN_BLOCKS)
    matmul_tensor_core(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, unsigned m, unsigned n, unsigned k, bool a_vec,
                       bool b_vec)
{
#ifdef MATMUL_HAS_TF32
    extern __shared__ __align__(128) float tc_smem[];
    tc_stage *st = (tc_stage *)tc_smem;
    unsigned warp = threadIdx.x / 32, steps = (k + TC_BK - 1) / TC_BK;
    unsigned wm = warp / (TC_BN / TC_WN) * TC_WM, wn = warp % (TC_BN / TC_WN) * TC_WN;
    tc_acc acc[TC_FM][TC_FN];
    /* SOLUTION BEGIN: zero the accumulators (fill_fragment). Then double_buffered's pipeline,
     * with TC_STAGES stages st[0], st[1], ..., tc_copy and tc_multiply. Then wait for the block
     * (the stages become the warps' strips: warp w's is 16 rows of tc_c_row, 16 w rows from
     * tc_smem on) and tc_write. */
    for (int i = 0; i < TC_FM; i++)
        for (int j = 0; j < TC_FN; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);
    for (unsigned s = 0; s + 1 < TC_STAGES; s++) {
        if (s < steps)
            tc_copy(st[s], a, b, m, n, k, s * TC_BK, a_vec, b_vec);
        __pipeline_commit();
    }
    for (unsigned s = 0; s < steps; s++) {
        unsigned next = s + TC_STAGES - 1;
        __pipeline_wait_prior(TC_STAGES - 2);
        __syncthreads();
        if (next < steps)
            tc_copy(st[next % TC_STAGES], a, b, m, n, k, next * TC_BK, a_vec, b_vec);
        __pipeline_commit();
        tc_multiply(st[s % TC_STAGES], wm, wn, acc);
    }
    __syncthreads();
    tc_write(c, m, n, (tc_c_row *)tc_smem + 16 * warp, wm, wn, acc);
    /* SOLUTION END */
#endif
}
