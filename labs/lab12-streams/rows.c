/* lab12's bench rows: the variants of streams.h, each given the host memory its facts name,
 * then the copy in, the kernel and the copy out alone; each checked against the CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - STREAMS_VARIANTS] = {
    {"h2d_alone", LAB_ROW_EXTRA, "the whole buffer copied in, pinned, alone"},
    {"kernel_alone", LAB_ROW_EXTRA, "the kernel on the whole buffer, alone"},
    {"d2h_alone", LAB_ROW_EXTRA, "the whole buffer copied out, pinned, alone"},
    {"both_ways", LAB_ROW_EXTRA, "the copy in and the copy out at once, in two streams"},
};

struct job {
    size_t n;
    struct streams_plan plan;
    float *in[2], *out[2], *want; /* [STREAMS_PAGEABLE]: malloc'd; [STREAMS_PINNED]: pinned */
    struct gpu_buf din, dout;
};

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t bytes = s.n * sizeof(float);
    if (!j)
        return NULL;
    j->n = s.n, j->plan = opt_plan;
    if (j->plan.chunks > s.n)
        j->plan.chunks = (unsigned)s.n;
    j->in[STREAMS_PAGEABLE] = malloc(bytes);
    j->out[STREAMS_PAGEABLE] = malloc(bytes);
    j->want = malloc(bytes);
    if (!j->in[STREAMS_PAGEABLE] || !j->out[STREAMS_PAGEABLE] || !j->want) {
        free(j->in[STREAMS_PAGEABLE]), free(j->out[STREAMS_PAGEABLE]), free(j->want), free(j);
        return NULL;
    }
    j->in[STREAMS_PINNED] = gpu_host_alloc(bytes);
    j->out[STREAMS_PINNED] = gpu_host_alloc(bytes);
    rng_floats(&r, j->in[STREAMS_PINNED], s.n, -1.0f, 1.0f);
    memcpy(j->in[STREAMS_PAGEABLE], j->in[STREAMS_PINNED], bytes);
    /* The answer on every core: 2^26 elements of 512 FMAs are seconds even so. */
#pragma omp parallel for schedule(static)
    for (size_t at = 0; at < s.n; at += 1 << 16)
        streams_cpu(j->in[STREAMS_PINNED] + at, j->want + at,
                    s.n - at < 1 << 16 ? s.n - at : 1 << 16, j->plan.fmas);
    j->din = gpu_alloc(bytes);
    j->dout = gpu_alloc(bytes);
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->din);
    gpu_free(&j->dout);
    free(j->in[STREAMS_PAGEABLE]);
    free(j->out[STREAMS_PAGEABLE]);
    gpu_host_free(j->in[STREAMS_PINNED]);
    gpu_host_free(j->out[STREAMS_PINNED]);
    free(j->want);
    free(j);
}

/* Synchronous, every row: the data ends in host memory (or, alone, where the part puts it). */
static int launch(void *p, int row)
{
    struct job *j = p;
    if (row >= STREAMS_VARIANTS)
        return streams_part((unsigned)(row - H2D_ALONE), j->out[STREAMS_PINNED],
                            j->in[STREAMS_PINNED], j->n, j->din, j->dout, j->plan.fmas);
    enum streams_memory m = streams_facts[row].memory;
    return streams_pipeline((enum streams_variant)row, j->out[m], j->in[m], j->n, j->din, j->dout,
                            j->plan, NULL);
}

/* Where a row leaves its result, read back into host memory: the copy in leaves in in d_in,
 * the kernel alone its results in d_out (from d_in, which setup leaves unfilled: the copy in
 * first), the rest their results in out (both_ways: the kernel's, copied in and run first). */
static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    float *got = j->out[row < STREAMS_VARIANTS ? streams_facts[row].memory : STREAMS_PINNED];
    const float *want = row == H2D_ALONE ? j->in[STREAMS_PINNED] : j->want;
    size_t bad;
    int status = LAB_OK;
    memset(got, 0xff, j->n * sizeof(float));
    gpu_poison(j->dout);
    if (row == KERNEL_ALONE || row == D2H_ALONE || row == BOTH_WAYS)
        status = streams_part(STREAMS_H2D, got, j->in[STREAMS_PINNED], j->n, j->din, j->dout,
                              j->plan.fmas);
    if (status == LAB_OK && (row == D2H_ALONE || row == BOTH_WAYS))
        status = streams_part(STREAMS_KERNEL, got, j->in[STREAMS_PINNED], j->n, j->din, j->dout,
                              j->plan.fmas);
    if (status == LAB_OK)
        status = launch(j, row);
    if (status != LAB_OK)
        return status;
    if (row == H2D_ALONE || row == KERNEL_ALONE)
        gpu_download(got, row == H2D_ALONE ? j->din : j->dout, j->n * sizeof(float));
    if ((bad = lab_first_diff(got, want, j->n, sizeof(float))) == j->n)
        return LAB_OK;
    snprintf(why, why_size, "out[%zu] = %.9g, want %.9g", bad, got[bad], want[bad]);
    return LAB_WRONG;
}

/* What crosses the link: n floats in and n out (a copy alone: its own n; the kernel alone
 * reads and writes device memory). */
static double bytes(void *p, int row)
{
    double n = (double)((struct job *)p)->n * sizeof(float);
    return row == H2D_ALONE || row == D2H_ALONE ? n : 2 * n;
}

const struct lab_job streams_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
