/* lab05's bench rows: each variant of histogram.h on each input, then CUB and the CPU loop on
 * each, every one checked bin by bin against the CPU's counts of its input. */
#include <stdio.h>
#include <stdlib.h>
#include "host.h"

enum { NAME_SIZE = 40 };

struct lab_variant variant_rows[VARIANT_ROWS];
struct lab_row extra_rows[ROWS - VARIANT_ROWS];
static char names[ROWS][NAME_SIZE];

void name_rows(void)
{
    for (int r = 0; r < VARIANT_ROWS; r++) {
        snprintf(names[r], NAME_SIZE, "%s/%s", hist_variants[r / HIST_DATA].name,
                 hist_data_names[r % HIST_DATA]);
        variant_rows[r] = (struct lab_variant){names[r], hist_variants[r / HIST_DATA].teaches};
    }
    for (int d = 0; d < HIST_DATA; d++) {
        snprintf(names[CUB + d], NAME_SIZE, "cub_histogram_even/%s", hist_data_names[d]);
        snprintf(names[CPU + d], NAME_SIZE, "cpu (one core)/%s", hist_data_names[d]);
        extra_rows[d] = (struct lab_row){names[CUB + d], LAB_ROW_LIBRARY,
                                         "cub::DeviceHistogram::HistogramEven, NVIDIA's tuned one"};
        extra_rows[HIST_DATA + d] =
            (struct lab_row){names[CPU + d], LAB_ROW_CPU, "the reference loop on one CPU core"};
    }
}

static int input_of(int row)
{
    return row < VARIANT_ROWS ? row % HIST_DATA : (row - VARIANT_ROWS) % HIST_DATA;
}

struct job {
    size_t n;
    unsigned char *host[HIST_DATA]; /* pinned */
    unsigned want[HIST_DATA][HIST_BINS];
    struct gpu_buf in[HIST_DATA], out, cub_temp;
    size_t cub_temp_bytes;
};

/* The counts the rows are checked against, in four tables: an increment need not wait for
 * the one before when they name the same bin (histogram_cpu, timed by the CPU rows, took 3 s
 * on a gigabyte of `same` bytes, this 0.4 s). */
static void count_fast(const unsigned char *x, size_t n, unsigned *counts)
{
    unsigned t[4][HIST_BINS] = {{0}};
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        t[0][x[i]]++;
        t[1][x[i + 1]]++;
        t[2][x[i + 2]]++;
        t[3][x[i + 3]]++;
    }
    for (; i < n; i++)
        t[0][x[i]]++;
    for (int b = 0; b < HIST_BINS; b++)
        counts[b] = t[0][b] + t[1][b] + t[2][b] + t[3][b];
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->n = s.n;
    for (int d = 0; d < HIST_DATA; d++) {
        j->host[d] = gpu_host_alloc(s.n);
        histogram_fill((enum hist_data)d, j->host[d], s.n, seed);
        count_fast(j->host[d], s.n, j->want[d]);
        j->in[d] = gpu_alloc(s.n);
        gpu_upload(j->in[d], j->host[d], s.n);
    }
    j->out = gpu_alloc(HIST_BINS * sizeof(unsigned));
#ifdef BACKEND_CUDA
    if (histogram_cub(j->in[0], s.n, j->cub_temp, &j->cub_temp_bytes, j->out) == LAB_OK)
        j->cub_temp = gpu_alloc(j->cub_temp_bytes);
#endif
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    for (int d = 0; d < HIST_DATA; d++) {
        gpu_free(&j->in[d]);
        gpu_host_free(j->host[d]);
    }
    gpu_free(&j->out);
    gpu_free(&j->cub_temp);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    int d = input_of(row);
    if (row >= CPU) {
        unsigned counts[HIST_BINS];
        histogram_cpu(j->host[d], j->n, counts);
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row >= CUB)
        return histogram_cub(j->in[d], j->n, j->cub_temp, &j->cub_temp_bytes, j->out);
#endif
    return histogram((enum hist_variant)(row / HIST_DATA), j->in[d], j->n, j->out);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    unsigned got[HIST_BINS];
    const unsigned *want = j->want[input_of(row)];
    size_t bad;
    int status;
    gpu_poison(j->out);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(got, j->out, sizeof got);
    if ((bad = lab_first_diff(got, want, HIST_BINS, sizeof(unsigned))) == HIST_BINS)
        return LAB_OK;
    snprintf(why, why_size, "bin %zu: %u, want %u", bad, got[bad], want[bad]);
    return LAB_WRONG;
}

/* Each byte read once, the 256 counts written once. */
static double bytes(void *p, int row)
{
    (void)row;
    return (double)((struct job *)p)->n + HIST_BINS * sizeof(unsigned);
}

const struct lab_job histogram_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
