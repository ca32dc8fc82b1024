/* lab13: matrix multiply, C = A B in FP32. The table of variants, the host API that rows.c and
 * the tests call (launch.cu, library.cu), the error bound every result is checked against
 * (reference.c), and the kernels of matmul.cu that launch.cu launches.
 *
 * All matrices are row-major and dense: A is m x k (element (i, p) at i * k + p), B is k x n
 * (element (p, j) at p * n + j), C is m x n (element (i, j) at i * n + j). Any m, n, k: the
 * kernels check every edge, so no side need be a multiple of a tile. */
#ifndef MATMUL_H
#define MATMUL_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tunable shapes: the register tiles' and the tensor cores' block tile (BM x BN of C), the
 * k step (BK), a thread's or a warp's part of the tile, the shared buffers of the pipelines
 * (STAGES), and the blocks an SM must fit (tensor_core's __launch_bounds__: 1 lets a thread take
 * 255 registers, 2 caps it at 65536 / (2 x threads)). Defaults here; a build may set others,
 * after removing lab13's objects (make does not see a flag change), for example
 *   rm -rf build/cuda/labs/lab13-matmul build/cuda/solutions/lab13-matmul
 *   make BACKEND=cuda lab13 bench lab13_CUFLAGS="-DMM_TC_BK=32 -DMM_TC_STAGES=2"
 * matmul.cu checks that a shape divides as the kernels need. tensor_core's defaults fit the 96
 * KiB of shared memory that the CPU backend gives a block (GPUs of compute capability 8.6 and
 * 8.9: 99 KiB; an H100: 227 KiB); TC_SMEM, below, is what a shape takes. */
#ifndef MM_RT_BM
#define MM_RT_BM 128
#endif
#ifndef MM_RT_BN
#define MM_RT_BN 128
#endif
#ifndef MM_RT_BK
#define MM_RT_BK 8
#endif
#ifndef MM_RT_TM
#define MM_RT_TM 8
#endif
#ifndef MM_RT_TN
#define MM_RT_TN 8
#endif
#ifndef MM_RT_STAGES
#define MM_RT_STAGES 2
#endif
#ifndef MM_TC_BM
#define MM_TC_BM 128
#endif
#ifndef MM_TC_BN
#define MM_TC_BN 256
#endif
#ifndef MM_TC_BK
#define MM_TC_BK 16
#endif
#ifndef MM_TC_WM
#define MM_TC_WM 64
#endif
#ifndef MM_TC_WN
#define MM_TC_WN 64
#endif
#ifndef MM_TC_STAGES
#define MM_TC_STAGES 3
#endif
#ifndef MM_TC_MIN_BLOCKS
#define MM_TC_MIN_BLOCKS 1
#endif

/* The shapes the kernels are written for. */
enum {
    NAIVE_BX = 32, /* the naive kernels' blocks: 32 x 8 threads, a warp along x */
    NAIVE_BY = 8,
    TILE = 16,  /* tiled_shared and coarsened: TILE x TILE threads, TILE x TILE tiles */
    COARSE = 4, /* coarsened: the C elements a thread computes along its row, TILE apart */
    /* register_tiled and double_buffered: a block's RT_BM x RT_BN (128 x 128) tile of C, RT_BK
     * (8) columns of A and rows of B a step, each thread RT_TM x RT_TN (8 x 8) elements of the
     * tile in registers: (RT_BM / RT_TM) x (RT_BN / RT_TN) = 16 x 16 threads. double_buffered's
     * pipeline holds RT_STAGES (2) pairs of shared tiles. */
    RT_BM = MM_RT_BM,
    RT_BN = MM_RT_BN,
    RT_BK = MM_RT_BK,
    RT_TM = MM_RT_TM,
    RT_TN = MM_RT_TN,
    RT_STAGES = MM_RT_STAGES,
    RT_THREADS = RT_BM / RT_TM * (RT_BN / RT_TN),
    RT_PAD = 4, /* the shared A tile's rows (RT_BM floats) padded: no bank conflicts */
    /* tensor_core: a block's TC_BM x TC_BN (128 x 256) tile of C, TC_BK (16) columns of A and
     * rows of B a step, each warp TC_WM x TC_WN (64 x 64) of the tile: 4 x 4 accumulator
     * fragments of 16 x 16, (128 / 64) x (256 / 64) = 8 warps. Its pipeline holds TC_STAGES (3)
     * pairs of shared tiles, their rows padded (wmma wants ldm % 4 == 0): A's by TC_APAD floats,
     * B's by TC_BPAD, so that the 32 floats of each load of a fragment lie in 32 different
     * banks; then each warp's strip of 16 rows of C, padded by TC_CPAD. */
    TC_BM = MM_TC_BM,
    TC_BN = MM_TC_BN,
    TC_BK = MM_TC_BK,
    TC_WM = MM_TC_WM,
    TC_WN = MM_TC_WN,
    TC_STAGES = MM_TC_STAGES,
    TC_THREADS = 32 * (TC_BM / TC_WM) * (TC_BN / TC_WN),
    TC_APAD = 4,
    TC_BPAD = 8,
    TC_CPAD = 4,
    /* tensor_core's dynamic shared memory, in bytes: the stages, or the warps' strips if larger */
    TC_STAGE_FLOATS = TC_BM * (TC_BK + TC_APAD) + TC_BK * (TC_BN + TC_BPAD),
    TC_PIPE_FLOATS = TC_STAGES * TC_STAGE_FLOATS,
    TC_C_FLOATS = TC_THREADS / 32 * 16 * (TC_WN + TC_CPAD),
    TC_SMEM_FLOATS = TC_PIPE_FLOATS > TC_C_FLOATS ? TC_PIPE_FLOATS : TC_C_FLOATS,
    TC_SMEM = 4 * TC_SMEM_FLOATS
};

