/* lab08 tests: every variant against the CPU reference of its case, bit for bit, on shapes
 * chosen to break index arithmetic (a repeater that does not divide the target, R = 1,
 * R > 1024, rw != rh, a target of one row or one column, a repeater larger than the
 * target) and lattices with gaps, one copy a point and up to four, negative components;
 * with fresh random data, the target poisoned and a poisoned guard after it, under every
 * thread order; bad arguments refused with nothing written.
 *
 * Exact for case 2 too: the repeater holds integers from 0 to 255 (8-bit grey levels, the
 * engraving's), so every sum of up to LATTICE_MAX_CANDIDATES of them is an integer below
 * 2^24, exact in float in any order of addition (the atomics' order changes from run to run),
 * and the mean is one division, correctly rounded everywhere. float_values.* holds the
 * lattice variants to the bound that any order allows on values that are not integers. */
#include <math.h>
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
#include "repeater.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { GUARD = 64 }; /* poisoned floats after the target, which nothing may write */

struct shape {
    size_t width, height, rw, rh;
    int ux, uy, vx, vy; /* case 2 */
    const char *why;
};

static const struct shape tiles[] = {
    {1, 1, 1, 1, 0, 0, 0, 0, "one point"},
    {37, 5, 1, 1, 0, 0, 0, 0, "R = 1"},
    {250, 130, 100, 100, 0, 0, 0, 0, "R = 100 does not divide W or H"},
    {1, 300, 5, 3, 0, 0, 0, 0, "W = 1"},
    {300, 1, 5, 3, 0, 0, 0, 0, "H = 1"},
    {1001, 7, 1500, 3, 0, 0, 0, 0, "rw = 1500 > 1024, and > W"},
    {2100, 9, 1025, 2, 0, 0, 0, 0, "rw = 1025: two copies and a piece"},
    {523, 67, 17, 31, 0, 0, 0, 0, "rw != rh, both odd"},
    {5000, 3, 3, 2, 0, 0, 0, 0, "rw = 3: four floats span two copies"},
    {64, 40, 128, 100, 0, 0, 0, 0, "a repeater larger than the target"},
    {1027, 33, 64, 100, 0, 0, 0, 0, "W one past a multiple of 4"},
    {513, 1030, 33, 7, 0, 0, 0, 0, "H past 1024 rows"},
};

static const struct shape lattices[] = {
    {97, 61, 10, 10, 15, 0, 0, 15, "gaps: points no copy covers"},
    {97, 61, 10, 10, 10, 0, 0, 10, "one copy a point: the tiling"},
    {200, 150, 30, 30, 18, 3, -3, 18, "one to four copies a point"},
    {123, 77, 20, 12, -7, 11, 13, 5, "negative components, rw != rh"},
    {1, 50, 4, 4, 2, 1, -1, 2, "W = 1"},
    {50, 1, 4, 4, 2, 1, -1, 2, "H = 1"},
    {64, 48, 1, 1, 1, 0, 0, 1, "R = 1"},
    {300, 20, 1100, 2, 500, 1, 0, 2, "rw = 1100 > 1024"},
    {333, 211, 45, 45, -27, -4, 4, -27, "both vectors pointing down-left"},
    {400, 30, 12, 12, 10, 0, 3, 40, "periods 10 and 400: one period's rows are the target's"},
};

/* Integer grey levels, about a third of them 0 (no value: left out of the mean). */
static void grey_levels(float *x, size_t n)
{
    int *k = malloc(n * sizeof(int) + 1);
    testkit_ints(k, n, -120, 255);
    for (size_t i = 0; i < n; i++)
        x[i] = k[i] > 0 ? (float)k[i] : 0.0f;
    free(k);
}

/* The reference's target for shape s. */
static void reference(const struct shape *s, int lattice, const float *repeater, float *want)
{
    struct lattice l;
    if (!lattice) {
        tile_cpu_basic(want, s->width, s->height, repeater, s->rw, s->rh);
        return;
    }
    assert_int_equal(lattice_plan(&l, s->ux, s->uy, s->vx, s->vy, s->rw, s->rh), LAB_OK);
    lattice_cpu_target(want, s->width, s->height, repeater, &l);
}

