/* lab06 command line: `lab06 run` checks every variant against the CPU sum,
 * `lab06 bench` times them next to CUB and the copy ceiling, prints Harris's table
 * (time, GB/s, step and cumulative speedup, % of peak) and writes the TSV for the plots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"
#include "lab.h"
#include "reduction.h"

struct job {
    enum reduce_variant v;
    struct gpu_buf in, scratch, out, cub_temp;
    size_t cub_temp_bytes;
    int *host;
    size_t n;
    unsigned threads;
};

/* The block sizes bench tries for each variant at the main size; the table keeps the best,
 * and the size sweep runs each variant at its best. */
static const unsigned bench_threads[] = {64, 128, 256, 512, 1024};
enum { BENCH_THREADS = sizeof bench_threads / sizeof bench_threads[0] };

static int run_kernel(void *p)
{
    struct job *j = p;
    return reduce_sum(j->v, j->in, j->n, j->threads, j->scratch, j->out);
}

static int run_cpu(void *p)
{
    struct job *j = p;
    volatile long long sum = reduce_sum_cpu(j->host, j->n); /* kept, so not optimised away */
    (void)sum;
    return LAB_OK;
}

#ifdef BACKEND_CUDA
static int run_cub(void *p)
{
    struct job *j = p;
    return reduce_cub(j->in, j->n, j->cub_temp, &j->cub_temp_bytes, j->out);
}
#endif

/* Small values (-8..8): no partial sum comes near the int range, whatever the order. */
static void fill(int *x, size_t n)
{
    unsigned long long s = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x[i] = (int)(s % 17) - 8;
    }
}

static struct job job_new(size_t n)
{
    struct job j = {0};
    size_t scratch = 0;
    j.n = n;
    j.host = gpu_host_alloc(n * sizeof(int));
    fill(j.host, n);
    j.in = gpu_alloc(n * sizeof(int));
    gpu_upload(j.in, j.host, n * sizeof(int));
    for (int v = 0; v < REDUCE_VARIANTS; v++)
        for (int t = 0; t < BENCH_THREADS; t++) {
            size_t bytes = reduce_scratch_bytes(v, n, bench_threads[t]);
            scratch = bytes > scratch ? bytes : scratch;
        }
    j.scratch = gpu_alloc(scratch);
    j.out = gpu_alloc(sizeof(int));
#ifdef BACKEND_CUDA
    if (reduce_cub(j.in, n, j.cub_temp, &j.cub_temp_bytes, j.out) == LAB_OK)
        j.cub_temp = gpu_alloc(j.cub_temp_bytes);
#endif
    return j;
}

static void job_free(struct job *j)
{
    gpu_free(&j->in);
    gpu_free(&j->scratch);
    gpu_free(&j->out);
    if (j->cub_temp.ptr)
        gpu_free(&j->cub_temp);
    gpu_host_free(j->host);
}

static int run(const struct cli *c)
{
    struct job j;
    int want, failures = 0;
    if (c->n == 0) {
        fprintf(stderr, "lab06: bad value for --n: '0' (a sum needs at least one element)\n");
        return 2;
    }
    j = job_new(c->n);
    j.threads = REDUCE_THREADS;
    want = (int)reduce_sum_cpu(j.host, c->n);
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        int got = 0, status;
        if (cli_variant(c) >= 0 && cli_variant(c) != v)
            continue;
        gpu_poison(j.out);
        gpu_poison(j.scratch);
        j.v = v;
        if ((status = run_kernel(&j)) == LAB_OK)
            gpu_download(&got, j.out, sizeof got);
        if (status != LAB_OK)
            printf("%-22s n = %zu: %s\n", reduce_names[v], c->n, lab_strerror(status));
        else if (got != want)
            printf("%-22s n = %zu: WRONG, %d instead of %d\n", reduce_names[v], c->n, got, want);
        else
            printf("%-22s n = %zu: ok (%d)\n", reduce_names[v], c->n, got);
        failures += status != LAB_OK || got != want;
    }
    job_free(&j);
    return failures ? 1 : 0;
}

/* Harris's G80 figures (8800 GTX, 2^22 ints, 86.4 GB/s peak), from his 2007 talk. */
static const double g80_gbs[] = {2.083, 4.854, 9.741, 17.377, 31.289, 43.996, 62.671};

