/* lab09's bench rows: the variants of distance.h, then the CPU reference and, on a GPU whose
 * toolkit has NPP, nppiDistanceTransformPBA, each checked exactly against the reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

const struct lab_row extra_rows[ROWS - DISTANCE_VARIANTS] = {
    {"cpu (one core)", LAB_ROW_CPU, "the separable reference on one CPU core"},
    {"npp_pba", LAB_ROW_LIBRARY,
     "nppiDistanceTransformPBA_8u16u_C1R_Ctx, NPP's exact transform (floor of the distance)"},
};

const char *row_name(int row)
{
    return row < DISTANCE_VARIANTS ? distance_variants[row].name : extra_rows[row - CPU].name;
}

/* 1 when this build has the NPP row: a CUDA build that found NPP's header (lab.mk). Asked
 * at 64 x 64, the least NPP's transform takes. */
int have_npp(void)
{
#ifdef BACKEND_CUDA
    return distance_npp_scratch_bytes(64, 64) > 0;
#else
    return 0;
#endif
}

struct job {
    unsigned w, h, dmax;
    size_t n;
    unsigned char *mask;
    uint32_t *want, *got; /* a, or for exact_profile z as 4-byte words */
    float *zwant, table[DISTANCE_LUT];
    uint16_t *got16;
    int npp_ok; /* NPP's row can run: a white pixel (without one its output is undefined) and
                 * sides of 64 or more (its minimum on the H100, CUDA 13) */
    struct gpu_buf dmask, out, scratch, out16, npp_scratch;
};

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->dmask);
    gpu_free(&j->out);
    gpu_free(&j->scratch);
    gpu_free(&j->out16);
    gpu_free(&j->npp_scratch);
    free(j->mask);
    free(j->want);
    free(j->got);
    free(j->zwant);
    free(j->got16);
    free(j);
}

/* NPP's buffers where its row can run; else, once, the line saying why it does not. */
static void setup_npp(struct job *j)
{
    static int said;
    j->npp_ok = have_npp() && memchr(j->mask, 255, j->n) && j->w >= 64 && j->h >= 64;
    if (j->npp_ok) {
#ifdef BACKEND_CUDA
        j->out16 = gpu_alloc(2 * j->n);
        j->npp_scratch = gpu_alloc(distance_npp_scratch_bytes(j->w, j->h));
#endif
    } else if (have_npp() && !said) {
        said = 1;
        printf("lab09: no npp_pba row for this mask: NPP's transform needs a white pixel and "
               "sides of 64 or more\n");
    }
}

static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    size_t scratch = distance_scratch_bytes(DISTANCE_EXACT_SEPARABLE, s.width, s.height, opt.dmax);
    if (!j)
        return NULL;
    j->w = (unsigned)s.width;
    j->h = (unsigned)s.height;
    j->n = s.n;
    j->dmax = opt.dmax;
    j->mask = malloc(j->n);
    j->want = malloc(4 * j->n);
    j->got = malloc(4 * j->n);
    j->zwant = malloc(4 * j->n);
    j->got16 = malloc(2 * j->n);
    if (!j->mask || !j->want || !j->got || !j->zwant || !j->got16) {
        teardown(j);
        return NULL;
    }
    distance_mask_fill(j->mask, j->w, j->h, opt.mask, seed);
    distance_cpu(j->mask, j->w, j->h, j->dmax, j->want);
    distance_profile_table(j->table);
    distance_profile_cpu(j->want, j->n, j->dmax, j->table, j->zwant);
    if (distance_set_profile(j->table) != LAB_OK)
        exit(1);
    j->dmask = gpu_alloc(j->n);
    gpu_upload(j->dmask, j->mask, j->n);
    j->out = gpu_alloc(4 * j->n);
    j->scratch = gpu_alloc(scratch);
    setup_npp(j);
    return j;
}

