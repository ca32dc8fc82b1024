/* lab04's experiments, flags of `lab04 run`: --accuracy, each row's error on growing vectors
 * and the variants' run-to-run differences; --cosine, the similarity of six plays computed
 * with the lab's dot product. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

/* The handout's size on a GPU; on the CPU backend one it checks in seconds. */
#ifdef BACKEND_CPU
#define MAIN_N ((size_t)1 << 20)
#else
#define MAIN_N ((size_t)1 << 28)
#endif

/* |computed - exact| / |exact| of every row, at n = 2^12, 2^16, ... up to the main size, on
 * sums that grow and sums that cancel. */
static void relative_errors(void)
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
                if (row == CPU || job_result(j, row, &got) == LAB_OK)
                    printf(" %13.2Le", fabsl(got - j->exact) / fabsl(j->exact));
                else
                    printf(" %13s", "failed");
                job_free(j);
            }
            printf("\n");
        }
        printf("\n");
    }
}

/* Ten runs of each variant on the same vectors, and how many different results they gave:
 * one for a fixed order, more for atomic_add on a GPU, where the blocks reach the atomic in
 * a different order each run. */
static void run_to_run(void)
{
    struct job *j = job_new(MAIN_N, 6, -1.0f);
    printf("ten runs on the same %zu cancelling elements: different results\n", j->n);
    for (int v = 0; v < DOT_VARIANTS; v++) {
        float got[10];
        int distinct = 0;
        for (int k = 0; k < 10; k++) {
            int seen = 0;
            if (job_result(j, v, &got[k]) != LAB_OK) {
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
    job_free(j);
}

/* Both on data of their own: the run's size and seed do not change them. */
void accuracy(struct lab_size size, uint64_t seed)
{
    (void)size;
    (void)seed;
    relative_errors();
    run_to_run();
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

static double exact_cosine(int p, int q)
{
    return (double)dot_exact(counts[p], counts[q], WORDS) /
           sqrt((double)dot_exact(counts[p], counts[p], WORDS) *
                (double)dot_exact(counts[q], counts[q], WORDS));
}

/* Every pair's a . b by shuffle_vec4, on the device. */
void cosine(struct lab_size size, uint64_t seed)
{
    struct gpu_buf d[PLAYS], scratch = gpu_alloc(job_scratch(WORDS)), out = gpu_alloc(4);
    float dots[PLAYS][PLAYS];
    double worst = 0.0;
    (void)size;
    (void)seed;
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
            worst = fabs(s - exact_cosine(p, q)) > worst ? fabs(s - exact_cosine(p, q)) : worst;
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