/* The table of the talk, for this GPU: the ten steps, then the baselines and CUB. */
static void harris_table(const struct bench *b, size_t n, const double ms[REDUCE_VARIANTS],
                         const unsigned threads[REDUCE_VARIANTS], double cub_ms, double cpu_ms)
{
    double bytes = (double)n * sizeof(int);
    printf("\nHarris's table on %s: %zu ints (%.1f MB), each kernel at its best block size\n",
           b->gpu.name, n, bytes / 1e6);
    printf("%-26s %7s %10s %9s %8s %8s %7s %9s\n", "kernel", "threads", "time ms", "GB/s", "step",
           "cumul.", "% peak", "G80 GB/s");
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        int step = v <= REDUCE_SINGLE_PASS;
        char name[40], g80[16] = "", sp[16] = "", cum[16] = "";
        if (ms[v] <= 0)
            continue;
        if (step)
            snprintf(name, sizeof name, "%d %s", v + 1, reduce_names[v]);
        else
            snprintf(name, sizeof name, "  %s", reduce_names[v]);
        if (v < (int)(sizeof g80_gbs / sizeof g80_gbs[0]))
            snprintf(g80, sizeof g80, "%.1f", g80_gbs[v]);
        if (step && v > 0 && ms[v - 1] > 0)
            snprintf(sp, sizeof sp, "%.2fx", ms[v - 1] / ms[v]);
        if (ms[0] > 0)
            snprintf(cum, sizeof cum, "%.2fx", ms[0] / ms[v]);
        printf("%-26s %7u %10.4f %9.1f %8s %8s %7.1f %9s\n", name, threads[v], ms[v],
               gbs(bytes, ms[v]), sp, cum, 100.0 * gbs(bytes, ms[v]) / b->gpu.peak_gbs, g80);
    }
    if (cub_ms > 0 && ms[0] > 0)
        printf("%-26s %7s %10.4f %9.1f %8s %7.2fx %7.1f\n", "  CUB DeviceReduce::Sum", "", cub_ms,
               gbs(bytes, cub_ms), "", ms[0] / cub_ms, 100.0 * gbs(bytes, cub_ms) / b->gpu.peak_gbs);
    else if (cub_ms > 0)
        printf("%-26s %7s %10.4f %9.1f %8s %8s %7.1f\n", "  CUB DeviceReduce::Sum", "", cub_ms,
               gbs(bytes, cub_ms), "", "", 100.0 * gbs(bytes, cub_ms) / b->gpu.peak_gbs);
    if (cpu_ms > 0)
        printf("%-26s %7s %10.4f %9.1f %8s %8s %7.1f\n", "  CPU, one core", "", cpu_ms,
               gbs(bytes, cpu_ms), "", "", 100.0 * gbs(bytes, cpu_ms) / b->gpu.peak_gbs);
    printf("%-26s %7s %10s %9.1f %8s %8s %7.1f\n", "  cudaMemcpy D2D (ceiling)", "", "",
           b->copy_gbs, "", "", 100.0 * b->copy_gbs / b->gpu.peak_gbs);
}

/* Times variant v at every block size of bench_threads that it accepts (series
 * "threads"), keeps the fastest in best/ms and reports it as a row of `series`. */
static void bench_best(struct bench *b, struct job *j, const struct cli *c, const char *series,
                       unsigned *best, double *ms)
{
    struct timing t, fastest = {0};
    double bytes = (double)j->n * sizeof(int);
    for (int k = 0; k < BENCH_THREADS; k++) {
        char name[48];
        if (!reduce_threads_ok(j->v, bench_threads[k]))
            continue;
        j->threads = bench_threads[k];
        if (time_gpu(run_kernel, j, c->reps, &t) != LAB_OK)
            continue;
        snprintf(name, sizeof name, "%s/%u", reduce_names[j->v], bench_threads[k]);
        bench_row(b, "threads", name, j->n, bytes, &t);
        if (!*best || t.median_ms < fastest.median_ms) {
            *best = bench_threads[k];
            fastest = t;
        }
    }
    if (*best) {
        bench_row(b, series, reduce_names[j->v], j->n, bytes, &fastest);
        *ms = fastest.median_ms;
    }
}

/* One size: every variant (at the main size each block size, in the sweep the best one
 * found at the main size), then CUB and, at the main size, the CPU. */
static void bench_size(struct bench *b, const struct cli *c, const char *series, size_t n,
                       unsigned best[REDUCE_VARIANTS])
{
    struct job j = job_new(n);
    struct timing t;
    double bytes = (double)n * sizeof(int), ms[REDUCE_VARIANTS] = {0}, cub_ms = 0, cpu_ms = 0;
    int main_series = !strcmp(series, "main");
    for (int v = 0; v < REDUCE_VARIANTS; v++) {
        if (cli_variant(c) >= 0 && cli_variant(c) != v)
            continue;
        j.v = v;
        if (main_series) {
            bench_best(b, &j, c, series, &best[v], &ms[v]);
        } else if (best[v]) {
            j.threads = best[v];
            if (time_gpu(run_kernel, &j, c->reps, &t) == LAB_OK)
                bench_row(b, series, reduce_names[v], n, bytes, &t);
        }
    }
    if (cli_variant(c) < 0) {
#ifdef BACKEND_CUDA
        if (j.cub_temp.ptr && time_gpu(run_cub, &j, c->reps, &t) == LAB_OK) {
            bench_row(b, series, "cub_device_reduce", n, bytes, &t);
            cub_ms = t.median_ms;
        }
#endif
        if (main_series && time_cpu(run_cpu, &j, c->reps < 5 ? c->reps : 5, &t) == LAB_OK) {
            bench_row(b, series, "cpu (one core)", n, bytes, &t);
            cpu_ms = t.median_ms;
        }
    }
    if (main_series)
        harris_table(b, n, ms, best, cub_ms, cpu_ms);
    job_free(&j);
}

static int bench(const struct cli *c)
{
    struct bench b;
    unsigned best[REDUCE_VARIANTS] = {0};
    if (c->n == 0) {
        fprintf(stderr, "lab06: bad value for --n: '0' (a sum needs at least one element)\n");
        return 2;
    }
    if (bench_open(&b, "lab06", c->tsv, c->n * sizeof(int), c->reps) != LAB_OK)
        return 1;
    bench_size(&b, c, "main", c->n, best);
    if (c->sweep)
        printf("\nsize sweep, each variant at its best block size above\n");
    for (size_t n = 1u << 10; c->sweep && n <= c->n; n *= 4)
        bench_size(&b, c, "sweep", n, best);
    bench_close(&b);
    printf("\nrows written to %s\n", c->tsv);
    return 0;
}
int main(int argc, char **argv)
{
    struct cli c = {.prog = "lab06", .variants = reduce_names, .n = 1u << 28, .reps = 20,
                    .tsv = "plots/data/lab06.tsv"};
    cli_parse(&c, argc, argv);
    return !strcmp(c.command, "run") ? run(&c) : bench(&c);
}