static int run(enum repeater_variant v, const struct shape *s, struct gpu_buf target,
               struct gpu_buf repeater, struct gpu_buf scratch)
{
    if (repeater_facts[v].lattice)
        return repeat_lattice(v, target, s->width, s->height, repeater, s->rw, s->rh, s->ux, s->uy,
                              s->vx, s->vy, scratch);
    return repeat_tile(v, target, s->width, s->height, repeater, s->rw, s->rh);
}

/* Fails unless got[0 .. n) is want bit for bit (within tol[i] when tol is given) and the
 * GUARD floats after it are still poison. */
static void compare(const char *what, const struct shape *s, const float *got, const float *want,
                    const float *tol)
{
    size_t n = s->width * s->height;
    for (size_t i = 0; i < n; i++) {
        int ok = tol ? fabsf(got[i] - want[i]) <= tol[i] : !memcmp(&got[i], &want[i], 4);
        if (!ok)
            fail_msg("%s: target[%zu][%zu] = %.9g, want %.9g", what, i / s->width, i % s->width,
                     got[i], want[i]);
    }
    for (size_t i = n; i < n + GUARD; i++)
        if (memcmp(&got[i], &got[n], sizeof(float)) || !isnan(got[n]))
            fail_msg("%s: the float %zu past the target's end was written", what, i - n);
}

/* Variant v on shape s with the repeater's values from fill, under every thread order,
 * against want (within tol when given). */
static void check_shape(enum repeater_variant v, const struct shape *s, const float *repeater,
                        const float *want, const float *tol)
{
    size_t n = s->width * s->height, cells = s->rw * s->rh;
    float *got = malloc((n + GUARD) * sizeof(float));
    struct gpu_buf all = gpu_alloc((n + GUARD) * sizeof(float)), target = {all.ptr, n * 4};
    struct gpu_buf drep = gpu_alloc(cells * sizeof(float));
    struct gpu_buf scratch = gpu_alloc(repeat_scratch_bytes(v, s->width, s->height) + 1);
    char what[256];
    gpu_upload(drep, repeater, cells * sizeof(float));
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        snprintf(what, sizeof what, "%s, %zu x %zu, repeater %zu x %zu (%s), order %s",
                 repeater_variants[v].name, s->width, s->height, s->rw, s->rh, s->why,
                 testkit_order_name(o));
        testkit_case("%s", what);
        gpu_poison(all);
        gpu_poison(scratch);
        assert_status(run(v, s, target, drep, scratch), LAB_OK);
        gpu_sync();
        gpu_download(got, all, (n + GUARD) * sizeof(float));
        compare(what, s, got, want, tol);
    }
    gpu_free(&all);
    gpu_free(&drep);
    gpu_free(&scratch);
    free(got);
}

/* Every shape of v's case, exactly: random floats for case 1, grey levels for case 2. */
static void matches_cpu(int v)
{
    int lattice = (int)repeater_facts[v].lattice;
    const struct shape *shapes = lattice ? lattices : tiles;
    size_t count = lattice ? COUNT(lattices) : COUNT(tiles);
    for (size_t k = 0; k < count; k++) {
        const struct shape *s = &shapes[k];
        size_t n = s->width * s->height, cells = s->rw * s->rh;
        float *repeater, *want;
        if (n > testkit_max_size())
            continue;
        repeater = malloc(cells * sizeof(float));
        want = malloc(n * sizeof(float) + 1);
        if (lattice)
            grey_levels(repeater, cells);
        else
            testkit_floats(repeater, cells, -1e3f, 1e3f);
        reference(s, lattice, repeater, want);
        check_shape((enum repeater_variant)v, s, repeater, want, NULL);
        free(repeater);
        free(want);
    }
}

/* Case 2 on values in (0, 1), whose sums round: k values added in any order are off the
 * exact sum by at most (k - 1) 2^-24 of it (all positive), so the kernel's and the
 * reference's sums differ by at most 2 (k - 1) 2^-24 of it, and with the division's
 * rounding on each side their means by 2 k 2^-24 of the mean (to first order; 2.01 k
 * for the rest). k: the copies that add at the point. Case 1 copies: exact. */
