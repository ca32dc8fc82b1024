/* lab11's bench rows: the variants of scan.h, then CUB's scan and compaction and the CPU loop.
 * bench times the inclusive scan; each check runs it (and up to 2^24 elements the exclusive
 * scan too) against the CPU's, exactly (the float scan within its bound). The threshold and compact rows work on the same bytes seen as
 * an image 1920 pixels wide (the seed's 1080p rows), threshold 128; threshold_pixel in blocks
 * of 32 x 4, or of each height the bench tries (main.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - SCAN_VARIANTS] = {
    {"cub_inclusive_sum", LAB_ROW_LIBRARY, "cub::DeviceScan::InclusiveSum, NVIDIA's single pass"},
    {"cub_select_flagged", LAB_ROW_LIBRARY, "cub::DeviceSelect::FlaggedIf, CUB's compaction"},
    {"cpu (one core)", LAB_ROW_CPU, "the reference scan on one CPU core"},
};

enum { WIDTH = 1920, BLOCK_ROWS = 4, THRESHOLD = 128 };

/* The scans checked: both modes up to BOTH_MODES_MAX elements (run's sizes), past it the
 * timed one alone: at 2^28 a mode costs a one-block row a second and setup a gigabyte, and
 * the tests check both at every size. */
enum { BOTH_MODES_MAX = 1 << 24 };
static int last_mode(size_t n)
{
    return n <= BOTH_MODES_MAX ? SCAN_EXCLUSIVE : SCAN_INCLUSIVE;
}

struct job {
    size_t n, width, height, pixels, kept;
    unsigned block_rows;     /* threshold_pixel's */
    int *in, *got, *want[2]; /* pinned host memory; want: inclusive, exclusive */
    unsigned char *image, *want_image, *got_image;
    unsigned *want_kept, *got_kept;
    struct gpu_buf din, dout, scratch, dimage, dthreshold, dkept, dcount, cub_temp[2];
    struct gpu_buf dfloats; /* the float scan's input: float_input() of din's ints */
    size_t cub_temp_bytes[2];
};

/* The float scan's input, made from the ints (-8..8): (in[i] + 3/8) 2^(e - 12), e = i mod 25:
 * mixed signs and magnitudes, each float exact, the same again at check time (powers of 2 by
 * a shift). The loops step e along with i: a division an element cost seconds at 2^28. */
static float float_input(int v, unsigned e)
{
    return ((float)v + 0.375f) * (float)(1u << e) * 0x1p-12f;
}
static unsigned next_e(unsigned e)
{
    return e == 24 ? 0 : e + 1;
}

/* Small values (-8..8): no prefix comes near the int range, whatever n. */
static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    size_t bytes = s.n * sizeof(int), scratch = 0;
    if (!j)
        return NULL;
    j->n = s.n;
    j->block_rows = BLOCK_ROWS;
    j->width = s.n < WIDTH ? s.n : WIDTH;
    j->height = s.n / j->width;
    j->pixels = j->width * j->height;
    j->in = gpu_host_alloc(bytes);
    j->got = gpu_host_alloc(bytes);
    rng_ints(&r, j->in, s.n, -8, 8);
    for (int m = SCAN_INCLUSIVE; m <= last_mode(s.n); m++) {
        j->want[m] = gpu_host_alloc(bytes);
        scan_cpu((enum scan_mode)m, j->in, j->want[m], s.n);
    }
    j->image = gpu_host_alloc(j->pixels);
    j->want_image = gpu_host_alloc(j->pixels);
    j->got_image = gpu_host_alloc(j->pixels);
    j->want_kept = gpu_host_alloc(j->pixels * sizeof(unsigned));
    j->got_kept = gpu_host_alloc(j->pixels * sizeof(unsigned));
    rng_bytes(&r, j->image, j->pixels);
    threshold_cpu(j->image, j->want_image, j->width, j->height, j->width, THRESHOLD);
    j->kept = compact_cpu(j->image, j->pixels, THRESHOLD, j->want_kept);
    j->din = gpu_alloc(bytes);
    j->dout = gpu_alloc(bytes);
    j->dimage = gpu_alloc(j->pixels);
    j->dthreshold = gpu_alloc(j->pixels);
    j->dkept = gpu_alloc(j->pixels * sizeof(unsigned));
    j->dcount = gpu_alloc(sizeof(unsigned));
    gpu_upload(j->din, j->in, bytes);
    j->dfloats = gpu_alloc(bytes);
    unsigned e = 0;
    for (size_t i = 0; i < s.n; i++, e = next_e(e)) /* the floats staged in got, as its bytes */
        ((float *)j->got)[i] = float_input(j->in[i], e);
    gpu_upload(j->dfloats, j->got, bytes);
    gpu_upload(j->dimage, j->image, j->pixels);
    for (int v = 0; v < SCAN_VARIANTS; v++) {
        size_t b = scan_scratch_bytes((enum scan_variant)v, s.n);
        scratch = b > scratch ? b : scratch;
    }
    j->scratch = gpu_alloc(scratch ? scratch : 1);
