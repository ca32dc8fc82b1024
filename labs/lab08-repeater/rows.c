/* lab08's bench rows: the variants of repeater.h, then cudaMemcpy2D's doubling, cudaMemset
 * (the ceiling), tile_modulo with its copies to and from the host, and the seed's host cases
 * on one core, each checked bit for bit against the CPU reference of its case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - REPEATER_VARIANTS] = {
    {"memcpy2d_doubling", LAB_ROW_EXTRA,
     "one tile, then the filled region doubled along x and y by cudaMemcpy2D"},
    {"memset", LAB_ROW_EXTRA, "cudaMemset of the target: the write-only ceiling"},
    {"tile_modulo+copies", LAB_ROW_EXTRA,
     "1.4 with the repeater copied in and the target copied back (PCIe)"},
    {"cpu_basic", LAB_ROW_CPU, "1.1: the index and two modulos a point, one core"},
    {"cpu_indexed", LAB_ROW_CPU, "1.2: a running index, one core"},
    {"cpu_pointer", LAB_ROW_CPU, "1.2 bis: a running pointer, one core"},
    {"cpu_repeater_loop", LAB_ROW_CPU, "1.3: over the repeater, strided writes, one core"},
    {"cpu_lattice_target", LAB_ROW_CPU, "2.1: over the target, one core"},
    {"cpu_lattice_copies", LAB_ROW_CPU, "2.2: over the copies, sums and counts, one core"},
};

const char *row_name(int row)
{
    return row < REPEATER_VARIANTS ? repeater_variants[row].name
                                   : extra_rows[row - REPEATER_VARIANTS].name;
}

struct job {
    size_t width, height, n, rw, rh;
    struct lattice l;
    float *repeater, *want_tile, *want_lattice, *got; /* pinned host memory */
    unsigned *count;                                  /* cpu_lattice_copies' */
    struct gpu_buf drepeater, dtarget, dscratch;
};

/* An engraving's pattern in 8-bit grey levels: a disc, brighter towards its centre, with a
 * little noise drawn from the seed, and 0 (no copy's value) outside it. */
static void pattern(float *repeater, size_t rw, size_t rh, uint64_t seed)
{
    struct rng r = rng_new(seed);
    double radius = 0.45 * (double)(rw < rh ? rw : rh) + 0.5;
    for (size_t y = 0; y < rh; y++)
        for (size_t x = 0; x < rw; x++) {
            double d = hypot(x + 0.5 - 0.5 * rw, y + 0.5 - 0.5 * rh) / radius;
            float noise = (float)(rng_next(&r) % 16);
            repeater[y * rw + x] = d < 1.0 ? (float)floor(40.0 + 199.0 * (1.0 - d)) + noise : 0.0f;
        }
}

/* The most scratch any variant needs. */
static size_t scratch_for(size_t width, size_t height)
{
    size_t most = 1;
    for (int v = 0; v < REPEATER_VARIANTS; v++) {
        size_t bytes = repeat_scratch_bytes((enum repeater_variant)v, width, height);
        most = bytes > most ? bytes : most;
    }
    return most;
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    size_t bytes = s.n * sizeof(float);
    if (!j)
        return NULL;
    default_lattice();
    *j = (struct job){.width = s.width, .height = s.height, .n = s.n, .rw = opt.rw, .rh = opt.rh};
    if (lattice_plan(&j->l, opt.ux, opt.uy, opt.vx, opt.vy, j->rw, j->rh) != LAB_OK) {
        fprintf(stderr,
                "lab08: u = (%d, %d), v = (%d, %d): not a lattice for a %zu x %zu "
                "repeater (parallel, a component over %d, or over %d copies a point)\n",
                opt.ux, opt.uy, opt.vx, opt.vy, j->rw, j->rh, LATTICE_MAX_COMPONENT,
                LATTICE_MAX_CANDIDATES);
        exit(2);
    }
    j->repeater = gpu_host_alloc(j->rw * j->rh * sizeof(float));
    j->want_tile = gpu_host_alloc(bytes);
    j->want_lattice = gpu_host_alloc(bytes);
    j->got = gpu_host_alloc(bytes);
    j->count = malloc(s.n * sizeof(unsigned) + 1);
    pattern(j->repeater, j->rw, j->rh, seed);
    tile_cpu_basic(j->want_tile, j->width, j->height, j->repeater, j->rw, j->rh);
    lattice_cpu_target(j->want_lattice, j->width, j->height, j->repeater, &j->l);
    j->drepeater = gpu_alloc(j->rw * j->rh * sizeof(float));
    gpu_upload(j->drepeater, j->repeater, j->rw * j->rh * sizeof(float));
    j->dtarget = gpu_alloc(bytes);
    j->dscratch = gpu_alloc(scratch_for(j->width, j->height));
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->drepeater);
    gpu_free(&j->dtarget);
    gpu_free(&j->dscratch);
    gpu_host_free(j->repeater);
    gpu_host_free(j->want_tile);
    gpu_host_free(j->want_lattice);
    gpu_host_free(j->got);
    free(j->count);
    free(j);
}