/* The variants, in the handout's order. A row: the enum constant, the name (tests, --variant,
 * bench rows, points), its launch facts, what it teaches. The facts:
 *   bx, by        the block's threads in x and y
 *   tile_m        rows of C a block covers (naive: along x, the others along y)
 *   tile_n        columns of C a block covers
 *   rows_on_x     1: the grid's x runs down C's rows (the naive mapping), 0: along its columns
 *   tf32          1: TF32 inputs (tensor cores), checked within their larger bound */
// clang-format off
#define MATMUL_TABLE(X)                        /* bx  by  tile_m  tile_n  rows_on_x tf32 */ \
    X(MM_NAIVE, "naive",                     (NAIVE_BX, NAIVE_BY, NAIVE_BX, NAIVE_BY, 1, 0),    \
      "a thread per element of C, threadIdx.x down a column: strided loads of A")          \
    X(MM_NAIVE_COALESCED, "naive_coalesced", (NAIVE_BX, NAIVE_BY, NAIVE_BY, NAIVE_BX, 0, 0),    \
      "threadIdx.x along a row of C: B's loads coalesce, A's are broadcast")                \
    X(MM_TILED_SHARED, "tiled_shared",       (TILE, TILE, TILE, TILE, 0, 0),                    \
      "16 x 16 tiles of A and B in shared memory: each load used 16 times")                \
    X(MM_COARSENED, "coarsened",             (TILE, TILE, TILE, TILE * COARSE, 0, 0),           \
      "4 outputs a thread, 16 apart along a row: the A tile loaded once for 4 B tiles")     \
    X(MM_REGISTER_TILED, "register_tiled",   (RT_BN / RT_TN, RT_BM / RT_TM, RT_BM, RT_BN, 0, 0), \
      "128 x 128 tiles, 8 x 8 elements of C a thread in registers, float4 loads")          \
    X(MM_DOUBLE_BUFFERED, "double_buffered", (RT_BN / RT_TN, RT_BM / RT_TM, RT_BM, RT_BN, 0, 0), \
      "register_tiled fed by cp.async through a ring of shared tiles: loads overlap products") \
    X(MM_TENSOR_CORE, "tensor_core",         (TC_THREADS, 1, TC_BM, TC_BN, 0, 1),               \
      "wmma fragments on tensor cores: TF32 inputs, FP32 accumulation")
// clang-format on

enum matmul_variant { MATMUL_TABLE(LAB_ENUM) MATMUL_VARIANTS };
static const struct lab_variant matmul_variants[] = {MATMUL_TABLE(LAB_VARIANT)};
struct matmul_facts {
    unsigned bx, by, tile_m, tile_n, rows_on_x, tf32;
};
static const struct matmul_facts matmul_facts[] = {MATMUL_TABLE(LAB_FACTS)};