#ifdef BACKEND_CUDA
    if (scan_cub(SCAN_INCLUSIVE, j->din, j->dout, s.n, j->cub_temp[0], &j->cub_temp_bytes[0]) ==
        LAB_OK)
        j->cub_temp[0] = gpu_alloc(j->cub_temp_bytes[0]);
    if (compact_cub(j->dimage, j->pixels, THRESHOLD, j->dkept, j->dcount, j->cub_temp[1],
                    &j->cub_temp_bytes[1]) == LAB_OK)
        j->cub_temp[1] = gpu_alloc(j->cub_temp_bytes[1]);
#endif
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    struct gpu_buf *bufs[] = {&j->din,         &j->dout,   &j->scratch, &j->dimage,
                              &j->dthreshold,  &j->dkept,  &j->dcount,  &j->cub_temp[0],
                              &j->cub_temp[1], &j->dfloats};
    void *host[] = {j->in,         j->got,       j->want[0],   j->want[1], j->image,
                    j->want_image, j->got_image, j->want_kept, j->got_kept};
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
        gpu_free(bufs[k]);
    for (size_t k = 0; k < sizeof host / sizeof host[0]; k++)
        gpu_host_free(host[k]);
    free(j);
}

static int job_of(int row)
{
    return row < SCAN_VARIANTS ? (int)scan_facts[row].job
           : row == SELECT     ? SCAN_JOB_COMPACT
                               : SCAN_JOB_SCAN;
}

static int run(struct job *j, int row, enum scan_mode mode)
{
    if (row == CPU) {
        scan_cpu(mode, j->in, j->got, j->n);
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row == CUB)
        return scan_cub(mode, j->din, j->dout, j->n, j->cub_temp[0], &j->cub_temp_bytes[0]);
    if (row == SELECT)
        return compact_cub(j->dimage, j->pixels, THRESHOLD, j->dkept, j->dcount, j->cub_temp[1],
                           &j->cub_temp_bytes[1]);
#endif
    if (row >= SCAN_VARIANTS)
        return LAB_EINVAL;
    switch (scan_facts[row].job) {
    case SCAN_JOB_THRESHOLD:
        return threshold((enum scan_variant)row, j->dimage, j->dthreshold, j->width, j->height,
                         j->width, THRESHOLD, row == SCAN_THRESHOLD_PIXEL ? j->block_rows : 1);
    case SCAN_JOB_COMPACT:
        return compact((enum scan_variant)row, j->dimage, j->pixels, THRESHOLD, j->dkept, j->dcount,
                       j->scratch);
    case SCAN_JOB_SCAN_FLOAT:
        return scan_float((enum scan_variant)row, mode, j->dfloats, j->dout, j->n, j->scratch);
    default:
        return scan((enum scan_variant)row, mode, j->din, j->dout, j->n, j->scratch);
    }
}

static int launch(void *p, int row)
{
    return run(p, row, SCAN_INCLUSIVE);
}

static const char *const modes[] = {"inclusive", "exclusive"};

/* The float scan's outputs (in got) against the sums in double, made afresh as they are
 * checked: each within its bound (reference.c). */
