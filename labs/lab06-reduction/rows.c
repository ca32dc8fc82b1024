/* lab06's bench rows: the variants of reduction.h, each at the block size bench tunes, then
 * CUB and the CPU loop, each checked against the exact sum (minmax: the exact min and max). */
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - REDUCE_VARIANTS] = {
    {"cub_device_reduce", LAB_ROW_LIBRARY, "cub::DeviceReduce::Sum, NVIDIA's tuned reduction"},
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core"},
};

struct job {
    size_t n;
    unsigned threads;
    int *host;
    long long want;
    int want_min, want_max;
    struct gpu_buf in, scratch, out, cub_temp;
    size_t cub_temp_bytes;
};

/* Small values (-8..8): no partial sum comes near the int range, whatever the order. One -9
 * and one 9 at random places, so that minmax's answer is one element each, not one of
 * millions equal to it. */
static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t scratch = 0;
    if (!j)
        return NULL;
    j->n = s.n;
    j->threads = REDUCE_THREADS;
    j->host = gpu_host_alloc(s.n * sizeof(int));
    rng_ints(&r, j->host, s.n, -8, 8);
    j->host[rng_next(&r) % s.n] = -9;
    j->host[rng_next(&r) % s.n] = 9;
    j->want = reduce_sum_cpu(j->host, s.n);
    reduce_extrema_cpu(j->host, s.n, &j->want_min, &j->want_max);
    j->in = gpu_alloc(s.n * sizeof(int));
    gpu_upload(j->in, j->host, s.n * sizeof(int));
    for (int v = 0; v < REDUCE_VARIANTS; v++)
        for (unsigned t = 1; t <= 1024; t *= 2) {
            size_t bytes = reduce_scratch_bytes(v, s.n, t);
            scratch = bytes > scratch ? bytes : scratch;
        }
    j->scratch = gpu_alloc(scratch);
    j->out = gpu_alloc(2 * sizeof(int)); /* minmax's min and max */
#ifdef BACKEND_CUDA
    if (reduce_cub(j->in, s.n, j->cub_temp, &j->cub_temp_bytes, j->out) == LAB_OK)
        j->cub_temp = gpu_alloc(j->cub_temp_bytes);
#endif
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->in);
    gpu_free(&j->scratch);
    gpu_free(&j->out);
    gpu_free(&j->cub_temp);
    gpu_host_free(j->host);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        volatile long long sum = reduce_sum_cpu(j->host, j->n); /* kept, so not optimised away */
        (void)sum;
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row == CUB)
        return reduce_cub(j->in, j->n, j->cub_temp, &j->cub_temp_bytes, j->out);
#endif
    if (row < REDUCE_VARIANTS && reduce_facts[row].op == OP_MINMAX)
        return reduce_extrema((enum reduce_variant)row, j->in, j->n, j->threads, j->scratch,
                              j->out);
    return reduce_sum((enum reduce_variant)row, j->in, j->n, j->threads, j->scratch, j->out);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    int got[2], status;
    gpu_poison(j->out);
    gpu_poison(j->scratch);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(got, j->out, sizeof got);
    if (row < REDUCE_VARIANTS && reduce_facts[row].op == OP_MINMAX) {
        if (got[0] == j->want_min && got[1] == j->want_max)
            return LAB_OK;
        snprintf(why, why_size, "min %d and max %d instead of %d and %d (%u threads)", got[0],
                 got[1], j->want_min, j->want_max, j->threads);
        return LAB_WRONG;
    }
    if (got[0] == (int)j->want)
        return LAB_OK;
    snprintf(why, why_size, "%d instead of %d (%u threads)", got[0], (int)j->want, j->threads);
    return LAB_WRONG;
}

static double bytes(void *p, int row)
{
    (void)row;
    return (double)((struct job *)p)->n * sizeof(int);
}

static int tune(void *p, int row, unsigned threads)
{
    struct job *j = p;
    if (!reduce_threads_ok((enum reduce_variant)row, threads))
        return 0;
    j->threads = threads;
    return 1;
}

const struct lab_job reduce_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .tune = tune,
};
