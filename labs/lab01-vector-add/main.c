/* lab01 command line: `lab01 run` checks every variant against the CPU loop,
 * `lab01 bench` times them next to the copy ceiling and writes the TSV for the plots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"
#include "lab.h"
#include "vector_add.h"

struct job {
    enum vector_add_variant v;
    struct gpu_buf a, b, c;
    const float *ha, *hb;
    float *hc;
    size_t n;
};

static int run_kernel(void *p)
{
    struct job *j = p;
    return vector_add(j->v, j->a, j->b, j->c, j->n);
}

static int run_cpu(void *p)
{
    struct job *j = p;
    vector_add_cpu(j->ha, j->hb, j->hc, j->n);
    return LAB_OK;
}

/* What a whole program pays: inputs in over PCIe, the best kernel, the result back. */
static int run_with_copies(void *p)
{
    struct job *j = p;
    int status;
    gpu_upload(j->a, j->ha, j->n * sizeof(float));
    gpu_upload(j->b, j->hb, j->n * sizeof(float));
    status = vector_add(ADD_GRID_STRIDE_FLOAT4, j->a, j->b, j->c, j->n);
    gpu_download(j->hc, j->c, j->n * sizeof(float));
    return status;
}

static void fill(float *x, size_t n, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)rand() / RAND_MAX - 0.5f;
}

static struct job job_new(size_t n)
{
    struct job j = {0};
    float *ha = gpu_host_alloc(n * sizeof(float)), *hb = gpu_host_alloc(n * sizeof(float));
    j.n = n;
    j.hc = gpu_host_alloc(n * sizeof(float));
    fill(ha, n, 1);
    fill(hb, n, 2);
    j.ha = ha;
    j.hb = hb;
    j.a = gpu_alloc(n * sizeof(float));
    j.b = gpu_alloc(n * sizeof(float));
    j.c = gpu_alloc(n * sizeof(float));
    gpu_upload(j.a, ha, n * sizeof(float));
    gpu_upload(j.b, hb, n * sizeof(float));
    return j;
}

static void job_free(struct job *j)
{
    gpu_free(&j->a);
    gpu_free(&j->b);
    gpu_free(&j->c);
    gpu_host_free((void *)j->ha);
    gpu_host_free((void *)j->hb);
    gpu_host_free(j->hc);
}

static int run(const struct cli *c)
{
    struct job j = job_new(c->n);
    float *want = malloc(c->n * sizeof(float) + 1);
    int failures = 0;
    vector_add_cpu(j.ha, j.hb, want, c->n);
    for (int v = 0; v < ADD_VARIANTS; v++) {
        size_t bad = 0;
        int status;
        if (cli_variant(c) >= 0 && cli_variant(c) != v)
            continue;
        gpu_poison(j.c);
        j.v = v;
        if ((status = run_kernel(&j)) == LAB_OK)
            gpu_download(j.hc, j.c, c->n * sizeof(float));
        for (size_t i = 0; status == LAB_OK && i < c->n; i++)
            bad += j.hc[i] != want[i];
        if (status != LAB_OK)
            printf("%-20s n = %zu: %s\n", vector_add_names[v], c->n, lab_strerror(status));
        else if (bad)
            printf("%-20s n = %zu: WRONG in %zu elements\n", vector_add_names[v], c->n, bad);
        else
            printf("%-20s n = %zu: ok\n", vector_add_names[v], c->n);
        failures += status != LAB_OK || bad;
    }
    free(want);
    job_free(&j);
    return failures ? 1 : 0;
}

static void bench_size(struct bench *b, const struct cli *c, const char *series, size_t n)
{
    struct job j = job_new(n);
    struct timing t;
    double bytes = 3.0 * n * sizeof(float);
    for (int v = 0; v < ADD_VARIANTS; v++) {
        if (cli_variant(c) >= 0 && cli_variant(c) != v)
            continue;
        j.v = v;
        if (time_gpu(run_kernel, &j, c->reps, &t) == LAB_OK)
            bench_row(b, series, vector_add_names[v], n, bytes, &t);
    }
    if (!strcmp(series, "main") && cli_variant(c) < 0) {
        if (time_cpu(run_cpu, &j, c->reps < 5 ? c->reps : 5, &t) == LAB_OK)
            bench_row(b, series, "cpu (one core)", n, bytes, &t);
        if (time_gpu(run_with_copies, &j, c->reps < 5 ? c->reps : 5, &t) == LAB_OK)
            bench_row(b, series, "float4 + PCIe copies", n, bytes, &t);
    }
    job_free(&j);
}

static int bench(const struct cli *c)
{
    struct bench b;
    if (bench_open(&b, "lab01", c->tsv, c->n * sizeof(float), c->reps) != LAB_OK)
        return 1;
    bench_size(&b, c, "main", c->n);
    for (size_t n = 1u << 10; c->sweep && n <= c->n; n *= 4)
        bench_size(&b, c, "sweep", n);
    bench_close(&b);
    printf("\nrows written to %s\n", c->tsv);
    return 0;
}

int main(int argc, char **argv)
{
    struct cli c = {.prog = "lab01", .variants = vector_add_names, .n = 1u << 28, .reps = 20,
                    .tsv = "plots/data/lab01.tsv"};
    cli_parse(&c, argc, argv);
    return !strcmp(c.command, "run") ? run(&c) : bench(&c);
}
