/* lab10's bench rows: the variants of stencil.h, then the CPU loops of both problems, each
 * checked bit for bit against the CPU reference of its problem. The heat rows take
 * HEAT_BENCH_STEPS steps from the same grid, with 16 sources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - STENCIL_VARIANTS] = {
    {"cpu_adjacent (one core)", LAB_ROW_CPU, "the adjacent difference on one CPU core"},
    {"cpu_heat (one core)", LAB_ROW_CPU, "the heat steps on one CPU core"},
};

enum { SOURCES = 16 };

struct job {
    size_t width, height, pitch, n; /* n = width x height: the line rows' length */
    size_t nsources;
    struct heat_source sources[SOURCES];
    int *in, *got; /* pinned, pitch x height ints */
    int *want_adjacent, *want_stencil, *want_heat, *scratch;
    struct gpu_buf din, dout, dscratch;
};

/* Up to SOURCES cells (a quarter of the grid's at most), each on a cell of its own, half of
 * them hot, half cold. */
static void draw_sources(struct job *j, struct rng *r)
{
    size_t want = j->n / 4 < SOURCES ? j->n / 4 : SOURCES;
    while (j->nsources < want) {
        struct heat_source s = {(unsigned)(rng_next(r) % j->width),
                                (unsigned)(rng_next(r) % j->height), j->nsources % 2 ? 0 : 1 << 20};
        size_t k = 0;
        while (k < j->nsources && (j->sources[k].x != s.x || j->sources[k].y != s.y))
            k++;
        if (k == j->nsources)
            j->sources[j->nsources++] = s;
    }
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t cells, bytes;
    if (!j)
        return NULL;
    j->width = s.width;
    j->height = s.height;
    j->pitch = heat_pitch(s.width);
    j->n = s.n;
    cells = j->pitch * j->height;
    bytes = cells * sizeof(int);
    j->in = gpu_host_alloc(bytes);
    j->got = gpu_host_alloc(bytes);
    j->want_adjacent = malloc(j->n * sizeof(int));
    j->want_stencil = malloc(j->n * sizeof(int));
    j->want_heat = malloc(bytes);
    j->scratch = malloc(bytes);
    if (!j->want_adjacent || !j->want_stencil || !j->want_heat || !j->scratch) {
        fprintf(stderr, "lab10: out of host memory for %zu x %zu\n", j->width, j->height);
        exit(1);
    }
    rng_ints(&r, j->in, cells, 0, (1 << 20) - 1); /* temperatures up to 1048.575 degrees */
    draw_sources(j, &r);
    adjacent_cpu(j->in, j->want_adjacent, j->n);
    stencil1d_cpu(j->in, j->want_stencil, j->n);
    heat_cpu(j->in, j->want_heat, j->scratch, j->width, j->height, j->pitch, j->sources,
             j->nsources, HEAT_BENCH_STEPS);
    j->din = gpu_alloc(bytes);
    j->dout = gpu_alloc(bytes);
    j->dscratch = gpu_alloc(bytes);
    gpu_upload(j->din, j->in, bytes);
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->din);
    gpu_free(&j->dout);
    gpu_free(&j->dscratch);
    gpu_host_free(j->in);
    gpu_host_free(j->got);
    free(j->want_adjacent);
    free(j->want_stencil);
    free(j->want_heat);
    free(j->scratch);
    free(j);
}

static int is_heat(int row)
{
    return row == CPU_HEAT || (row < STENCIL_VARIANTS && stencil_facts[row].kind == GRID_HEAT);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU_ADJACENT) {
        adjacent_cpu(j->in, j->got, j->n);
        return LAB_OK;
    }
    if (row == CPU_HEAT) {
        heat_cpu(j->in, j->got, j->scratch, j->width, j->height, j->pitch, j->sources, j->nsources,
                 HEAT_BENCH_STEPS);
        return LAB_OK;
    }
    if (!is_heat(row))
        return stencil_line((enum stencil_variant)row, j->din, j->dout, j->n);
    return heat((enum stencil_variant)row, j->din, j->dout, j->dscratch, j->width, j->height,
                j->pitch, j->sources, j->nsources, HEAT_BENCH_STEPS);
}

/* The first wrong element: of the line, or a cell of the grid (the ends of its rows, past
 * width, are not the heat rows' to write). */
static int compare(const struct job *j, int row, char *why, size_t why_size)
{
    if (is_heat(row)) {
        for (size_t y = 0; y < j->height; y++) {
            const int *got = j->got + y * j->pitch, *want = j->want_heat + y * j->pitch;
            for (size_t x = 0; x < j->width; x++)
                if (got[x] != want[x]) {
                    snprintf(why, why_size, "cell (%zu, %zu) = %d, want %d", x, y, got[x], want[x]);
                    return LAB_WRONG;
                }
        }
        return LAB_OK;
    }
    const int *want = row == CPU_ADJACENT || stencil_facts[row].kind == LINE_ADJACENT
                          ? j->want_adjacent
                          : j->want_stencil;
    size_t bad = lab_first_diff(j->got, want, j->n, sizeof(int));
    if (bad == j->n)
        return LAB_OK;
    snprintf(why, why_size, "out[%zu] = %d, want %d", bad, j->got[bad], want[bad]);
    return LAB_WRONG;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    int status;
    gpu_poison(j->dout);
    gpu_poison(j->dscratch);
    memset(j->got, 0xff, j->pitch * j->height * sizeof(int));
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    if (row < STENCIL_VARIANTS)
        gpu_download(j->got, j->dout, j->pitch * j->height * sizeof(int));
    return compare(j, row, why, why_size);
}

/* One int read and one written per element; for the heat rows, per cell and per step. */
static double bytes(void *p, int row)
{
    struct job *j = p;
    return 2.0 * sizeof(int) * (double)j->n * (is_heat(row) ? HEAT_BENCH_STEPS : 1);
}

const struct lab_job stencil_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
