/* lab06's command line (common/driver.h): the variants of reduction.h, each benched at every
 * block size it takes, then CUB and the CPU loop; after the bench, Harris's table for this
 * GPU (time, GB/s, step and cumulative speedup, % of peak). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "driver.h"
#include "rng.h"
#include "reduction.h"

enum { CUB = REDUCE_VARIANTS, CPU };

static const struct lab_row extras[] = {
    {"cub_device_reduce", LAB_ROW_LIBRARY, "cub::DeviceReduce::Sum, NVIDIA's tuned reduction"},
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop on one CPU core"},
};

/* The block sizes bench tries; each variant's fastest makes its row and its sweep. */
static const unsigned block_sizes[] = {64, 128, 256, 512, 1024};

struct job {
    size_t n;
    unsigned threads;
    int *host;
    long long want;
    struct gpu_buf in, scratch, out, cub_temp;
    size_t cub_temp_bytes;
};

/* Small values (-8..8): no partial sum comes near the int range, whatever the order. */
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
    j->want = reduce_sum_cpu(j->host, s.n);
    j->in = gpu_alloc(s.n * sizeof(int));
    gpu_upload(j->in, j->host, s.n * sizeof(int));
    for (int v = 0; v < REDUCE_VARIANTS; v++)
        for (unsigned t = 1; t <= 1024; t *= 2) {
            size_t bytes = reduce_scratch_bytes(v, s.n, t);
            scratch = bytes > scratch ? bytes : scratch;
        }
    j->scratch = gpu_alloc(scratch);
    j->out = gpu_alloc(sizeof(int));
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
    return reduce_sum((enum reduce_variant)row, j->in, j->n, j->threads, j->scratch, j->out);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    int got, status;
    gpu_poison(j->out);
    gpu_poison(j->scratch);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(&got, j->out, sizeof got);
    if (got == (int)j->want)
        return LAB_OK;
    snprintf(why, why_size, "%d instead of %d (%u threads)", got, (int)j->want, j->threads);
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

static void table_row(const struct bench *b, const char *name, const char *threads, double ms,
                      double first_ms, double previous_ms, size_t n)
{
    double rate = gbs((double)n * sizeof(int), ms);
    char step[16] = "", cumulative[16] = "";
    if (previous_ms > 0)
        snprintf(step, sizeof step, "%.2fx", previous_ms / ms);
    if (first_ms > 0)
        snprintf(cumulative, sizeof cumulative, "%.2fx", first_ms / ms);
    printf("%-26s %7s %10.4f %9.1f %8s %8s %7.1f\n", name, threads, ms, rate, step, cumulative,
           100.0 * rate / b->gpu.peak_gbs);
}

/* Harris's table for this GPU: the ten steps (each at its best block size), the baselines,
 * CUB and the CPU, with each step's speedup over the last and over the first. */
static void harris_table(const struct bench *b, struct lab_size s, const double *ms,
                         const unsigned *threads)
{
    printf("\nHarris's table on %s: %zu ints (%.1f MB), each kernel at its best block size\n",
           b->gpu.name, s.n, s.n * sizeof(int) / 1e6);
    printf("%-26s %7s %10s %9s %8s %8s %7s\n", "kernel", "threads", "time ms", "GB/s", "step",
           "cumul.", "% peak");
    for (int r = 0; r <= CPU; r++) {
        int step = r < REDUCE_VARIANTS && !reduce_facts[r].atomic;
        char name[40], t[16] = "";
        const char *row = r < REDUCE_VARIANTS ? reduce_variants[r].name : extras[r - CUB].name;
        if (ms[r] <= 0)
            continue;
        if (step)
            snprintf(name, sizeof name, "%d %s", r + 1, row);
        else
            snprintf(name, sizeof name, "  %s", row);
        if (threads[r])
            snprintf(t, sizeof t, "%u", threads[r]);
        table_row(b, name, t, ms[r], ms[0], step && r > 0 ? ms[r - 1] : 0, s.n);
    }
    printf("%-26s %7s %10s %9.1f %8s %8s %7.1f\n", "  cudaMemcpy D2D (ceiling)", "", "",
           b->copy_gbs, "", "", 100.0 * b->copy_gbs / b->gpu.peak_gbs);
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab06",
        .dims = 1,
        .size = {.n = 1u << 28},     /* 1.07 GB of ints: far beyond any L2 */
        .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = INT_MAX,
        .elem_bytes = sizeof(int),
        .variants = reduce_variants,
        .nvariants = REDUCE_VARIANTS,
        .extras = extras,
        .nextras = sizeof extras / sizeof extras[0],
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .bytes = bytes,
        .tunings = block_sizes,
        .ntunings = sizeof block_sizes / sizeof block_sizes[0],
        .tuning = "threads",
        .tune = tune,
        .report = harris_table,
    };
    return lab_main(&lab, argc, argv);
}