static void float_values(int v)
{
    const struct shape *s = repeater_facts[v].lattice ? &lattices[2] : &tiles[2];
    size_t n = s->width * s->height, cells = s->rw * s->rh;
    float *repeater = malloc(cells * sizeof(float)), *want = malloc(n * sizeof(float));
    float *tol = malloc(n * sizeof(float)), *sums = malloc(n * sizeof(float));
    unsigned *count = malloc(n * sizeof(unsigned));
    struct lattice l;
    testkit_floats(repeater, cells, 0.0f, 1.0f);
    reference(s, (int)repeater_facts[v].lattice, repeater, want);
    if (repeater_facts[v].lattice) {
        lattice_plan(&l, s->ux, s->uy, s->vx, s->vy, s->rw, s->rh);
        lattice_cpu_copies(sums, count, s->width, s->height, repeater, &l);
        for (size_t i = 0; i < n; i++)
            tol[i] = 2.01f * (float)count[i] * 0x1p-24f * want[i];
    }
    check_shape((enum repeater_variant)v, s, repeater, want,
                repeater_facts[v].lattice ? tol : NULL);
    free(repeater);
    free(want);
    free(tol);
    free(sums);
    free(count);
}

/* The seed's host cases give the reference's target: 1.1 = 1.2 = 1.2 bis = 1.3, 2.1 = 2.2
 * (the same order of addition: bit for bit on any values). */
static void host_cases_agree(void)
{
    typedef void (*tile_fn)(float *, size_t, size_t, const float *, size_t, size_t);
    static const tile_fn fns[] = {tile_cpu_indexed, tile_cpu_pointer, tile_cpu_repeater_loop};
    for (size_t k = 0; k < COUNT(tiles); k++) {
        const struct shape *s = &tiles[k];
        size_t n = s->width * s->height;
        float *rep = malloc(s->rw * s->rh * sizeof(float)), *want = malloc(n * 4 + GUARD * 4),
              *got = malloc(n * 4 + GUARD * 4);
        testkit_floats(rep, s->rw * s->rh, -1.0f, 1.0f);
        tile_cpu_basic(want, s->width, s->height, rep, s->rw, s->rh);
        for (size_t f = 0; f < COUNT(fns); f++) {
            memset(got, 0xff, n * 4 + GUARD * 4);
            fns[f](got, s->width, s->height, rep, s->rw, s->rh);
            compare("a host case 1", s, got, want, NULL);
        }
        free(rep);
        free(want);
        free(got);
    }
    for (size_t k = 0; k < COUNT(lattices); k++) {
        const struct shape *s = &lattices[k];
        size_t n = s->width * s->height;
        float *rep = malloc(s->rw * s->rh * sizeof(float)), *want = malloc(n * 4 + 1),
              *got = malloc(n * 4 + GUARD * 4);
        unsigned *count = malloc(n * sizeof(unsigned) + 1);
        struct lattice l;
        testkit_floats(rep, s->rw * s->rh, 0.0f, 1.0f);
        assert_int_equal(lattice_plan(&l, s->ux, s->uy, s->vx, s->vy, s->rw, s->rh), LAB_OK);
        lattice_cpu_target(want, s->width, s->height, rep, &l);
        memset(got, 0xff, n * 4 + GUARD * 4);
        lattice_cpu_copies(got, count, s->width, s->height, rep, &l);
        compare("host case 2.2", s, got, want, NULL);
        free(rep);
        free(want);
        free(got);
        free(count);
    }
}

