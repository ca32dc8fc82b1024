/* lab13's bench rows: the variants of matmul.h, cuBLAS in FP32 and TF32, and the CPU. Each
 * GPU row is checked within the error bound (matmul_tolerance) on whole rows and columns of
 * C: the first and last of each and up to 62 drawn from the seed (all of them for a small C),
 * against C computed in double once, at setup (C's every element would cost m n k double
 * products: minutes at 4096^3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - MATMUL_VARIANTS] = {
    {"cublasSgemm", LAB_ROW_LIBRARY, "cuBLAS in FP32"},
    {"cublasGemmEx_tf32", LAB_ROW_LIBRARY, "cuBLAS on TF32 tensor cores, FP32 accumulation"},
    {"cpu (one core)", LAB_ROW_CPU, "the triple loop on one CPU core, on A's first rows"},
};

enum { LINES = 64 };           /* rows and columns of C checked */
#define CPU_FLOPS 4294967296.0 /* the CPU row's work: a second or two */

struct job {
    size_t m, n, k, cpu_rows; /* the CPU row multiplies A's first cpu_rows rows */
    float *a, *b, *c;         /* pinned host memory */
    size_t nrows, ncols, rows[LINES], cols[LINES];
    double *row_c, *row_abs; /* nrows x n: C's checked rows, and their sums of |a b| */
    double *col_c, *col_abs; /* ncols x m: its checked columns */
    struct gpu_buf da, db, dc;
};

/* All of 0..count-1 when they fit, else the first, the last and random ones. */
static size_t pick(struct rng *r, size_t count, size_t *out)
{
    if (count <= LINES) {
        for (size_t i = 0; i < count; i++)
            out[i] = i;
        return count;
    }
    out[0] = 0;
    out[1] = count - 1;
    for (size_t i = 2; i < LINES; i++)
        out[i] = rng_next(r) % count;
    return LINES;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    double cpu_rows;
    if (!j)
        return NULL;
    j->m = s.height;
    j->n = s.width;
    j->k = opt.k ? opt.k : s.width;
    cpu_rows = CPU_FLOPS / (2.0 * j->n * j->k);
    j->cpu_rows = cpu_rows >= (double)j->m ? j->m : cpu_rows >= 1 ? (size_t)cpu_rows : 1;
    j->a = gpu_host_alloc(j->m * j->k * sizeof(float));
    j->b = gpu_host_alloc(j->k * j->n * sizeof(float));
    j->c = gpu_host_alloc(j->m * j->n * sizeof(float));
    rng_floats(&r, j->a, j->m * j->k, -1.0f, 1.0f);
    rng_floats(&r, j->b, j->k * j->n, -1.0f, 1.0f);
    j->nrows = pick(&r, j->m, j->rows);
    j->ncols = pick(&r, j->n, j->cols);
    j->row_c = malloc(j->nrows * j->n * sizeof(double));
    j->row_abs = malloc(j->nrows * j->n * sizeof(double));
    j->col_c = malloc(j->ncols * j->m * sizeof(double));
    j->col_abs = malloc(j->ncols * j->m * sizeof(double));
    if (!j->row_c || !j->row_abs || !j->col_c || !j->col_abs) {
        fprintf(stderr, "lab13: out of host memory for %zu x %zu x %zu\n", j->m, j->n, j->k);
        exit(1);
    }
    for (size_t i = 0; i < j->nrows; i++)
        matmul_exact_row(j->a, j->b, j->n, j->k, j->rows[i], j->row_c + i * j->n,
                         j->row_abs + i * j->n);
    for (size_t i = 0; i < j->ncols; i++)
        matmul_exact_col(j->a, j->b, j->m, j->n, j->k, j->cols[i], j->col_c + i * j->m,
                         j->col_abs + i * j->m);
    j->da = gpu_alloc(j->m * j->k * sizeof(float));
    j->db = gpu_alloc(j->k * j->n * sizeof(float));
    j->dc = gpu_alloc(j->m * j->n * sizeof(float));
    gpu_upload(j->da, j->a, j->m * j->k * sizeof(float));
    gpu_upload(j->db, j->b, j->k * j->n * sizeof(float));
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->da);
    gpu_free(&j->db);
    gpu_free(&j->dc);
    gpu_host_free(j->a);
    gpu_host_free(j->b);
    gpu_host_free(j->c);
    free(j->row_c);
    free(j->row_abs);
    free(j->col_c);
    free(j->col_abs);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        matmul_cpu(j->a, j->b, j->c, j->cpu_rows, j->n, j->k);
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row == CUBLAS_SGEMM || row == CUBLAS_TF32)
        return matmul_cublas(row == CUBLAS_SGEMM ? MM_CUBLAS_SGEMM : MM_CUBLAS_TF32, j->da, j->db,
                             j->dc, j->m, j->n, j->k);
#endif
    return matmul((enum matmul_variant)row, j->da, j->db, j->dc, j->m, j->n, j->k);
}

/* C(i, x) against want and its sum of |a b|, for the row's rounding. */
static int close_enough(const struct job *j, int row, size_t i, size_t x, double want, double abs,
                        char *why, size_t why_size)
{
    int tf32 = row == CUBLAS_TF32 || (row < MATMUL_VARIANTS && matmul_facts[row].tf32);
    double u_in = row == CUBLAS_TF32 ? MM_U_TF32_CUT : tf32 ? MM_U_TF32 : 0;
    double bound = matmul_tolerance(j->k, u_in, tf32 ? MM_U_TENSOR_SUM : MM_U_FP32, abs);
    float got = j->c[i * j->n + x];
    if (fabs(got - want) <= bound)
        return 1;
    snprintf(why, why_size, "C(%zu, %zu) = %.9g, want %.9g within %.3g", i, x, got, want, bound);
    return 0;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    int status;
    gpu_poison(j->dc);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->c, j->dc, j->m * j->n * sizeof(float));
    for (size_t r = 0; r < j->nrows; r++)
        for (size_t x = 0; x < j->n; x++)
            if (!close_enough(j, row, j->rows[r], x, j->row_c[r * j->n + x],
                              j->row_abs[r * j->n + x], why, why_size))
                return LAB_WRONG;
    for (size_t q = 0; q < j->ncols; q++)
        for (size_t i = 0; i < j->m; i++)
            if (!close_enough(j, row, i, j->cols[q], j->col_c[q * j->m + i],
                              j->col_abs[q * j->m + i], why, why_size))
                return LAB_WRONG;
    return LAB_OK;
}

/* The fewest bytes: A, B read once, C written once (for the CPU, its rows of A and C). */
static double bytes(void *p, int row)
{
    struct job *j = p;
    size_t m = row == CPU ? j->cpu_rows : j->m;
    return sizeof(float) * ((double)m * j->k + (double)j->k * j->n + (double)m * j->n);
}

/* The useful work: a multiply and an add for each of the m n k products. */
static double work(void *p, int row)
{
    struct job *j = p;
    return 2.0 * (row == CPU ? j->cpu_rows : j->m) * j->n * j->k;
}

const struct lab_job matmul_job = {.setup = setup,
                                   .teardown = teardown,
                                   .launch = launch,
                                   .check = check,
                                   .bytes = bytes,
                                   .work = work};
