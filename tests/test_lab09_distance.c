/* lab09 tests. The output is integers (a) or floats copied from a table (z), so every check
 * is exact: bit for bit against the CPU reference (distance_cpu, itself checked against the
 * definition, distance_brute). Every mask of the lab, single white pixels at the centre and
 * in the corners, sizes 1 x 1, 1 x N, N x 1, 33 x 17 and 70 x 45 (no multiple of the 32 x 8
 * block), lines longer than the separable passes' bands, D from 1 to larger than the image; outputs poisoned before each run; every thread
 * order of the CPU backend, under CUDA_CPU_STRICT=1. Bad arguments: LAB_EINVAL, and the
 * output untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "distance.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct shape {
    unsigned w, h;
};
static const struct shape shapes[] = {{1, 1}, {1, 37}, {41, 1}, {33, 17}, {70, 45}};
/* D = 1 (only the white pixels themselves), 2 and 3 (where the window's corners matter:
 * 2 (D - 1)^2 < D^2), a middle one, and one past every side. */
static const unsigned dmaxes[] = {1, 2, 3, 9, 100};

/* Whether a case is past what the race checker runs in a moment, where every access is
 * recorded and every thread is a fiber: white pixels times the window each spreads over (or
 * gathers from), clipped to the image, past 2^17; or, for scatter_block_spread's block of 256
 * threads per pixel, images past 2^10 pixels. Races show as well in the smaller cases that
 * the same masks and kernels run. */
static int past_race_budget(enum distance_variant v, const unsigned char *mask, unsigned w,
                            unsigned h, unsigned dmax)
{
    size_t white = 0, side_x = 2 * (size_t)dmax - 1, side_y = side_x;
    if (!testkit_race_checker())
        return 0;
    if (v == DISTANCE_SCATTER_BLOCK_SPREAD && (size_t)w * h > 1024)
        return 1;
    for (size_t i = 0; i < (size_t)w * h; i++)
        white += mask[i] != 0;
    side_x = side_x < w ? side_x : w;
    side_y = side_y < h ? side_y : h;
    return white * side_x * side_y > ((size_t)1 << 17);
}

/* A fresh table of random floats, so that a wrong index shows. */
static void random_profile(float *table)
{
    testkit_floats(table, DISTANCE_LUT, -1.0f, 1.0f);
    assert_status(distance_set_profile(table), LAB_OK);
}

/* What v must give for the mask: a, or for the profile variant its z (as 4-byte words). */
static void expected(enum distance_variant v, const unsigned char *mask, unsigned w, unsigned h,
                     unsigned dmax, const float *table, uint32_t *want)
{
    distance_cpu(mask, w, h, dmax, want);
    if (distance_facts[v].profile) {
        float *z = malloc((size_t)w * h * sizeof *z);
        distance_profile_cpu(want, (size_t)w * h, dmax, table, z);
        memcpy(want, z, (size_t)w * h * sizeof *z);
        free(z);
    }
}

/* v on the mask, in every thread order, against the reference; `what` names the mask. */
static void check_mask(enum distance_variant v, const unsigned char *mask, unsigned w, unsigned h,
                       unsigned dmax, const float *table, const char *what)
{
    size_t n = (size_t)w * h, scratch_bytes = distance_scratch_bytes(v, w, h, dmax);
    if (past_race_budget(v, mask, w, h, dmax))
        return;
    uint32_t *want = malloc(4 * n), *got = malloc(4 * n);
    struct gpu_buf dmask = gpu_alloc(n), out = gpu_alloc(4 * n),
                   scratch = gpu_alloc(scratch_bytes ? scratch_bytes : 1);
    expected(v, mask, w, h, dmax, table, want);
    gpu_upload(dmask, mask, n);
    for (int o = 0; o < testkit_orders(n); o++) {
        size_t bad;
        testkit_set_order(o);
        testkit_case("%s, %s, %u x %u, D = %u, order %s", distance_variants[v].name, what, w, h,
                     dmax, testkit_order_name(o));
        gpu_poison(out);
        gpu_poison(scratch);
        assert_status(distance(v, dmask, w, h, dmax, scratch, out), LAB_OK);
        gpu_sync();
        gpu_download(got, out, 4 * n);
        if ((bad = lab_first_diff(got, want, n, 4)) < n)
            fail_msg("%s, %s, %u x %u, D = %u, order %s: pixel (%zu, %zu) is %s %g, want %g",
                     distance_variants[v].name, what, w, h, dmax, testkit_order_name(o), bad % w,
                     bad / w, distance_facts[v].profile ? "z" : "a",
                     distance_facts[v].profile ? (double)((float *)got)[bad] : (double)got[bad],
                     distance_facts[v].profile ? (double)((float *)want)[bad] : (double)want[bad]);
    }
    gpu_free(&dmask);
    gpu_free(&out);
    gpu_free(&scratch);
    free(want);
    free(got);
}

