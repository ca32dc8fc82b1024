/* lab05's command line (common/driver.h). Contention is the lesson, so every row is a
 * variant on one input: NAME/uniform, NAME/same, NAME/image for each variant of
 * histogram.h, then CUB and the CPU loop on each. `lab05 run --race [INPUT]` first shows
 * the race that the atomics fix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "histogram.h"

enum { VARIANT_ROWS = HIST_VARIANTS * HIST_DATA, CUB = VARIANT_ROWS, CPU = CUB + HIST_DATA };
enum { NAME_SIZE = 40 };

/* Row r of the variants is variant r / HIST_DATA on input r % HIST_DATA; the extras are
 * CUB's rows, then the CPU's, an input each. */
static struct lab_variant rows[VARIANT_ROWS];
static struct lab_row extras[2 * HIST_DATA];
static char names[VARIANT_ROWS + 2 * HIST_DATA][NAME_SIZE];

static void name_rows(void)
{
    for (int r = 0; r < VARIANT_ROWS; r++) {
        snprintf(names[r], NAME_SIZE, "%s/%s", hist_variants[r / HIST_DATA].name,
                 hist_data_names[r % HIST_DATA]);
        rows[r] = (struct lab_variant){names[r], hist_variants[r / HIST_DATA].teaches};
    }
    for (int d = 0; d < HIST_DATA; d++) {
        snprintf(names[CUB + d], NAME_SIZE, "cub_histogram_even/%s", hist_data_names[d]);
        snprintf(names[CPU + d], NAME_SIZE, "cpu (one core)/%s", hist_data_names[d]);
        extras[d] = (struct lab_row){names[CUB + d], LAB_ROW_LIBRARY,
                                     "cub::DeviceHistogram::HistogramEven, NVIDIA's tuned one"};
        extras[HIST_DATA + d] =
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

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->n = s.n;
    for (int d = 0; d < HIST_DATA; d++) {
        j->host[d] = gpu_host_alloc(s.n);
        histogram_fill((enum hist_data)d, j->host[d], s.n, seed);
        histogram_cpu(j->host[d], s.n, j->want[d]);
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

/* --race [INPUT]: the race kernel on the run's size, seed and that input (default same). */
static const struct cli *race_cli;
static int race_input = HIST_SAME;

static int option(struct cli *c, const char *opt, const char *value)
{
    if (strcmp(opt, "--race"))
        return 0;
    race_cli = c;
    for (int d = 0; value && d < HIST_DATA; d++)
        if (!strcmp(value, hist_data_names[d])) {
            race_input = d;
            return 1;
        }
    return CLI_FLAG; /* no input named: the argument after --race is the next option */
}

/* What `run --race` prints before the checks: how many counts the race lost. */
static void race(void)
{
    size_t n = race_cli ? race_cli->n : 0;
    unsigned char *x;
    unsigned got[HIST_BINS];
    unsigned long long total = 0;
    struct gpu_buf in, out;
    int status;
    if (!race_cli)
        return;
    x = malloc(n ? n : 1);
    histogram_fill((enum hist_data)race_input, x, n, race_cli->seed);
    in = gpu_alloc(n ? n : 1);
    out = gpu_alloc(sizeof got);
    gpu_upload(in, x, n);
    status = histogram_race(in, n, out);
    if (status == LAB_OK) {
        gpu_download(got, out, sizeof got);
        for (int b = 0; b < HIST_BINS; b++)
            total += got[b];
        printf("race: out[x]++ without an atomic on %zu bytes (%s): %llu counted, %llu lost\n", n,
               hist_data_names[race_input], total, (unsigned long long)n - total);
#ifdef BACKEND_CPU
        printf("race: (CPU backend: threads switch only at the kernel's __syncwarp, so equal bytes "
               "collide within a block, never across blocks; RACECHECK=1 reports the race)\n");
#endif
    } else {
        printf("race: %s (under RACECHECK=1: the race checker's report above)\n",
               lab_strerror(status));
    }
    gpu_free(&in);
    gpu_free(&out);
    free(x);
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab05",
        .usage = "  --race [INPUT] run: first count with the race kernel, out[x]++ without an\n"
                 "                 atomic, on uniform, same (the default) or image bytes\n",
        .option = option,
        .dims = 1,
        .size = {.n = 1u << 30},     /* 1 GiB of bytes: far beyond any L2 */
        .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = UINT32_MAX,
        .elem_bytes = 1,
        .variants = rows,
        .nvariants = VARIANT_ROWS,
        .extras = extras,
        .nextras = 2 * HIST_DATA,
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .bytes = bytes,
        .intro = race,
    };
    name_rows();
    return lab_main(&lab, argc, argv);
}
