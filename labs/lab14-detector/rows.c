/* lab14's bench rows: the variants of detector.h, then the reference on one core and on all
 * of them (OpenMP), each checked window for window against the reference's mask and stage
 * counts. The image: noise with objects planted, one per 16384 windows, where the cascade
 * (drawn from the same seed) accepts them; or --image's picture, resampled to the run's size
 * where that differs from its own, with no objects planted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - DETECTOR_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the reference on one CPU core, with the early exit"},
    {"cpu (all cores)", LAB_ROW_CPU, "the same on every core (OpenMP), rows of windows dealt out"},
};

struct job {
    size_t width, height, windows;
    unsigned nstages;
    unsigned char *image, *mask, *want_mask;
    unsigned *ran, *want_ran;
    struct detector_stage *cascade;
    struct gpu_buf dimage, dcascade, dmask, dran, dscratch;
};

/* The reference on every core: a row of windows at a time to whichever thread is free (the
 * rows with objects cost the most). */
static void cpu_all_cores(struct job *j, unsigned char *mask, unsigned *ran)
{
    long rows = (long)(j->height - DETECTOR_WIN + 1);
#pragma omp parallel for schedule(dynamic, 1)
    for (long y = 0; y < rows; y++)
        detector_cpu_rows(j->image, j->width, j->height, j->cascade, j->nstages, mask, ran,
                          (size_t)y, 1);
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->dimage);
    gpu_free(&j->dcascade);
    gpu_free(&j->dmask);
    gpu_free(&j->dran);
    gpu_free(&j->dscratch);
    free(j->image);
    free(j->mask);
    free(j->want_mask);
    free(j->ran);
    free(j->want_ran);
    free(j->cascade);
    free(j);
}

/* The drawn frame: noise with an object planted per 16384 windows (and one more, so that a
 * small frame has one), at places drawn from the seed. 0, or -1 out of memory. */
static int draw_frame(struct job *j, uint64_t seed)
{
    struct rng r = rng_new(seed ^ 0x91a7u);
    size_t count = j->windows ? j->windows / 16384 + 1 : 0;
    size_t *xy = malloc(2 * count * sizeof *xy + 1);
    if (!xy)
        return -1;
    for (size_t k = 0; k < count; k++) {
        xy[k] = rng_next(&r) % (j->width - DETECTOR_WIN + 1);
        xy[count + k] = rng_next(&r) % (j->height - DETECTOR_WIN + 1);
    }
    detector_image(j->image, j->width, j->height, seed, xy, xy + count, count);
    free(xy);
    return 0;
}

/* Where output pixel i of out_side falls among in_side pixels, in 256ths of a pixel: the
 * pixels' centres mapped onto each other ((i + 1/2) in_side / out_side - 1/2), clamped to
 * the first and last pixel's centres. Exact (i x 256) where the sides are equal. */
static uint64_t source_at(size_t i, size_t in_side, size_t out_side)
{
    uint64_t at = (2 * (uint64_t)i + 1) * in_side * 128 / out_side;
    at = at < 128 ? 0 : at - 128;
    return at > (in_side - 1) * (uint64_t)256 ? (in_side - 1) * (uint64_t)256 : at;
}

/* --image's picture as the frame, resampled bilinearly to the job's size: integers only, so
 * that the frame, and with it every window's answer, is the same on every machine (a copy
 * where the sizes are equal). Each output pixel is the weighted mean of the 4 pixels round
 * its source position, rounded to the nearest. */
static void picture_frame(struct job *j, const struct picture *p)
{
    for (size_t y = 0; y < j->height; y++) {
        uint64_t sy = source_at(y, p->height, j->height);
        unsigned fy = sy & 255;
        const unsigned char *top = p->pixels + (sy >> 8) * p->width;
        const unsigned char *bottom = fy ? top + p->width : top; /* fy = 0 on the last row */
        for (size_t x = 0; x < j->width; x++) {
            uint64_t sx = source_at(x, p->width, j->width);
            size_t x0 = sx >> 8, x1 = sx & 255 ? x0 + 1 : x0;
            unsigned fx = sx & 255;
            unsigned up = top[x0] * (256 - fx) + top[x1] * fx;
            unsigned down = bottom[x0] * (256 - fx) + bottom[x1] * fx;
            j->image[y * j->width + x] =
                (unsigned char)((up * (256 - fy) + down * fy + 32768) >> 16);
        }
    }
}