/* Small targets worked by hand: the definitions of repeater.h. */
static void reference_by_hand(void)
{
    const float rep[6] = {1, 2, 3, 4, 5, 6}; /* 3 x 2 */
    const float tile[5 * 3] = {1, 2, 3, 1, 2, 4, 5, 6, 4, 5, 1, 2, 3, 1, 2};
    /* u = (2, 0), v = (0, 2) over a 3 x 2 repeater of 0, 2, 4 / 6, 0, 8: column 0 of a
     * copy overlaps column 2 of its left neighbour; row pairs do not overlap. */
    const float rep2[6] = {0, 2, 4, 6, 0, 8};
    const float lat[5 * 2] = {4, 2, 4, 2, 4, 7, 0, 7, 0, 7};
    float got[15];
    struct lattice l;
    tile_cpu_basic(got, 5, 3, rep, 3, 2);
    assert_memory_equal(got, tile, sizeof tile);
    assert_int_equal(lattice_plan(&l, 2, 0, 0, 2, 3, 2), LAB_OK);
    lattice_cpu_target(got, 5, 2, rep2, &l);
    assert_memory_equal(got, lat, sizeof lat);
    assert_int_equal(lattice_plan(&l, 2, 1, 4, 2, 3, 2), LAB_EINVAL);     /* parallel */
    assert_int_equal(lattice_plan(&l, 0, 0, 0, 2, 3, 2), LAB_EINVAL);     /* u = 0 */
    assert_int_equal(lattice_plan(&l, 512, 0, 0, 2, 3, 2), LAB_EINVAL);   /* a component > 511 */
    assert_int_equal(lattice_plan(&l, 1, 0, 0, 1, 100, 100), LAB_EINVAL); /* 10^4 a point */
}

/* Fails unless the GUARD-float buffer buf still holds the poison gpu_alloc left. */
static void untouched(struct gpu_buf buf, const char *what)
{
    unsigned char got[GUARD * sizeof(float)];
    gpu_sync();
    gpu_download(got, buf, sizeof got);
    for (size_t i = 0; i < sizeof got; i++)
        if (got[i] != 0xff)
            fail_msg("%s: refused, but byte %zu of the target was written", what, i);
}