/* Every mask of the lab, at every shape and D. */
static void matches_cpu(int v)
{
    float table[DISTANCE_LUT];
    testkit_setenv("CUDA_CPU_STRICT", "1");
    random_profile(table);
    for (size_t s = 0; s < COUNT(shapes); s++)
        for (int k = 0; k < DISTANCE_MASKS; k++)
            for (size_t d = 0; d < COUNT(dmaxes); d++) {
                unsigned w = shapes[s].w, h = shapes[s].h;
                unsigned char *mask = malloc((size_t)w * h);
                distance_mask_fill(mask, w, h, k, testkit_next());
                check_mask(v, mask, w, h, dmaxes[d], table, distance_mask_names[k]);
                free(mask);
            }
}

/* One white pixel, at the centre and in each corner of 33 x 17, and at the centre of
 * 1 x 1: the whole window is seen, its far corners too, and nothing beyond it. */
static void single_pixel(int v)
{
    static const unsigned where[][2] = {{16, 8}, {0, 0}, {32, 0}, {0, 16}, {32, 16}};
    static const unsigned ds[] = {1, 2, 3, 4, 6, 40};
    float table[DISTANCE_LUT];
    unsigned char mask[33 * 17];
    random_profile(table);
    for (size_t p = 0; p < COUNT(where); p++)
        for (size_t d = 0; d < COUNT(ds); d++) {
            char what[64];
            memset(mask, 0, sizeof mask);
            mask[where[p][1] * 33 + where[p][0]] = 1;
            snprintf(what, sizeof what, "one white pixel at (%u, %u)", where[p][0], where[p][1]);
            check_mask(v, mask, 33, 17, ds[d], table, what);
        }
}

/* Lines longer than the passes' bands, so that their threads split rows and columns: the
 * row pass's bands (distance_band: 256 pixels, or 2 (D - 1)) overlap by D - 1; the column
 * pass's bands of DISTANCE_COLUMN_BAND rows hold a halo of min(D - 1, DISTANCE_HALO) rows
 * and read past it in global memory. 700 x 9 and 9 x 700, the sparse masks (the brute force
 * stays quick) and one white pixel at the far end (distances to D - 1 across bands), D = 3,
 * 40 and 200 (band 398, past the halo). */
static void long_lines(int v)
{
    static const struct shape longs[] = {{700, 9}, {9, 700}};
    static const unsigned ds[] = {3, 40, 200};
    float table[DISTANCE_LUT];
    random_profile(table);
    for (size_t s = 0; s < COUNT(longs); s++)
        for (int k = DISTANCE_POINTS; k <= DISTANCE_BLACK; k++)
            for (size_t d = 0; d < COUNT(ds); d++) {
                unsigned w = longs[s].w, h = longs[s].h;
                unsigned char *mask = malloc((size_t)w * h);
                distance_mask_fill(mask, w, h, k, testkit_next());
                if (k == DISTANCE_BLACK)
                    mask[(size_t)w * h - 5] = 1; /* in the last row, 5 pixels from its end */
                check_mask(v, mask, w, h, ds[d], table,
                           k == DISTANCE_BLACK ? "one white pixel at the end"
                                               : distance_mask_names[k]);
                free(mask);
            }
}

/* Masks whose white bytes are not 255: white is any nonzero byte. */
static void any_nonzero_is_white(int v)
{
    float table[DISTANCE_LUT];
    unsigned char mask[70 * 45];
    random_profile(table);
    testkit_bytes(mask, sizeof mask);
    for (size_t i = 0; i < sizeof mask; i++)
        mask[i] = mask[i] % 8 == 0 ? (unsigned char)(mask[i] | 1) : 0;
    check_mask(v, mask, 70, 45, 5, table, "white bytes 1 to 249");
}

static void reference_cpu(void)
{
    static const unsigned char m[3 * 5] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    static const uint32_t want3[3 * 5] = {9, 9, 5, 2, 1, 9, 9, 4, 1, 0, 9, 9, 5, 2, 1};
    uint32_t a[70 * 45], b[70 * 45];
    float table[DISTANCE_LUT];
    distance_cpu(m, 5, 3, 3, a);
    assert_memory_equal(a, want3, sizeof want3);
    distance_brute(m, 5, 3, 3, b);
    assert_memory_equal(b, want3, sizeof want3);
    /* the separable reference against the definition, on every mask, shape and D */
    for (size_t s = 0; s < COUNT(shapes); s++)
        for (int k = 0; k < DISTANCE_MASKS; k++)
            for (size_t d = 0; d < COUNT(dmaxes); d++) {
                unsigned char mask[70 * 45];
                unsigned w = shapes[s].w, h = shapes[s].h;
                distance_mask_fill(mask, w, h, k, testkit_next());
                distance_cpu(mask, w, h, dmaxes[d], a);
                distance_brute(mask, w, h, dmaxes[d], b);
                assert_memory_equal(a, b, (size_t)w * h * sizeof *a);
            }
    assert_int_equal(distance_profile_index(0, 64), 0);
    assert_int_equal(distance_profile_index(64 * 64, 64), DISTANCE_LUT - 1);
    assert_int_equal(distance_profile_index(1u << 30, 32768), DISTANCE_LUT - 1);
    distance_profile_table(table);
    assert_true(table[0] == 1.0f && table[DISTANCE_LUT - 1] == 0.0f);
}