/* The frame and the cascade of a size and seed, without the device's copies. */
static struct job *problem(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->width = s.width;
    j->height = s.height;
    j->windows = detector_windows(s.width, s.height);
    j->nstages = opt_stages;
    j->image = malloc(s.n);
    j->cascade = malloc(j->nstages * sizeof *j->cascade);
    j->mask = malloc(j->windows + 1);
    j->want_mask = malloc(j->windows + 1);
    j->ran = malloc(j->windows * sizeof(unsigned) + 1);
    j->want_ran = malloc(j->windows * sizeof(unsigned) + 1);
    if (!j->image || !j->cascade || !j->mask || !j->want_mask || !j->ran || !j->want_ran ||
        (!opt_picture.pixels && draw_frame(j, seed))) {
        teardown(j);
        return NULL;
    }
    if (opt_picture.pixels)
        picture_frame(j, &opt_picture);
    detector_cascade(j->cascade, j->nstages, seed);
    if (j->windows)
        cpu_all_cores(j, j->want_mask, j->want_ran);
    return j;
}

void frame_note(struct lab_size size, uint64_t seed)
{
    const struct picture *p = &opt_picture;
    (void)seed;
    if (!p->pixels)
        return;
    if (p->width == size.width && p->height == size.height)
        printf("frame: %s, %zu x %zu\n", p->path, p->width, p->height);
    else
        printf("frame: %s, %zu x %zu resampled to %zu x %zu\n", p->path, p->width, p->height,
               size.width, size.height);
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = problem(s, seed);
    size_t scratch = 0;
    if (!j)
        return NULL;
    j->dimage = gpu_alloc(s.n);
    j->dcascade = gpu_alloc(j->nstages * sizeof *j->cascade);
    j->dmask = gpu_alloc(j->windows);
    j->dran = gpu_alloc(j->windows * sizeof(unsigned));
    for (int v = 0; v < DETECTOR_VARIANTS; v++) /* the most any variant needs */
        if (detector_scratch_bytes(v, s.width, s.height) > scratch)
            scratch = detector_scratch_bytes(v, s.width, s.height);
    j->dscratch = gpu_alloc(scratch);
    gpu_upload(j->dimage, j->image, s.n);
    gpu_upload(j->dcascade, j->cascade, j->nstages * sizeof *j->cascade);
    return j;
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU || row == CPU_CORES) {
        if (row == CPU)
            detector_cpu(j->image, j->width, j->height, j->cascade, j->nstages, j->mask, j->ran);
        else if (j->windows)
            cpu_all_cores(j, j->mask, j->ran);
        return LAB_OK;
    }
    return detector((enum detector_variant)row, j->dimage, j->width, j->height, j->dcascade,
                    j->nstages, j->dmask, j->dran, j->dscratch);
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t bad, bad_ran;
    int status;
    gpu_poison(j->dmask);
    gpu_poison(j->dran);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    if (row < DETECTOR_VARIANTS) {
        gpu_download(j->mask, j->dmask, j->windows);
        gpu_download(j->ran, j->dran, j->windows * sizeof(unsigned));
    }
    bad = lab_first_diff(j->mask, j->want_mask, j->windows, 1);
    bad_ran = lab_first_diff(j->ran, j->want_ran, j->windows, sizeof(unsigned));
    if (bad_ran < bad)
        bad = bad_ran;
    if (bad == j->windows)
        return LAB_OK;
    snprintf(why, why_size, "window (%zu, %zu): mask %u after %u stages, want %u after %u",
             bad % (j->width - DETECTOR_WIN + 1), bad / (j->width - DETECTOR_WIN + 1), j->mask[bad],
             j->ran[bad], j->want_mask[bad], j->want_ran[bad]);
    return LAB_WRONG;
}

/* The image read once and each window's mask and count written once (the cascade, a few
 * tens of KB, stays in the caches). */
static double bytes(void *p, int row)
{
    struct job *j = p;
    (void)row;
    return (double)j->width * j->height + (1.0 + sizeof(unsigned)) * j->windows;
}

/* Windows decided, whatever a row did to decide them. */
static double work(void *p, int row)
{
    (void)row;
    return (double)((struct job *)p)->windows;
}

/* The heat map of the stages each window ran, a pixel per window, on a log scale from 1 (dark
 * blue) to all of them (yellow); the accepted windows white, each in a white ring (the pixels
 * RING windows away across or down) so that a single one shows. */
enum { RING = 4 };

static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    (void)row;
    *width = j->windows ? j->width - DETECTOR_WIN + 1 : 0;
    *height = j->windows ? j->height - DETECTOR_WIN + 1 : 0;
    return j->windows != 0;
}