#define REFUSED(call)                    \
    do {                                 \
        gpu_poison(big);                 \
        assert_status(call, LAB_EINVAL); \
        untouched(big, #call);           \
    } while (0)

/* Bad arguments: LAB_EINVAL, nothing written. The target holds 8 x 8 floats. */
static void args_rejected(void)
{
    struct gpu_buf big = gpu_alloc(GUARD * sizeof(float)), rep = gpu_alloc(64 * sizeof(float));
    struct gpu_buf scratch = gpu_alloc(GUARD * sizeof(unsigned)), none = {NULL, 0};
    struct gpu_buf odd = {(char *)big.ptr + 2, 32}, huge_rep = {rep.ptr, (size_t)1 << 40};
    for (int v = 0; v < REPEATER_VARIANTS; v++) {
        enum repeater_variant e = (enum repeater_variant)v;
        if (repeater_facts[v].lattice) {
            REFUSED(repeat_lattice(e, big, 8, 8, rep, 0, 4, 3, 0, 0, 3, scratch)); /* R = 0 */
            REFUSED(repeat_lattice(e, big, 8, 8, rep, 4, 4, 2, 1, 4, 2, scratch)); /* parallel */
            REFUSED(repeat_lattice(e, big, 8, 9, rep, 4, 4, 3, 0, 0, 3, scratch)); /* 72 > 64 */
            REFUSED(repeat_lattice(e, big, 8, 8, rep, 9, 8, 3, 0, 0, 3, scratch)); /* rep 72 */
            REFUSED(repeat_lattice(e, none, 8, 8, rep, 4, 4, 3, 0, 0, 3, scratch));
            REFUSED(repeat_lattice(e, odd, 2, 2, rep, 4, 4, 3, 0, 0, 3, scratch));
            REFUSED(repeat_lattice(e, big, 8, 8, rep, 4, 4, 600, 0, 0, 3, scratch));
            REFUSED(repeat_tile(e, big, 8, 8, rep, 4, 4)); /* a case-2 variant */
            assert_status(repeat_lattice(e, big, 0, 8, rep, 4, 4, 3, 0, 0, 3, none), LAB_OK);
            if (v != LATTICE_GATHER) /* the scatter's counts, the period's floats */
                REFUSED(repeat_lattice(e, big, 8, 8, rep, 4, 4, 3, 0, 0, 3, none));
            continue;
        }
        REFUSED(repeat_tile(e, big, 8, 8, rep, 0, 4)); /* R = 0 */
        REFUSED(repeat_tile(e, big, 8, 8, rep, 4, 0));
        REFUSED(repeat_tile(e, big, 9, 8, rep, 4, 4));  /* 72 floats > 64 */
        REFUSED(repeat_tile(e, big, 8, 8, rep, 65, 1)); /* the repeater's buffer */
        REFUSED(repeat_tile(e, none, 8, 8, rep, 4, 4));
        REFUSED(repeat_tile(e, big, 8, 8, none, 4, 4));
        REFUSED(repeat_tile(e, odd, 2, 2, rep, 4, 4));               /* not 4-byte aligned */
        REFUSED(repeat_tile(e, big, 8, 8, rep, (size_t)1 << 21, 1)); /* over the most */
        REFUSED(repeat_lattice(e, big, 8, 8, rep, 4, 4, 3, 0, 0, 3, scratch)); /* case 1 */
        if (repeater_facts[v].smem == 1) /* 64 MiB of shared memory: no GPU has it */
            REFUSED(repeat_tile(e, big, 8, 8, huge_rep, 4096, 4096));
        if (repeater_facts[v].smem == 2) /* a row of 4 MiB */
            REFUSED(repeat_tile(e, big, 8, 8, huge_rep, (size_t)1 << 20, 1));
        assert_status(repeat_tile(e, big, 0, 8, rep, 4, 4), LAB_OK);
        assert_status(repeat_tile(e, none, 8, 0, rep, 4, 4), LAB_OK);
    }
    REFUSED(repeat_tile(REPEATER_VARIANTS, big, 8, 8, rep, 4, 4));
    REFUSED(repeat_tile_memcpy2d(big, 8, 8, rep, 0, 4));
    REFUSED(repeat_tile_memcpy2d(big, 9, 8, rep, 4, 4));
    REFUSED(repeat_memset(big, 9, 8));
    REFUSED(repeat_memset(none, 8, 8));
    gpu_free(&big);
    gpu_free(&rep);
    gpu_free(&scratch);
}

/* The library row and the ceiling, given code: cudaMemcpy2D's doubling against the
 * reference on every case-1 shape, and cudaMemset's zeros. */
static void library_rows(void)
{
    for (size_t k = 0; k < COUNT(tiles); k++) {
        const struct shape *s = &tiles[k];
        size_t n = s->width * s->height, cells = s->rw * s->rh;
        float *rep = malloc(cells * sizeof(float)), *want = malloc(n * sizeof(float) + 1),
              *got = malloc((n + GUARD) * sizeof(float));
        struct gpu_buf all = gpu_alloc((n + GUARD) * sizeof(float)), target = {all.ptr, n * 4};
        struct gpu_buf drep = gpu_alloc(cells * sizeof(float));
        testkit_floats(rep, cells, -1e3f, 1e3f);
        tile_cpu_basic(want, s->width, s->height, rep, s->rw, s->rh);
        gpu_upload(drep, rep, cells * sizeof(float));
        gpu_poison(all);
        assert_status(repeat_tile_memcpy2d(target, s->width, s->height, drep, s->rw, s->rh),
                      LAB_OK);
        gpu_sync();
        gpu_download(got, all, (n + GUARD) * sizeof(float));
        compare("memcpy2d_doubling", s, got, want, NULL);
        memset(want, 0, n * sizeof(float));
        assert_status(repeat_memset(target, s->width, s->height), LAB_OK);
        gpu_sync();
        gpu_download(got, all, (n + GUARD) * sizeof(float));
        compare("memset", s, got, want, NULL);
        gpu_free(&all);
        gpu_free(&drep);
        free(rep);
        free(want);
        free(got);
    }
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_by_hand), TESTKIT_HOST(host_cases_agree), TESTKIT_GIVEN(args_rejected),
    TESTKIT_GIVEN(library_rows),     TESTKIT_VARIANTS(matches_cpu),  TESTKIT_EACH(float_values),
};

TESTKIT_MAIN("lab08_repeater", tests, repeater_variants, REPEATER_VARIANTS)
