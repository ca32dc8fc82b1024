/* lab04's command line (common/driver.h): the variants of dot.h, then cublasSdot and the CPU
 * loop. Its own flags: --accuracy, each variant's error on growing vectors, and --cosine,
 * the similarity of six plays computed with the lab's dot product. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "rng.h"
#include "dot.h"

enum { CUBLAS = DOT_VARIANTS, CPU, ROWS };

static const struct lab_row extras[] = {
    {"cublas_sdot", LAB_ROW_LIBRARY, "cublasSdot, NVIDIA's tuned dot product"},
    {"cpu (one core)", LAB_ROW_CPU, "the reference loop in float on one CPU core"},
};

/* The handout's size on a GPU; on the CPU backend one it checks in seconds. */
#ifdef BACKEND_CPU
#define MAIN_N ((size_t)1 << 20)
#else
#define MAIN_N ((size_t)1 << 28)
#endif

static struct {
    int accuracy, cosine;
} opt;

struct job {
    size_t n;
    float *a, *b; /* pinned host memory */
    long double exact, abs_sum;
    struct gpu_buf da, db, scratch, out;
};

static size_t scratch_for(size_t n)
{
    size_t most = 1;
    for (int v = 0; v < DOT_VARIANTS; v++) {
        size_t bytes = dot_scratch_bytes(v, n);
        most = bytes > most ? bytes : most;
    }
    return most;
}

/* a and b uniform in [lo, 1): lo = 0 gives a sum that only grows, lo = -1 one that cancels. */
static void *job_new(size_t n, uint64_t seed, float lo)
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
    j->scratch = gpu_alloc(scratch_for(n));
    j->out = gpu_alloc(sizeof(float));
    return j;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    return job_new(s.n, seed, -1.0f);
}

static void teardown(void *p)
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

/* The row's result on the device, poisoned before. */
static int result(struct job *j, int row, float *got)
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
    int status = result(j, row, &got);
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

static const char *row_name(int row)
{
    return row < DOT_VARIANTS ? dot_variants[row].name : extras[row - DOT_VARIANTS].name;
}

/* --accuracy: |computed - exact| / |exact| of every row, at n = 2^12, 2^16, ... up to the
 * main size, on sums that grow and sums that cancel. */
static void accuracy(void)
{
    static const char *const kinds[] = {"positive: a, b uniform in [0, 1)",
                                        "cancelling: a, b uniform in [-1, 1)"};
    for (int k = 0; k < 2; k++) {
        printf("relative error, %s\n%-16s", kinds[k], "n");
        for (size_t n = 1u << 12; n <= MAIN_N; n *= 16)
            printf(" %9s2^%-2d", "", (int)log2((double)n));
        printf("\n");
        for (int row = 0; row < ROWS; row++) {
#ifndef BACKEND_CUDA
            if (row == CUBLAS)
                continue;
#endif
            printf("%-16s", row_name(row));
            for (size_t n = 1u << 12; n <= MAIN_N; n *= 16) {
                struct job *j = job_new(n, 4 + k, k ? -1.0f : 0.0f);
                float got = 0.0f;
                if (row == CPU)
                    got = dot_cpu(j->a, j->b, n);
                if (row == CPU || result(j, row, &got) == LAB_OK)
                    printf(" %13.2Le", fabsl(got - j->exact) / fabsl(j->exact));
                else
                    printf(" %13s", "failed");
                teardown(j);
            }
            printf("\n");
        }
        printf("\n");
    }
}

/* --accuracy, last: ten runs of each variant on the same vectors, and how many different
 * results they gave: one for a fixed order, more for atomic_add on a GPU, where the blocks
 * reach the atomic in a different order each run. */
static void run_to_run(void)
{
    struct job *j = job_new(MAIN_N, 6, -1.0f);
    printf("ten runs on the same %zu cancelling elements: different results\n", j->n);
    for (int v = 0; v < DOT_VARIANTS; v++) {
        float got[10];
        int distinct = 0;
        for (int k = 0; k < 10; k++) {
            int seen = 0;
            if (result(j, v, &got[k]) != LAB_OK) {
                printf("%-16s failed\n", dot_variants[v].name);
                break;
            }
            for (int m = 0; m < k; m++)
                seen |= !memcmp(&got[m], &got[k], sizeof got[k]);
            distinct += !seen;
            if (k == 9)
                printf("%-16s %d (first %.9g)\n", dot_variants[v].name, distinct, got[0]);
        }
    }
    printf("\n");
    teardown(j);
}