/* The masks: deterministic, and about as white as distance.h says. */
static void masks(void)
{
    static const double lo[DISTANCE_MASKS] = {0.2, 0.005, 0.02, 0, 1},
                        hi[DISTANCE_MASKS] = {0.4, 0.02, 0.08, 0, 1};
    enum { W = 500, H = 300 };
    unsigned char *a = malloc(W * H), *b = malloc(W * H);
    for (int k = 0; k < DISTANCE_MASKS; k++) {
        size_t white = 0;
        distance_mask_fill(a, W, H, k, 7);
        distance_mask_fill(b, W, H, k, 7);
        assert_memory_equal(a, b, W * H);
        for (size_t i = 0; i < W * H; i++)
            white += a[i] != 0;
        if (white < lo[k] * W * H || white > hi[k] * W * H)
            fail_msg("mask %s: %.3f white, want %.3f to %.3f", distance_mask_names[k],
                     (double)white / (W * H), lo[k], hi[k]);
    }
    free(a);
    free(b);
}

/* The output, a guard word past it, still poisoned. */
static void untouched(struct gpu_buf out)
{
    unsigned char *got = malloc(out.bytes);
    gpu_sync();
    gpu_download(got, out, out.bytes);
    for (size_t i = 0; i < out.bytes; i++)
        if (got[i] != 0xFF)
            fail_msg("byte %zu of the output was written by a call that returned LAB_EINVAL", i);
    free(got);
}

static void args_rejected(void)
{
    enum { W = 20, H = 10 };
    struct gpu_buf mask = gpu_alloc(W * H), out = gpu_alloc(4 * W * H + 4), none = {NULL, 0};
    struct gpu_buf scratch = gpu_alloc(distance_scratch_bytes(DISTANCE_EXACT_SEPARABLE, W, H, 3));
    struct gpu_buf small_mask = {mask.ptr, W * H - 1}, small_out = {out.ptr, 4 * W * H - 1};
    struct gpu_buf small_scratch = {scratch.ptr, scratch.bytes - 1};
    gpu_poison(out);
    for (int v = 0; v < DISTANCE_VARIANTS; v++) {
        assert_status(distance(v, mask, W, H, 0, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, W, H, DISTANCE_MAX_D + 1, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, 0, H, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, W, 0, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, DISTANCE_MAX_SIDE + 1, 1, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, 1, DISTANCE_MAX_SIDE + 1, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, none, W, H, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, small_mask, W, H, 3, scratch, out), LAB_EINVAL);
        assert_status(distance(v, mask, W, H, 3, scratch, none), LAB_EINVAL);
        assert_status(distance(v, mask, W, H, 3, scratch, small_out), LAB_EINVAL);
        if (distance_scratch_bytes(v, W, H, 3)) {
            assert_status(distance(v, mask, W, H, 3, none, out), LAB_EINVAL);
            assert_status(distance(v, mask, W, H, 3, small_scratch, out), LAB_EINVAL);
        }
        untouched(out);
    }
    assert_status(distance(DISTANCE_VARIANTS, mask, W, H, 3, scratch, out), LAB_EINVAL);
    assert_status(distance((enum distance_variant) - 1, mask, W, H, 3, scratch, out), LAB_EINVAL);
    assert_status(distance_set_profile(NULL), LAB_EINVAL);
    untouched(out);
    assert_int_equal(distance_scratch_bytes(DISTANCE_VARIANTS, W, H, 3), 0);
    assert_int_equal(distance_scratch_bytes(DISTANCE_GATHER_RINGS, W, H, 3), 0);
    assert_int_equal(distance_scratch_bytes(DISTANCE_EXACT_SEPARABLE, W, H, 0), 0);
    assert_int_equal(distance_scratch_bytes(DISTANCE_EXACT_SEPARABLE, 0, H, 3), 0);
    gpu_free(&mask);
    gpu_free(&out);
    gpu_free(&scratch);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),        TESTKIT_HOST(masks),        TESTKIT_GIVEN(args_rejected),
    TESTKIT_VARIANTS(matches_cpu),      TESTKIT_EACH(single_pixel), TESTKIT_EACH(long_lines),
    TESTKIT_EACH(any_nonzero_is_white),
};

TESTKIT_MAIN("lab09_distance", tests, distance_variants, DISTANCE_VARIANTS)
