/* lab10's bench rows: the variants of stencil.h, then the CPU loops of the three problems and,
 * on a GPU whose toolkit has NPP, nppiGradientVectorSobelBorder, each checked bit for bit
 * against the CPU reference of its problem. The heat rows take --steps steps (HEAT_BENCH_STEPS
 * without it) from the same grid, with 16 sources; the Sobel rows work on a drawn image of the
 * grid's sides (or on run --image's picture). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - STENCIL_VARIANTS] = {
    {"cpu_adjacent (one core)", LAB_ROW_CPU, "the adjacent difference on one CPU core"},
    {"cpu_heat (one core)", LAB_ROW_CPU, "the heat steps on one CPU core"},
    {"cpu_sobel (one core)", LAB_ROW_CPU, "the Sobel edges on one CPU core"},
    {"npp_sobel", LAB_ROW_LIBRARY,
     "nppiGradientVectorSobelBorder_8u16s_C1R_Ctx, NPP's Sobel (L1 norm, int16 out)"},
};

/* 1 when this build has the NPP row: a CUDA build that found NPP's header (lab.mk). */
int have_npp(void)
{
#ifdef BACKEND_CUDA
    return sobel_npp_bytes(SOBEL_ROW_ALIGN, 1) > 0;
#else
    return 0;
#endif
}

static void say_no_npp(void)
{
#ifdef BACKEND_CUDA
    if (!have_npp())
        printf("lab10: no npp_sobel row: this build found no NPP header "
               "(nppi_filtering_functions.h in the CUDA toolkit's include directory)\n");
#endif
}

void npp_note(struct lab_size size, uint64_t seed)
{
    (void)size;
    (void)seed;
    say_no_npp();
}

void npp_report(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned)
{
    (void)b;
    (void)s;
    (void)ms;
    (void)tuned;
    say_no_npp();
}

/* HOT: the hot sources' temperature, the cold ones' being 0; the start grid lies between
 * them, so every temperature of a run does, and the pictures' colours span 0 to HOT. */
enum { SOURCES = 16, HOT = 1 << 20 };

struct job {
    size_t width, height, pitch, n; /* n = width x height: the line rows' length */
    size_t nsources;
    struct heat_source sources[SOURCES];
    int *in, *got; /* pinned, pitch x height ints */
    int *want_adjacent, *want_stencil, *want_heat, *scratch;
    struct gpu_buf din, dout, dscratch;
    size_t spitch;                             /* the image's rows: sobel_pitch(width) bytes */
    unsigned char *image, *edges, *want_edges; /* pinned, pinned, spitch x height bytes */
    short *mag16;                              /* NPP's magnitude: spitch x height */
    struct gpu_buf dimage, dedges, dmag16;
};

/* The kind of problem a row solves. */
static int kind(int row)
{
    if (row < STENCIL_VARIANTS)
        return (int)stencil_facts[row].kind;
    return row == CPU_ADJACENT ? LINE_ADJACENT : row == CPU_HEAT ? GRID_HEAT : IMAGE_SOBEL;
}

/* A filled rectangle or disc of one gray, clipped to the image. */
static void draw_shape(struct job *j, struct rng *r)
{
    size_t side = j->width < j->height ? j->width : j->height;
    long size = 2 + (long)(rng_next(r) % (side / 5 + 1)), cx = (long)(rng_next(r) % j->width),
         cy = (long)(rng_next(r) % j->height);
    int disc = rng_next(r) % 2, gray = (int)(rng_next(r) % 256);
    for (long y = cy - size; y <= cy + size; y++) {
        if (y < 0 || y >= (long)j->height)
            continue;
        for (long x = cx - size; x <= cx + size; x++)
            if (x >= 0 && x < (long)j->width &&
                (!disc || (x - cx) * (x - cx) + (y - cy) * (y - cy) <= size * size))
                j->image[y * j->spitch + x] = (unsigned char)gray;
    }
}

/* The Sobel rows' image: run --image's picture at its size, else a drawing: a gray ramp, 40
 * discs and rectangles of random grays on it (edges of every direction and height), and a
 * little noise (up to +-4), as a camera gives. */