static int launch(void *p, int row)
{
    struct job *j = p;
    if (row == CPU) {
        distance_cpu(j->mask, j->w, j->h, j->dmax, j->got);
        return LAB_OK;
    }
#ifdef BACKEND_CUDA
    if (row == NPP && !j->npp_ok)
        return LAB_EINVAL;
    if (row == NPP)
        return distance_npp(j->dmask, j->w, j->h, j->npp_scratch, j->out16);
#endif
    return distance((enum distance_variant)row, j->dmask, j->w, j->h, j->dmax, j->scratch, j->out);
}

static unsigned isqrt(uint32_t a)
{
    unsigned r = (unsigned)sqrt((double)a);
    while ((uint64_t)r * r > a)
        r--;
    while ((uint64_t)(r + 1) * (r + 1) <= a)
        r++;
    return r;
}

/* NPP gives floor(|p - q|) without a cap: min(that, D) = floor(sqrt(a)) exactly, since a <
 * D^2 means a = |p - q|^2, and a = D^2 means |p - q| >= D. */
static int check_npp(struct job *j, char *why, size_t why_size)
{
    for (size_t i = 0; i < j->n; i++) {
        unsigned want = isqrt(j->want[i]), got = j->got16[i] < j->dmax ? j->got16[i] : j->dmax;
        if (got != want) {
            snprintf(why, why_size, "pixel (%zu, %zu): min(%u, D) = %u, want floor(sqrt(%u)) = %u",
                     i % j->w, i / j->w, j->got16[i], got, j->want[i], want);
            return LAB_WRONG;
        }
    }
    return LAB_OK;
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    const uint32_t *want;
    size_t bad;
    int status;
    gpu_poison(row == NPP ? j->out16 : j->out);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    if (row == NPP) {
        gpu_download(j->got16, j->out16, 2 * j->n);
        return check_npp(j, why, why_size);
    }
    gpu_download(j->got, j->out, 4 * j->n);
    want = distance_facts[row].profile ? (const uint32_t *)j->zwant : j->want;
    if ((bad = lab_first_diff(j->got, want, j->n, 4)) < j->n) {
        snprintf(why, why_size, "pixel (%zu, %zu) is %g, want %g", bad % j->w, bad / j->w,
                 distance_facts[row].profile ? (double)((float *)j->got)[bad] : j->got[bad],
                 distance_facts[row].profile ? (double)j->zwant[bad] : j->want[bad]);
        return LAB_WRONG;
    }
    return LAB_OK;
}

/* The fewest bytes: the mask read (1 a pixel) and the output written (4; NPP's 2). */
static double bytes(void *p, int row)
{
    return (row == NPP ? 3.0 : 5.0) * ((struct job *)p)->n;
}

/* For run --png: the mask on the left, a variant's field on the right (white at the mask,
 * black at the cap: 255 (1 - sqrt(a) / D); the profile from -1 to 1 for exact_profile), a
 * grey gap between. */
enum { GAP = 4 };
static int image_size(const void *p, int row, size_t *width, size_t *height)
{
    const struct job *j = p;
    *width = 2 * j->w + GAP;
    *height = j->h;
    return row < DISTANCE_VARIANTS;
}
static void image_row(const void *p, int row, size_t y, unsigned char *rgb)
{
    const struct job *j = p;
    int profile = distance_facts[row].profile;
    for (size_t x = 0; x < 2 * j->w + GAP; x++) {
        size_t i = y * j->w + x - j->w - GAP;
        double v = 128;
        if (x < j->w)
            v = j->mask[y * j->w + x] ? 255 : 0;
        else if (x >= j->w + GAP && profile)
            v = 127.5 * (1.0 + ((const float *)j->got)[i]);
        else if (x >= j->w + GAP)
            v = 255.0 * (1.0 - sqrt((double)j->got[i]) / j->dmax);
        rgb[3 * x] = rgb[3 * x + 1] = rgb[3 * x + 2] = (unsigned char)(v + 0.5);
    }
}

const struct lab_job distance_job = {
    .setup = setup,
    .teardown = teardown,
    .launch = launch,
    .check = check,
    .bytes = bytes,
    .image_size = image_size,
    .image_row = image_row,
};