static int launch_cpu(struct job *j, int row)
{
    switch (row) {
    case CPU_BASIC:
        tile_cpu_basic(j->got, j->width, j->height, j->repeater, j->rw, j->rh);
        break;
    case CPU_INDEXED:
        tile_cpu_indexed(j->got, j->width, j->height, j->repeater, j->rw, j->rh);
        break;
    case CPU_POINTER:
        tile_cpu_pointer(j->got, j->width, j->height, j->repeater, j->rw, j->rh);
        break;
    case CPU_REPEATER_LOOP:
        tile_cpu_repeater_loop(j->got, j->width, j->height, j->repeater, j->rw, j->rh);
        break;
    case CPU_LATTICE_TARGET:
        lattice_cpu_target(j->got, j->width, j->height, j->repeater, &j->l);
        break;
    default:
        lattice_cpu_copies(j->got, j->count, j->width, j->height, j->repeater, &j->l);
    }
    return LAB_OK;
}

static int launch(void *p, int row)
{
    struct job *j = p;
    int status;
    if (row >= CPU_BASIC)
        return launch_cpu(j, row);
    switch (row) {
    case MEMCPY2D:
        return repeat_tile_memcpy2d(j->dtarget, j->width, j->height, j->drepeater, j->rw, j->rh);
    case MEMSET:
        return repeat_memset(j->dtarget, j->width, j->height);
    case WITH_COPIES:
        gpu_upload(j->drepeater, j->repeater, j->rw * j->rh * sizeof(float));
        status =
            repeat_tile(TILE_MODULO, j->dtarget, j->width, j->height, j->drepeater, j->rw, j->rh);
        if (status == LAB_OK)
            gpu_download(j->got, j->dtarget, j->n * sizeof(float));
        return status;
    }
    if (repeater_facts[row].lattice)
        return repeat_lattice((enum repeater_variant)row, j->dtarget, j->width, j->height,
                              j->drepeater, j->rw, j->rh, j->l.ux, j->l.uy, j->l.vx, j->l.vy,
                              j->dscratch);
    return repeat_tile((enum repeater_variant)row, j->dtarget, j->width, j->height, j->drepeater,
                       j->rw, j->rh);
}

/* What the row must leave in the target. */
static const float *wanted_result(const struct job *j, int row)
{
    if (row == MEMSET)
        return NULL; /* zeros */
    if (row < REPEATER_VARIANTS && repeater_facts[row].lattice)
        return j->want_lattice;
    return j->want_tile;
}

/* For run --png: the target of a case-2 row, as grey levels (the pattern's 0 to 255). */
static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    *width = j->width;
    *height = j->height;
    return wanted_result(j, row) == j->want_lattice;
}
static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    const struct job *j = p;
    (void)row;
    for (size_t x = 0; x < j->width; x++) {
        float v = j->got[y * j->width + x];
        rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = (unsigned char)(v < 0.0f     ? 0.0f
                                                                       : v > 255.0f ? 255.0f
                                                                                    : v);
    }
}

static int compare(const struct job *j, int row, char *why, size_t why_size)
{
    const float *want = wanted_result(j, row);
    for (size_t i = 0; i < j->n; i++) {
        float w = want ? want[i] : 0.0f;
        if (memcmp(&j->got[i], &w, sizeof w)) {
            snprintf(why, why_size, "target[%zu][%zu] = %g, want %g", i / j->width, i % j->width,
                     j->got[i], w);
            return LAB_WRONG;
        }
    }
    return LAB_OK;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    int status;
    gpu_poison(j->dtarget);
    gpu_poison(j->dscratch);
    memset(j->got, 0xff, j->n * sizeof(float));
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    if (row != WITH_COPIES)
        gpu_download(j->got, j->dtarget, j->n * sizeof(float));
    return compare(j, row, why, why_size);
}

/* The target written once, the repeater read once (memset reads nothing). */
static double bytes(void *p, int row)
{
    struct job *j = p;
    return sizeof(float) * ((double)j->n + (row == MEMSET ? 0.0 : (double)j->rw * j->rh));
}

const struct lab_job repeater_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .image_size = image_size,
    .image_row = image_row,
};
