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

/* The shapes the kernels are written for. */
enum {
    NAIVE_BX = 32, /* the naive kernels' blocks: 32 x 8 threads, a warp along x */
    NAIVE_BY = 8,
    TILE = 16,   /* tiled_shared and coarsened: TILE x TILE threads, TILE x TILE tiles */
    COARSE = 4,  /* coarsened: the C elements a thread computes along its row, TILE apart */
    RT_BM = 128, /* register_tiled and double_buffered: a block's RT_BM x RT_BN tile of C, */
    RT_BN = 128,
    RT_BK = 8,  /* RT_BK columns of A and rows of B a step, */
    RT_TM = 8,  /* each thread an RT_TM x RT_TN block of it in registers: */
    RT_TN = 8,  /* (RT_BM / RT_TM) x (RT_BN / RT_TN) = 16 x 16 threads */
    RT_PAD = 4, /* the shared A tile's rows (RT_BM floats) padded: no bank conflicts */
    TC_BM = 64, /* tensor_core: a block's 64 x 64 tile of C, 4 warps of 32 x 32 each, */
    TC_BN = 64,
    TC_BK = 16, /* 16 columns of A and rows of B a step, */
    TC_WM = 32, /* a warp's 32 x 32: 2 x 2 accumulator fragments of 16 x 16 */
    TC_WN = 32,
    TC_PAD = 4, /* its shared tiles' rows padded by 4 floats (wmma wants ldm % 4 == 0) */
    TC_THREADS = 128
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
      "128 x 128 tiles, an 8 x 8 block of C a thread in registers, float4 loads")          \
    X(MM_DOUBLE_BUFFERED, "double_buffered", (RT_BN / RT_TN, RT_BM / RT_TM, RT_BM, RT_BN, 0, 0), \
      "register_tiled with two shared buffers: the next tile loads during this one")       \
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

/* matmul.cu's kernels, for launch.cu. The float4 paths are taken only where launch.cu found
 * the rows aligned: a_vec for A (k % 4 == 0, A 16-byte aligned), b_vec for B. */
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
                                       bool a_vec, bool b_vec);
__global__ void matmul_tensor_core(const float *__restrict__ a, const float *__restrict__ b,
                                   float *__restrict__ c, unsigned m, unsigned n, unsigned k,
                                   bool a_vec, bool b_vec);
#endif
#endif
