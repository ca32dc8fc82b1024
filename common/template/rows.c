/* lab{{NN}}'s bench rows: the variants of {{id}}.h, then the CPU loop, each checked against
 * the CPU reference. */
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - {{ID}}_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core"},
};

struct job {
    size_t n;
    float *in, *out, *want; /* pinned host memory */
    struct gpu_buf din, dout;
};

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t bytes = s.n * sizeof(float);
    if (!j)
        return NULL;
    j->n = s.n;
    j->in = gpu_host_alloc(bytes);
    j->out = gpu_host_alloc(bytes);
    j->want = gpu_host_alloc(bytes);
    rng_floats(&r, j->in, s.n, -1.0f, 1.0f);
    {{id}}_cpu(j->in, j->want, s.n);
    j->din = gpu_alloc(bytes);
    j->dout = gpu_alloc(bytes);
    gpu_upload(j->din, j->in, bytes);
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->din);
    gpu_free(&j->dout);
    gpu_host_free(j->in);
    gpu_host_free(j->out);
    gpu_host_free(j->want);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        {{id}}_cpu(j->in, j->out, j->n);
        return LAB_OK;
    }
    return {{id}}((enum {{id}}_variant)row, j->din, j->dout, j->n);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t bad;
    int status;
    gpu_poison(j->dout);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->out, j->dout, j->n * sizeof(float));
    if ((bad = lab_first_diff(j->out, j->want, j->n, sizeof(float))) == j->n)
        return LAB_OK;
    snprintf(why, why_size, "out[%zu] = %g, want %g", bad, j->out[bad], j->want[bad]);
    return LAB_WRONG;
}

/* One float read and one written per element. */
static double bytes(void *p, int row)
{
    (void)row;
    return 2.0 * sizeof(float) * ((struct job *)p)->n;
}

const struct lab_job {{id}}_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
