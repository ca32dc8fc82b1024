/* lab01's command line (common/driver.h): one launch timed by the host's clock and by events
 * (run), the variants of vector_add.h, then the CPU loop and the whole program, PCIe copies
 * included. */
#include <stdio.h>
#include <stdlib.h>
#include "driver.h"
#include "rng.h"
#include "host.h"
#include "vector_add.h"

enum { CPU = ADD_VARIANTS, WITH_COPIES };

static const struct lab_row extras[] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core"},
    {"float4 + PCIe copies", LAB_ROW_EXTRA,
     "what a whole program pays: the inputs in, the float4 kernel, the sum out"},
};

struct job {
    size_t n;
    float *a, *b, *c, *want; /* pinned host memory: inputs, a result, the reference */
    struct gpu_buf da, db, dc;
};

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t bytes = s.n * sizeof(float);
    if (!j)
        return NULL;
    j->n = s.n;
    j->a = gpu_host_alloc(bytes);
    j->b = gpu_host_alloc(bytes);
    j->c = gpu_host_alloc(bytes);
    j->want = gpu_host_alloc(bytes);
    rng_floats(&r, j->a, s.n, -1.0f, 1.0f);
    rng_floats(&r, j->b, s.n, -1.0f, 1.0f);
    vector_add_cpu(j->a, j->b, j->want, s.n);
    j->da = gpu_alloc(bytes);
    j->db = gpu_alloc(bytes);
    j->dc = gpu_alloc(bytes);
    gpu_upload(j->da, j->a, bytes);
    gpu_upload(j->db, j->b, bytes);
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
    gpu_host_free(j->want);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    size_t bytes = j->n * sizeof(float);
    int status;
    switch (row) {
    case CPU:
        vector_add_cpu(j->a, j->b, j->c, j->n);
        return LAB_OK;
    case WITH_COPIES:
        gpu_upload(j->da, j->a, bytes);
        gpu_upload(j->db, j->b, bytes);
        status = vector_add(ADD_GRID_STRIDE_FLOAT4, j->da, j->db, j->dc, j->n);
        gpu_download(j->c, j->dc, bytes);
        return status;
    default:
        return vector_add((enum vector_add_variant)row, j->da, j->db, j->dc, j->n);
    }
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t bad;
    int status;
    gpu_poison(j->dc);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->c, j->dc, j->n * sizeof(float));
    if ((bad = lab_first_diff(j->c, j->want, j->n, sizeof(float))) == j->n)
        return LAB_OK;
    snprintf(why, why_size, "c[%zu] = %g, want %g", bad, j->c[bad], j->want[bad]);
    return LAB_WRONG;
}

/* Two floats read and one written per element, whatever the row. */
static double bytes(void *p, int row)
{
    (void)row;
    return 3.0 * sizeof(float) * ((struct job *)p)->n;
}

static const struct lab_job vector_add_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab01",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 3 GiB moved: far beyond any L2 */
                  .cpu_size = {.n = 1u << 22}, /* checked in seconds by the CPU backend */
                  .elem_bytes = sizeof(float)},
        .rows = {vector_add_variants, ADD_VARIANTS, LAB_LIST(extras)},
        .job = &vector_add_job,
        .cli = {.intro = intro},
    };
    return lab_main(&lab, argc, argv);
}