static void draw_image(struct job *j, struct rng *r)
{
    size_t w = j->width, h = j->height;
    if (opt.image && opt.width == w && opt.height == h) {
        for (size_t y = 0; y < h; y++)
            memcpy(j->image + y * j->spitch, opt.image + y * w, w);
        return;
    }
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            j->image[y * j->spitch + x] = (unsigned char)(48 + 160 * (x + y) / (w + h));
    for (int k = 0; k < 40; k++)
        draw_shape(j, r);
    for (size_t y = 0; y < h; y++) {
        unsigned char *row = j->image + y * j->spitch;
        for (size_t x = 0; x < w; x += 8) {
            uint64_t bits = rng_next(r);
            for (size_t k = x; k < x + 8 && k < w; k++, bits >>= 8) {
                int v = row[k] + (int)(bits % 9) - 4;
                row[k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

/* The Sobel rows' buffers, image and reference. */
static void setup_sobel(struct job *j, struct rng *r)
{
    size_t bytes = j->spitch * j->height;
    j->image = gpu_host_alloc(bytes);
    j->edges = gpu_host_alloc(bytes);
    j->want_edges = calloc(bytes, 1);
    j->mag16 = malloc(2 * bytes);
    if (!j->image || !j->edges || !j->want_edges || !j->mag16) {
        fprintf(stderr, "lab10: out of host memory for %zu x %zu\n", j->width, j->height);
        exit(1);
    }
    memset(j->image, 0, bytes);
    draw_image(j, r);
    sobel_cpu(j->image, j->want_edges, j->width, j->height, j->spitch);
    j->dimage = gpu_alloc(bytes);
    j->dedges = gpu_alloc(bytes);
    if (have_npp())
        j->dmag16 = gpu_alloc(2 * bytes);
    gpu_upload(j->dimage, j->image, bytes);
}

/* Up to SOURCES cells (a quarter of the grid's at most), each on a cell of its own, half of
 * them hot, half cold. */
static void draw_sources(struct job *j, struct rng *r)
{
    size_t want = j->n / 4 < SOURCES ? j->n / 4 : SOURCES;
    while (j->nsources < want) {
        struct heat_source s = {(unsigned)(rng_next(r) % j->width),
                                (unsigned)(rng_next(r) % j->height), j->nsources % 2 ? 0 : HOT};
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
    rng_ints(&r, j->in, cells, 0, HOT - 1); /* temperatures up to 1048.575 degrees */
    draw_sources(j, &r);
    adjacent_cpu(j->in, j->want_adjacent, j->n);
    stencil1d_cpu(j->in, j->want_stencil, j->n);
    heat_cpu(j->in, j->want_heat, j->scratch, j->width, j->height, j->pitch, j->sources,
             j->nsources, opt.steps);
    j->din = gpu_alloc(bytes);
    j->dout = gpu_alloc(bytes);
    j->dscratch = gpu_alloc(bytes);
    gpu_upload(j->din, j->in, bytes);
    j->spitch = sobel_pitch(s.width);
    setup_sobel(j, &r);
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
    gpu_free(&j->dimage);
    gpu_free(&j->dedges);
    gpu_free(&j->dmag16);
    gpu_host_free(j->image);
    gpu_host_free(j->edges);
    free(j->want_edges);
    free(j->mag16);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
    switch (row) {
    case CPU_ADJACENT:
        adjacent_cpu(j->in, j->got, j->n);
        return LAB_OK;
    case CPU_HEAT:
        heat_cpu(j->in, j->got, j->scratch, j->width, j->height, j->pitch, j->sources, j->nsources,
                 opt.steps);
        return LAB_OK;
    case CPU_SOBEL:
        sobel_cpu(j->image, j->edges, j->width, j->height, j->spitch);
        return LAB_OK;
#ifdef BACKEND_CUDA
    case NPP_SOBEL:
        return sobel_npp(j->dimage, j->dmag16, j->width, j->height, j->spitch);
#endif
    default:
        break;
    }
    if (kind(row) == IMAGE_SOBEL)
        return sobel((enum stencil_variant)row, j->dimage, j->dedges, j->width, j->height,
                     j->spitch);
    if (kind(row) != GRID_HEAT)
        return stencil_line((enum stencil_variant)row, j->din, j->dout, j->n);
    return heat((enum stencil_variant)row, j->din, j->dout, j->dscratch, j->width, j->height,
                j->pitch, j->sources, j->nsources, opt.steps);
}

/* The first wrong pixel of the edges (NPP's: min(255, its |Sx| + |Sy| over 4)). */
static int compare_edges(const struct job *j, int row, char *why, size_t why_size)
{
    for (size_t y = 0; y < j->height; y++)
        for (size_t x = 0; x < j->width; x++) {
            size_t i = y * j->spitch + x;
            int got = row == NPP_SOBEL ? (j->mag16[i] < 0         ? -1
                                          : j->mag16[i] / 4 > 255 ? 255
                                                                  : j->mag16[i] / 4)
                                       : j->edges[i];
            if (got != j->want_edges[i]) {
                snprintf(why, why_size, "pixel (%zu, %zu) = %d%s, want %d", x, y, got,
                         row == NPP_SOBEL ? " (min(255, mag / 4))" : "", j->want_edges[i]);
                return LAB_WRONG;
            }
        }
    return LAB_OK;
}

/* The first wrong element: of the line, or a cell of the grid (the ends of its rows, past
 * width, are not the heat rows' to write). */
static int compare(const struct job *j, int row, char *why, size_t why_size)
{
    if (kind(row) == IMAGE_SOBEL)
        return compare_edges(j, row, why, why_size);
    if (kind(row) == GRID_HEAT) {
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
    const int *want = kind(row) == LINE_ADJACENT ? j->want_adjacent : j->want_stencil;
    size_t bad = lab_first_diff(j->got, want, j->n, sizeof(int));
    if (bad == j->n)
        return LAB_OK;
    snprintf(why, why_size, "out[%zu] = %d, want %d", bad, j->got[bad], want[bad]);
    return LAB_WRONG;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t spixels = j->spitch * j->height;
    int status;
    gpu_poison(j->dout);
    gpu_poison(j->dscratch);
    gpu_poison(j->dedges);
    gpu_poison(j->dmag16);
    memset(j->got, 0xff, j->pitch * j->height * sizeof(int));
    memset(j->edges, 0xff, spixels);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    if (row == NPP_SOBEL)
        gpu_download(j->mag16, j->dmag16, 2 * spixels);
    else if (kind(row) == IMAGE_SOBEL && row < STENCIL_VARIANTS)
        gpu_download(j->edges, j->dedges, spixels);
    else if (row < STENCIL_VARIANTS)
        gpu_download(j->got, j->dout, j->pitch * j->height * sizeof(int));
    return compare(j, row, why, why_size);
}

/* One int read and one written per element; for the heat rows, per cell and per step; for
 * the Sobel rows a byte read and one written a pixel (NPP's: two written, its int16). */
static double bytes(void *p, int row)
{
    struct job *j = p;
    if (kind(row) == IMAGE_SOBEL)
        return (row == NPP_SOBEL ? 3.0 : 2.0) * (double)j->n;
    return 2.0 * sizeof(int) * (double)j->n * (kind(row) == GRID_HEAT ? opt.steps : 1);
}

/* For run --png: a variant's input on the left and its output on the right, a gray gap
 * between. A Sobel variant's picture and its edges (white where they are strongest); a heat
 * variant's grid before and after its steps, in colour, unless run --image gave a picture:
 * then the picture is what --png is for. */
enum { GAP = 4 };
static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    *width = 2 * j->width + GAP;
    *height = j->height;
    return row < STENCIL_VARIANTS &&
           (kind(row) == IMAGE_SOBEL || (kind(row) == GRID_HEAT && !opt.image));
}

/* A temperature's colour on one scale for every run (0 to HOT, not the grid's own extremes),
 * so that pictures after different steps compare: blue for the cold sources' 0, a light gray
 * halfway, where the start grid's mean lies, red for HOT; in between, straight lines. */
static void heat_colour(int t, unsigned char *rgb)
{
    static const unsigned char cold[3] = {59, 76, 192}, mid[3] = {221, 221, 221},
                               hot[3] = {180, 4, 38};
    const unsigned char *from = t < HOT / 2 ? cold : mid, *to = t < HOT / 2 ? mid : hot;
    double f = (t < HOT / 2 ? t : t - HOT / 2) / (HOT / 2.0);
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)(from[c] + f * (to[c] - from[c]) + 0.5);
}

static void heat_row(const struct job *j, size_t y, unsigned char *rgb)
{
    for (size_t x = 0; x < 2 * j->width + GAP; x++) {
        if (x < j->width)
            heat_colour(j->in[y * j->pitch + x], rgb + 3 * x);
        else if (x >= j->width + GAP)
            heat_colour(j->got[y * j->pitch + x - j->width - GAP], rgb + 3 * x);
        else
            rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = 128;
    }
}

static void sobel_row(const struct job *j, size_t y, unsigned char *rgb)
{
    for (size_t x = 0; x < 2 * j->width + GAP; x++) {
        unsigned char v = 128;
        if (x < j->width)
            v = j->image[y * j->spitch + x];
        else if (x >= j->width + GAP)
            v = j->edges[y * j->spitch + x - j->width - GAP];
        rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = v;
    }
}

static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    (kind(row) == GRID_HEAT ? heat_row : sobel_row)(p, y, rgb);
}

const struct lab_job stencil_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .image_size = image_size,
    .image_row = image_row,
};