/* C = A B with variant v, on device buffers of at least m k, k n and m n floats. C may not
 * overlap A or B. m or n of 0 does nothing; k of 0 makes C zero. Returns LAB_OK; LAB_EINVAL
 * for a bad variant, a side past 2^31 - 1, a NULL or too small buffer, C overlapping A or B,
 * or a grid past the device's limits (gridDim.y: 65535 blocks of the variant's tile); or
 * LAB_ECUDA (tensor_core on a GPU without TF32 tensor cores, compute capability < 8.0).
 * Asynchronous. */
int matmul(enum matmul_variant v, struct gpu_buf a, struct gpu_buf b, struct gpu_buf c, size_t m,
           size_t n, size_t k);

/* library.cu, on a real GPU only: cuBLAS on the same buffers, with the same arguments and
 * codes as matmul() (every side at most 2^31 - 1). */
enum matmul_library {
    MM_CUBLAS_SGEMM, /* cublasSgemm: FP32 on the FP32 units */
    MM_CUBLAS_TF32   /* cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32: TF32 tensor cores */
};
int matmul_cublas(enum matmul_library lib, struct gpu_buf a, struct gpu_buf b, struct gpu_buf c,
                  size_t m, size_t n, size_t k);

/* reference.c. matmul_cpu: the bench's CPU row, C = A B in float, a triple loop on one core.
 * matmul_exact_row and matmul_exact_col: row i (n elements) or column j (m elements) of C
 * computed in double, with the sums of |a_ip b_pj| that the error bound scales with.
 * matmul_tolerance: the largest |c - c_exact| the bound allows an element whose sum of
 * |a_ip b_pj| is abs_sum, for k products computed by a kernel whose inputs are rounded with
 * unit roundoff u_in (0: used as they are; MM_U_TF32 for TF32 rounded to nearest) and whose
 * sums round with unit roundoff u_sum (MM_U_FP32; MM_U_TENSOR_SUM for tensor cores). The
 * handout derives it. */
#define MM_U_FP32 0x1p-24       /* float, rounding to nearest */
#define MM_U_TF32 0x1p-11       /* TF32 (10 fraction bits), rounding to nearest */
#define MM_U_TF32_CUT 0x1p-10   /* TF32 cut from a float (cuBLAS does not say how it rounds) */
#define MM_U_TENSOR_SUM 0x1p-23 /* a tensor core's float sums, which may truncate */
void matmul_cpu(const float *a, const float *b, float *c, size_t m, size_t n, size_t k);
void matmul_exact_row(const float *a, const float *b, size_t n, size_t k, size_t i, double *c,
                      double *abs_sum);
void matmul_exact_col(const float *a, const float *b, size_t m, size_t n, size_t k, size_t j,
                      double *c, double *abs_sum);
double matmul_tolerance(size_t k, double u_in, double u_sum, double abs_sum);

#ifdef __cplusplus
}

/* matmul.cu's kernels, for launch.cu. The float4 paths (16-byte loads and copies) are taken only
 * where launch.cu found the rows aligned: a_vec for A (k % 4 == 0, A 16-byte aligned), b_vec for
 * B (double_buffered copies A a float at a time: it has no a_vec). tensor_core takes TC_SMEM
 * bytes of dynamic shared memory. */
__global__ void matmul_naive(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, unsigned m, unsigned n, unsigned k);
__global__ void matmul_naive_coalesced(const float *__restrict__ a, const float *__restrict__ b,
                                       float *__restrict__ c, unsigned m, unsigned n, unsigned k);
__global__ void matmul_tiled_shared(const float *__restrict__ a, const float *__restrict__ b,
                                    float *__restrict__ c, unsigned m, unsigned n, unsigned k);
__global__ void matmul_coarsened(const float *__restrict__ a, const float *__restrict__ b,
                                 float *__restrict__ c, unsigned m, unsigned n, unsigned k);
__global__ void matmul_register_tiled(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                      bool a_vec, bool b_vec);
__global__ void matmul_double_buffered(const float *__restrict__ a, const float *__restrict__ b,
                                       float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                       bool b_vec);
__global__ void matmul_tensor_core(const float *__restrict__ a, const float *__restrict__ b,
                                   float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                   bool a_vec, bool b_vec);
#endif
#endif