static int check_floats(struct job *j, enum scan_mode m, char *why, size_t why_size)
{
    const float *got = (const float *)j->got;
    double sum = 0, abs_sum = 0;
    unsigned e = 0;
    for (size_t i = 0; i < j->n; i++, e = next_e(e)) {
        const double x = float_input(j->in[i], e);
        if (m == SCAN_INCLUSIVE)
            sum += x, abs_sum += fabs(x);
        if (!(fabs(got[i] - sum) <= scan_float_bound(i, j->n, abs_sum))) {
            snprintf(why, why_size, "%s: out[%zu] = %.9g, want %.9g within %.3g", modes[m], i,
                     got[i], sum, scan_float_bound(i, j->n, abs_sum));
            return LAB_WRONG;
        }
        if (m == SCAN_EXCLUSIVE)
            sum += x, abs_sum += fabs(x);
    }
    return LAB_OK;
}

static int check_scan(struct job *j, int row, char *why, size_t why_size)
{
    for (int m = SCAN_INCLUSIVE; m <= last_mode(j->n); m++) {
        size_t bad;
        int status;
        gpu_poison(j->dout);
        gpu_poison(j->scratch);
        if ((status = run(j, row, (enum scan_mode)m)) != LAB_OK)
            return status;
        if (row != CPU)
            gpu_download(j->got, j->dout, j->n * sizeof(int));
        if (job_of(row) == SCAN_JOB_SCAN_FLOAT) {
            if ((status = check_floats(j, (enum scan_mode)m, why, why_size)) != LAB_OK)
                return status;
            continue;
        }
        if ((bad = lab_first_diff(j->got, j->want[m], j->n, sizeof(int))) < j->n) {
            snprintf(why, why_size, "%s: out[%zu] = %d, want %d", modes[m], bad, j->got[bad],
                     j->want[m][bad]);
            return LAB_WRONG;
        }
    }
    return LAB_OK;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    unsigned count;
    size_t bad;
    int status;
    if (job_of(row) == SCAN_JOB_SCAN || job_of(row) == SCAN_JOB_SCAN_FLOAT)
        return check_scan(j, row, why, why_size);
    gpu_poison(j->dthreshold);
    gpu_poison(j->dkept);
    gpu_poison(j->dcount);
    if ((status = run(j, row, SCAN_INCLUSIVE)) != LAB_OK)
        return status;
    if (job_of(row) == SCAN_JOB_THRESHOLD) {
        gpu_download(j->got_image, j->dthreshold, j->pixels);
        if ((bad = lab_first_diff(j->got_image, j->want_image, j->pixels, 1)) == j->pixels)
            return LAB_OK;
        snprintf(why, why_size, "pixel (%zu, %zu) = %d, want %d", bad % j->width, bad / j->width,
                 j->got_image[bad], j->want_image[bad]);
        return LAB_WRONG;
    }
    gpu_download(&count, j->dcount, sizeof count);
    if (count != j->kept) {
        snprintf(why, why_size, "%u pixels kept, want %zu", count, j->kept);
        return LAB_WRONG;
    }
    gpu_download(j->got_kept, j->dkept, j->kept * sizeof(unsigned));
    if ((bad = lab_first_diff(j->got_kept, j->want_kept, j->kept, sizeof(unsigned))) == j->kept)
        return LAB_OK;
    snprintf(why, why_size, "out[%zu] = %u, want %u", bad, j->got_kept[bad], j->want_kept[bad]);
    return LAB_WRONG;
}

/* bench's block heights (main.c) for threshold_pixel, the one row that takes them. */
static int tune(void *p, int row, unsigned block_rows)
{
    struct job *j = p;
    if (row != SCAN_THRESHOLD_PIXEL)
        return 0;
    j->block_rows = block_rows;
    return 1;
}

/* The fewest bytes: a scan reads and writes an int (or a float) per element, a threshold a byte per
 * pixel; a compaction reads a byte per pixel and writes an index per pixel kept. */
static double bytes(void *p, int row)
{
    struct job *j = p;
    switch (job_of(row)) {
    case SCAN_JOB_THRESHOLD:
        return 2.0 * j->pixels;
    case SCAN_JOB_COMPACT:
        return (double)j->pixels + sizeof(unsigned) * (j->kept + 1.0);
    default:
        return 2.0 * sizeof(int) * j->n;
    }
}

const struct lab_job scan_job = {.setup = setup,
                                 .teardown = teardown,
                                 .launch = launch,
                                 .check = check,
                                 .bytes = bytes,
                                 .tune = tune};