static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    const struct job *j = p;
    size_t across = j->width - DETECTOR_WIN + 1, down = j->height - DETECTOR_WIN + 1;
    (void)row;
    for (size_t x = 0; x < across; x++) {
        size_t w = y * across + x;
        double t = log((double)j->ran[w]) / log((double)j->nstages + 1.0);
        rgb[3 * x] = j->mask[w] ? 255 : (unsigned char)(255.0 * t);
        rgb[3 * x + 1] = j->mask[w] ? 255 : (unsigned char)(200.0 * t);
        rgb[3 * x + 2] = j->mask[w] ? 255 : (unsigned char)(160.0 * (1.0 - t));
    }
    /* the rings of the accepted windows of rows y - RING .. y + RING that cross this row */
    for (size_t wy = y > RING ? y - RING : 0; wy <= y + RING && wy < down; wy++)
        for (size_t wx = 0; wx < across; wx++) {
            if (!j->mask[wy * across + wx])
                continue;
            for (size_t x = wx > RING ? wx - RING : 0; x <= wx + RING && x < across; x++)
                if (wy + RING == y || y + RING == wy || x + RING == wx || wx + RING == x)
                    memset(rgb + 3 * x, 255, 3);
        }
}

/* compacted's lane-steps: for each chunk, its queue (the windows that ran more than base
 * stages, in window order: the queue's real order is the atomics', and the windows of noise
 * fall independently of their neighbours, so any order costs the same) in warps of 32, each
 * stepping through the chunk as long as its longest window. */
static double compacted_lanes(const struct job *j)
{
    unsigned *queue = malloc(j->windows * sizeof *queue);
    size_t queued = 0;
    double lanes = 0;
    if (!queue)
        return 0;
    for (size_t w = 0; w < j->windows; w++)
        queue[queued++] = (unsigned)w;
    for (unsigned base = 0; base < j->nstages && queued; base += DETECTOR_CHUNK) {
        unsigned end = j->nstages - base < DETECTOR_CHUNK ? j->nstages : base + DETECTOR_CHUNK;
        size_t kept = 0;
        for (size_t i0 = 0; i0 < queued; i0 += 32) {
            unsigned longest = 0;
            for (size_t i = i0; i < i0 + 32 && i < queued; i++) {
                unsigned ran = j->want_ran[queue[i]], here = (ran < end ? ran : end) - base;
                longest = here > longest ? here : longest;
                if (ran > end) /* alive past the chunk: in the next queue */
                    queue[kept++] = queue[i];
            }
            lanes += 32.0 * longest;
        }
        queued = kept;
    }
    free(queue);
    return lanes;
}

/* A warp per 4 windows' lane-steps on the windows x0 .. x0 + count - 1 of a row (ran: the
 * row's counts), as detector_warp_per_4_windows steps: 32 lanes a chunk while a window lives,
 * each chunk w stages of every live window, w = 8 at first and, after a chunk in which a
 * window fell (or at the start where the row ends before the 4th), 8 for 3 or 4 live windows,
 * 16 for 2, 32 for 1. A window lives at a chunk's start while it ran more stages than base. */
static double group_lanes(const unsigned *ran, size_t count, unsigned nstages)
{
    unsigned base = 0, w = 8, live;
    int fell = count < 4;
    double lanes = 0;
    while (base < nstages) {
        if (fell) {
            live = 0;
            for (size_t k = 0; k < count; k++)
                live += ran[k] > base;
            if (live == 0)
                break;
            w = live > 2 ? 8 : 32 / live;
        }
        fell = 0;
        for (size_t k = 0; k < count; k++)
            fell |= ran[k] > base && ran[k] <= base + w;
        lanes += 32;
        base += w;
    }
    return lanes;
}

/* The lanes each mapping keeps busy on the job's image: the stages its windows need over the
 * lane-steps a mapping spends on them. A warp of 32 windows (a thread each) steps as long as
 * its longest window; a warp per window steps 32 stages at a time; a warp per 4 windows of a
 * row, as group_lanes says; compacted, as compacted_lanes says. */