/* The word counts of six plays for seven words, from the course's lecture notes (seed 002):
 * a play is a vector of 7 counts, and two plays are alike when their vectors point the same
 * way, whatever their lengths: cos = a . b / (|a| |b|). */
enum { PLAYS = 6, WORDS = 7 };
static const char *const plays[PLAYS] = {
    "Antony & Cleopatra", "Julius Caesar", "The Tempest", "Hamlet", "Othello", "Macbeth"};
static const float counts[PLAYS][WORDS] = {
    /* ANTONY BRUTUS CAESAR CALPURNIA CLEOPATRA MERCY WORSER */
    {157, 4, 232, 0, 57, 2, 2}, {73, 157, 227, 10, 0, 0, 0}, {0, 0, 0, 0, 0, 3, 1},
    {0, 2, 2, 0, 0, 8, 1},      {0, 0, 1, 0, 0, 5, 1},       {1, 0, 0, 0, 0, 8, 5},
};

/* --cosine: every pair's a . b by shuffle_vec4, on the device. */
static void cosine(void)
{
    struct gpu_buf d[PLAYS], scratch = gpu_alloc(scratch_for(WORDS)), out = gpu_alloc(4);
    float dots[PLAYS][PLAYS];
    double worst = 0.0;
    for (int p = 0; p < PLAYS; p++) {
        d[p] = gpu_alloc(sizeof counts[p]);
        gpu_upload(d[p], counts[p], sizeof counts[p]);
    }
    for (int p = 0; p < PLAYS; p++)
        for (int q = 0; q < PLAYS; q++) {
            if (dot(DOT_SHUFFLE_VEC4, d[p], d[q], WORDS, scratch, out) != LAB_OK) {
                fprintf(stderr, "lab04: --cosine: shuffle_vec4 failed\n");
                exit(1);
            }
            gpu_download(&dots[p][q], out, sizeof(float));
        }
    printf("cosine similarity of the plays (word counts of seven words; shuffle_vec4)\n%-19s", "");
    for (int q = 0; q < PLAYS; q++)
        printf(" %8.8s", plays[q]);
    printf("\n");
    for (int p = 0; p < PLAYS; p++) {
        printf("%-19s", plays[p]);
        for (int q = 0; q < PLAYS; q++) {
            double s = dots[p][q] / sqrt((double)dots[p][p] * dots[q][q]);
            double want = (double)dot_exact(counts[p], counts[q], WORDS) /
                          sqrt((double)dot_exact(counts[p], counts[p], WORDS) *
                               (double)dot_exact(counts[q], counts[q], WORDS));
            worst = fabs(s - want) > worst ? fabs(s - want) : worst;
            printf(" %8.3f", s);
        }
        printf("\n");
    }
    printf("largest difference from the same matrix computed exactly: %.1e\n\n", worst);
    for (int p = 0; p < PLAYS; p++)
        gpu_free(&d[p]);
    gpu_free(&scratch);
    gpu_free(&out);
}

static void intro(void)
{
    if (opt.cosine)
        cosine();
    if (opt.accuracy) {
        accuracy();
        run_to_run();
    }
}

static int option(struct cli *c, const char *name, const char *value)
{
    (void)c;
    (void)value;
    if (!strcmp(name, "--accuracy"))
        opt.accuracy = 1;
    else if (!strcmp(name, "--cosine"))
        opt.cosine = 1;
    else
        return 0;
    return CLI_FLAG;
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab04",
        .dims = 1,
        .size = {.n = 1u << 28},     /* 2 GiB read: far beyond any L2 */
        .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = 0xffffffffu,
        .elem_bytes = 2 * sizeof(float), /* the copy ceiling copies as many bytes as a and b */
        .usage = "  --accuracy     run: each row's relative error, n = 2^12 ... the main size,\n"
                 "                 on positive and on cancelling data\n"
                 "  --cosine       run: the cosine similarity of six plays by their word "
                 "counts\n",
        .option = option,
        .intro = intro,
        .variants = dot_variants,
        .nvariants = DOT_VARIANTS,
        .extras = extras,
        .nextras = sizeof extras / sizeof extras[0],
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .bytes = bytes,
    };
    return lab_main(&lab, argc, argv);
}
