/* lab04's bench rows: the variants of dot.h, then cublasSdot and the CPU loop, each checked
 * against the exact sum within its proved bound (dot_error_bound). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - DOT_VARIANTS] = {
    {"cublas_sdot", LAB_ROW_LIBRARY, "cublasSdot, NVIDIA's tuned dot product"},
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop in float on one CPU core"},
};

const char *row_name(int row)
{
    return row < DOT_VARIANTS ? dot_variants[row].name : extra_rows[row - DOT_VARIANTS].name;
}

/* The most scratch any variant needs at n. */
size_t job_scratch(size_t n)
{
    size_t most = 1;
    for (int v = 0; v < DOT_VARIANTS; v++) {
        size_t bytes = dot_scratch_bytes(v, n);
        most = bytes > most ? bytes : most;
    }
    return most;
}

struct job *job_new(size_t n, uint64_t seed, float lo)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t bytes = n * sizeof(float);
    if (!j)
        return NULL;
    j->n = n;
    j->a = gpu_host_alloc(bytes);
    j->b = gpu_host_alloc(bytes);
    rng_floats(&r, j->a, n, lo, 1.0f);
    rng_floats(&r, j->b, n, lo, 1.0f);
    j->exact = dot_exact(j->a, j->b, n);
    j->abs_sum = dot_abs(j->a, j->b, n);
    j->da = gpu_alloc(bytes);
    j->db = gpu_alloc(bytes);
    gpu_upload(j->da, j->a, bytes);
    gpu_upload(j->db, j->b, bytes);
    j->scratch = gpu_alloc(job_scratch(n));
    j->out = gpu_alloc(sizeof(float));
    return j;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    return job_new(s.n, seed, -1.0f);
}

void job_free(void *p)
{
    struct job *j = p;
    gpu_free(&j->da);
    gpu_free(&j->db);
    gpu_free(&j->scratch);
    gpu_free(&j->out);
    gpu_host_free(j->a);
    gpu_host_free(j->b);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        volatile float sum = dot_cpu(j->a, j->b, j->n); /* kept, so not optimised away */
        (void)sum;
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row == CUBLAS)
        return dot_cublas(j->da, j->db, j->n, j->out);
#endif
    return dot((enum dot_variant)row, j->da, j->db, j->n, j->scratch, j->out);
}

int job_result(struct job *j, int row, float *got)
{
    int status;
    gpu_poison(j->out);
    gpu_poison(j->scratch);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(got, j->out, sizeof *got);
    return LAB_OK;
}

/* cuBLAS's order of summation is its own: it is held to the loosest bound of the lab's
 * variants, host_finish's. */
static long double bound(const struct job *j, int row)
{
    int v = row < DOT_VARIANTS ? row : DOT_HOST_FINISH;
    return dot_error_bound(dot_rounding_depth(v, j->n), dot_facts[v].acc_bytes, j->n, j->exact,
                           j->abs_sum);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    float got;
    int status = job_result(j, row, &got);
    if (status != LAB_OK)
        return status;
    if (fabsl(got - j->exact) <= bound(j, row))
        return LAB_OK;
    snprintf(why, why_size, "%.9g, want %.9Lg within %.3Lg", got, j->exact, bound(j, row));
    return LAB_WRONG;
}

/* Two floats read per element. */
static double bytes(void *p, int row)
{
    (void)row;
    return 2.0 * sizeof(float) * ((struct job *)p)->n;
}

const struct lab_job dot_job = {
    .setup = setup, .teardown = job_free, .launch = launch, .check = check, .bytes = bytes};