static void busy_lanes(const struct job *j, size_t stages)
{
    size_t across = j->width - DETECTOR_WIN + 1, down = j->height - DETECTOR_WIN + 1;
    double thread = 0, warp = 0, group = 0, compacted = compacted_lanes(j);
    for (size_t w0 = 0; w0 < j->windows; w0 += 32) {
        unsigned longest = 0;
        for (size_t w = w0; w < w0 + 32 && w < j->windows; w++)
            longest = j->want_ran[w] > longest ? j->want_ran[w] : longest;
        thread += 32.0 * longest;
    }
    for (size_t w = 0; w < j->windows; w++)
        warp += 32.0 * ((j->want_ran[w] + 31) / 32);
    for (size_t y = 0; y < down; y++)
        for (size_t x0 = 0; x0 < across; x0 += 4)
            group += group_lanes(j->want_ran + y * across + x0, across - x0 < 4 ? across - x0 : 4,
                                 j->nstages);
    printf("lanes busy: %.1f %% with a thread per window, %.1f %% with a warp per window, %.1f %% "
           "with a warp per 4 windows, %.1f %% compacted (chunks of %u stages)\n",
           100.0 * stages / thread, 100.0 * stages / warp, 100.0 * stages / group,
           100.0 * stages / compacted, DETECTOR_CHUNK);
}

enum { LABEL_SIZE = 512 };

/* "W x H image", and the picture it was made of where --image gave one: what survival's
 * lines say was run. */
static const char *image_label(const struct job *j, char *label, size_t size)
{
    int n = snprintf(label, size, "%zu x %zu image", j->width, j->height);
    if (opt_picture.pixels && n > 0 && (size_t)n < size)
        snprintf(label + n, size - (size_t)n, " from %s", opt_picture.path);
    return label;
}

/* The survival curve as a TSV (plots/survival.gp draws it): the windows alive after each
 * stage t = 0 .. nstages (those that ran more than t stages, and the accepted ones), and
 * whether compacted starts a launch there, whose queue they are. A comment line first says
 * what was run. */
static int survival_tsv(const struct job *j, const size_t *alive, uint64_t seed, const char *path)
{
    FILE *f = fopen(path, "w");
    char label[LABEL_SIZE];
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "# lab14 survival: %s, %zu windows, %u stages, seed %llu\n",
            image_label(j, label, sizeof label), j->windows, j->nstages, (unsigned long long)seed);
    fprintf(f, "stage\talive\tpercent\tlaunch\n");
    for (unsigned t = 0; t <= j->nstages; t++)
        fprintf(f, "%u\t%zu\t%.6f\t%d\n", t, alive[t], 100.0 * alive[t] / j->windows,
                t < j->nstages && t % DETECTOR_CHUNK == 0);
    if (fclose(f)) {
        perror(path);
        return -1;
    }
    printf("%s: the windows alive after each stage\n", path);
    return 0;
}

void survival(struct lab_size size, uint64_t seed)
{
    struct job *j = problem(size, seed);
    size_t *alive = j ? calloc(j->nstages + 1, sizeof *alive) : NULL;
    size_t accepted = 0, stages = 0;
    char label[LABEL_SIZE];
    if (!j || !alive || !j->windows) {
        printf("survival: no windows in a %zu x %zu image\n", size.width, size.height);
        free(alive);
        if (j)
            teardown(j);
        return;
    }
    /* alive[t]: the windows that ran more than t stages, or all of them and were accepted */
    for (size_t w = 0; w < j->windows; w++) {
        alive[j->want_mask[w] ? j->nstages : j->want_ran[w] - 1]++;
        accepted += j->want_mask[w];
        stages += j->want_ran[w];
    }
    for (unsigned t = j->nstages; t-- > 0;)
        alive[t] += alive[t + 1];
    printf("survival of %zu windows (%s, %u stages, seed %llu):\n", j->windows,
           image_label(j, label, sizeof label), j->nstages, (unsigned long long)seed);
    printf("%10s %12s %9s\n", "stages", "alive after", "%");
    for (unsigned t = 1;; t = t * 2 < j->nstages ? t * 2 : j->nstages) {
        printf("%10u %12zu %9.4f\n", t, alive[t], 100.0 * alive[t] / j->windows);
        if (t == j->nstages)
            break;
    }
    printf("%zu windows (%.4f %%) reached the last stage, %zu of them accepted; %.1f stages a "
           "window on average\n",
           alive[j->nstages - 1], 100.0 * alive[j->nstages - 1] / j->windows, accepted,
           (double)stages / j->windows);
    busy_lanes(j, stages);
    if (opt_survival_tsv && survival_tsv(j, alive, seed, opt_survival_tsv))
        exit(1);
    free(alive);
    teardown(j);
}

const struct lab_job detector_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .work = work,
    .image_size = image_size,
    .image_row = image_row,
};
