/* lab08's command line (common/driver.h): the variants of repeater.h, then the rows they are
 * measured against: cudaMemcpy2D's doubling, cudaMemset (the ceiling), tile_modulo with its
 * copies to and from the host, and the seed's host cases on one core. Its own options set
 * the repeater, the lattice and the PNG of a case-2 target; bench --sweep sweeps R. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"
#include "png_write.h"
#include "rng.h"
#include "repeater.h"

enum {
    MEMCPY2D = REPEATER_VARIANTS,
    MEMSET,
    WITH_COPIES,
    CPU_BASIC,
    CPU_INDEXED,
    CPU_POINTER,
    CPU_REPEATER_LOOP,
    CPU_LATTICE_TARGET,
    CPU_LATTICE_COPIES,
    ROWS
};

static const struct lab_row extras[] = {
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

/* The seed's figures at 10240 x 10240, R = 100 (RTX 2070, i9-9900k one core), in ms, from
 * the course's lecture notes (seed 000); 0 where it has none. lattice_scatter_atomic's is
 * its 2.4 with atomics (9.8 ms with plain stores, which lose the blend). */
static const double seed_ms[ROWS] = {
    [TILE_MODULO] = 2.03,           [TILE_SHARED_MISTAKE] = 816.0, [TILE_GRID_OVER_REPEATER] = 3.2,
    [LATTICE_SCATTER_ATOMIC] = 6.3, [WITH_COPIES] = 34.0,          [CPU_BASIC] = 870.0,
    [CPU_INDEXED] = 114.0,          [CPU_POINTER] = 99.6,          [CPU_REPEATER_LOOP] = 912.0,
};

/* The repeater's side: the seed's 100 (also on the CPU backend, so that the image shows
 * whole copies); the sweep's values, the seed's four and its 100. */
static const unsigned sweep_sides[] = {16, 32, 64, 100, 128};

static struct {
    unsigned rw, rh;
    int uv_given, ux, uy, vx, vy;
} opt = {.rw = 100, .rh = 100};

struct job {
    size_t width, height, n, rw, rh;
    struct lattice l;
    float *repeater, *want_tile, *want_lattice, *got; /* pinned host memory */
    unsigned *count;                                  /* cpu_lattice_copies' */
    struct gpu_buf drepeater, dtarget, dscratch;
};

/* Without --u and --v: a lattice scaled to the repeater, u = (0.6 rw, 0.1 rh) and
 * v = (-0.1 rw, 0.6 rh), where one to four copies cover a point (the handout's figure). */
static void default_lattice(void)
{
    if (opt.uv_given)
        return;
    opt.ux = (int)fmax(1.0, 0.6 * opt.rw);
    opt.uy = (int)fmax(1.0, 0.1 * opt.rh);
    opt.vx = -(int)fmax(1.0, 0.1 * opt.rw);
    opt.vy = (int)fmax(1.0, 0.6 * opt.rh);
}

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

static void set_side(unsigned side)
{
    opt.rw = opt.rh = side;
}

/* After the main table: each row beside the seed's figure, and in % of memset's bandwidth
 * (the goal: the best case-1 kernel at 95 %, the best case-2 one at 80 %). */
static void seed_table(const struct bench *b, struct lab_size s, const double *ms,
                       const unsigned *tuned)
{
    (void)tuned;
    printf("\nbeside the seed (RTX 2070, i9-9900k one core, 10240 x 10240, R = 100), on %s, "
           "%zu x %zu, %u x %u:\n  %-24s %12s %12s %10s\n",
           b->gpu.name, s.width, s.height, opt.rw, opt.rh, "row", "ms", "seed ms", "% memset");
    for (int r = 0; r < ROWS; r++) {
        const char *name =
            r < REPEATER_VARIANTS ? repeater_variants[r].name : extras[r - REPEATER_VARIANTS].name;
        if (ms[r] <= 0)
            continue;
        printf("  %-24s %12.3f", name, ms[r]);
        if (seed_ms[r] > 0)
            printf(" %12.3f", seed_ms[r]);
        else
            printf(" %12s", "");
        if (ms[MEMSET] > 0 && r != MEMSET && r < CPU_BASIC)
            printf(" %9.1f%%", 100.0 * ms[MEMSET] / ms[r] * (1.0 + (double)opt.rw * opt.rh / s.n));
        printf("\n");
    }
}

static void parse_pair(struct cli *c, const char *name, const char *value, int *x, int *y)
{
    double w[2];
    cli_numbers(c, name, value, w, 2);
    if (fabs(w[0]) > LATTICE_MAX_COMPONENT || fabs(w[1]) > LATTICE_MAX_COMPONENT ||
        w[0] != floor(w[0]) || w[1] != floor(w[1]))
        cli_fail(c, name, value, "expected X,Y, integers from -511 to 511");
    *x = (int)w[0];
    *y = (int)w[1];
    opt.uv_given = 1;
}

static int option(struct cli *c, const char *name, const char *value)
{
    const char *v = value ? value : "";
    if (!strcmp(name, "--repeater")) {
        unsigned rw, rh;
        char end;
        int got = sscanf(v, "%ux%u%c", &rw, &rh, &end);
        if (got == 1)
            rh = rw;
        if ((got != 1 && got != 2) || rw == 0 || rh == 0 || rw > 4096 || rh > 4096)
            cli_fail(c, name, value, "expected R or RWxRH, each 1 to 4096");
        opt.rw = rw;
        opt.rh = rh;
    } else if (!strcmp(name, "--u")) {
        parse_pair(c, name, value, &opt.ux, &opt.uy);
    } else if (!strcmp(name, "--v")) {
        parse_pair(c, name, value, &opt.vx, &opt.vy);
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab08",
        .dims = 2,
        .max_side = REPEATER_MAX_SIDE,
        .size = {.width = 10240, .height = 10240}, /* the seed's: 400 MB written */
        .cpu_size = {.width = 640, .height = 480}, /* checked in seconds by the CPU backend */
        .min_n = 1,
        .max_n = (size_t)1 << 34,
        .elem_bytes = sizeof(float), /* the copy ceiling copies as many bytes as the target */
        .usage = "  --repeater R     the repeater's side, or RWxRH (default 100, the seed's)\n"
                 "  --u X,Y --v X,Y  case 2's repetition vectors (default u = (0.6 RW, 0.1 RH),\n"
                 "                   v = (-0.1 RW, 0.6 RH): one to four copies a point)\n"
                 "  bench --sweep    the repeater's side 16, 32, 64, 100 and 128\n",
        .option = option,
        .variants = repeater_variants,
        .nvariants = REPEATER_VARIANTS,
        .extras = extras,
        .nextras = sizeof extras / sizeof extras[0],
        .setup = setup,
        .teardown = teardown,
        .launch = launch,
        .check = check,
        .image_size = image_size,
        .image_row = image_row,
        .write_png = write_png_rgb,
        .bytes = bytes,
        .sweep_name = "repeater_side",
        .sweep_values = sweep_sides,
        .nsweep = sizeof sweep_sides / sizeof sweep_sides[0],
        .sweep_set = set_side,
        .report = seed_table,
    };
    return lab_main(&lab, argc, argv);
}
