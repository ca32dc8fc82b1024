/* lab13's host API: the arguments checked, the grid made from the variant's tile (the table of
 * matmul.h), then the kernel of matmul.cu launched. */
#include <limits.h>
#include <stdint.h>
#include "check.h"
#include "matmul.h"

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* buf holds a rows x cols matrix (rows, cols < 2^31: no overflow); none needed when empty. */
static int fits(struct gpu_buf buf, size_t rows, size_t cols)
{
    size_t count = rows * cols;
    return count == 0 || (buf.ptr && count <= buf.bytes / sizeof(float));
}

/* The first x and y floats of p and q share memory. */
static int overlap(const void *p, size_t x, const void *q, size_t y)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return x && y && a < b + y * sizeof(float) && b < a + x * sizeof(float);
}

/* The variant's grid over C: blocks of its tile, x along C's columns (rows for the naive
 * mapping), within the device's limits. */
static int make_grid(const struct matmul_facts *f, size_t m, size_t n, dim3 *grid)
{
    int dev, most_y;
    size_t x = f->rows_on_x ? div_up(m, f->tile_m) : div_up(n, f->tile_n);
    size_t y = f->rows_on_x ? div_up(n, f->tile_n) : div_up(m, f->tile_m);
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&most_y, cudaDevAttrMaxGridDimY, dev));
    if (x > INT_MAX || y > (size_t)most_y)
        return LAB_EINVAL;
    *grid = dim3((unsigned)x, (unsigned)y);
    return LAB_OK;
}

/* tensor_core's refusal: the message where the lab's CUDA failures go, and LAB_ECUDA. */
static int refuse(const char *message)
{
    fprintf(stderr, "%s\n", message);
    lab_set_cuda_failure(message);
    return LAB_ECUDA;
}

/* TF32 tensor cores came with compute capability 8.0 (the CPU backend's wmma has them); and
 * tensor_core's TC_SMEM bytes of shared memory a block must fit what the device gives (an H100
 * 227 KiB, compute capability 8.6 and 8.9 99 KiB, the CPU backend 96 KiB): a shape set at build
 * time may not. */
static int can_run_tensor_core(void)
{
    int dev, most;
    char message[200];
    CUDA_TRY(cudaGetDevice(&dev));
#ifdef BACKEND_CUDA
    int major;
    CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 8) {
        snprintf(message, sizeof message, "%s:%d: tensor_core: TF32 needs compute capability 8.0",
                 __FILE__, __LINE__);
        return refuse(message);
    }
#endif
    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (most < TC_SMEM) {
        snprintf(message, sizeof message,
                 "%s:%d: tensor_core: its shape takes %d bytes of shared memory a block, the "
                 "device gives %d (matmul.h: MM_TC_BK, MM_TC_STAGES)",
                 __FILE__, __LINE__, (int)TC_SMEM, most);
        return refuse(message);
    }
    return LAB_OK;
}

extern "C" int matmul(enum matmul_variant v, struct gpu_buf a, struct gpu_buf b, struct gpu_buf c,
                      size_t m, size_t n, size_t k)
{
    const float *x = (const float *)a.ptr, *y = (const float *)b.ptr;
    float *z = (float *)c.ptr;
    unsigned um = (unsigned)m, un = (unsigned)n, uk = (unsigned)k;
    /* float4 loads where every row of the matrix starts on 16 bytes */
    bool a_vec = (uintptr_t)x % 16 == 0 && k % 4 == 0, b_vec = (uintptr_t)y % 16 == 0 && n % 4 == 0;
    dim3 grid, block;
    int status;
    if ((unsigned)v >= MATMUL_VARIANTS || m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return LAB_EINVAL;
    if (m == 0 || n == 0)
        return LAB_OK;
    if (!fits(a, m, k) || !fits(b, k, n) || !fits(c, m, n) || overlap(z, m * n, x, m * k) ||
        overlap(z, m * n, y, k * n))
        return LAB_EINVAL;
    if ((status = make_grid(&matmul_facts[v], m, n, &grid)) != LAB_OK)
        return status;
    if (v == MM_TENSOR_CORE && (status = can_run_tensor_core()) != LAB_OK)
        return status;
    block = dim3(matmul_facts[v].bx, matmul_facts[v].by);
    switch (v) {
    case MM_NAIVE:
        matmul_naive<<<grid, block>>>(x, y, z, um, un, uk);
        break;
    case MM_NAIVE_COALESCED:
        matmul_naive_coalesced<<<grid, block>>>(x, y, z, um, un, uk);
        break;
    case MM_TILED_SHARED:
        matmul_tiled_shared<<<grid, block>>>(x, y, z, um, un, uk);
        break;
    case MM_COARSENED:
        matmul_coarsened<<<grid, block>>>(x, y, z, um, un, uk);
        break;
    case MM_REGISTER_TILED:
        matmul_register_tiled<<<grid, block>>>(x, y, z, um, un, uk, a_vec, b_vec);
        break;
    case MM_DOUBLE_BUFFERED:
        matmul_double_buffered<<<grid, block>>>(x, y, z, um, un, uk, b_vec);
        break;
    case MM_TENSOR_CORE: /* its stages pass 48 KiB of shared memory: a kernel must ask for it */
        CUDA_TRY(cudaFuncSetAttribute(matmul_tensor_core,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, TC_SMEM));
        matmul_tensor_core<<<grid, block, TC_SMEM>>>(x, y, z, um, un, uk, a_vec, b_vec);
        break;
    default:
        return LAB_EINVAL;
    }
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}
