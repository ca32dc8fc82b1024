/* lab05 tests: every variant against the CPU loop, every bin exactly, on the three inputs
 * (uniform bytes, one byte repeated, the image), on sizes that are not multiples of a
 * vector, a warp or a block (0, 1, 3, 15, 17, 4099, 30001, 1000003, 2^24 + 1), with the
 * input at an aligned address and 1, 2 and 3 bytes past one, fresh random data, the counts
 * in the middle of a poisoned buffer (nothing else written), under every thread order of the
 * CPU backend. Bad arguments: LAB_EINVAL, and nothing written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "histogram.h"
#include "lab.h"
#include "testkit.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const size_t sizes[] = {0, 1, 3, 15, 17, 4099, 30001, 1000003, (1u << 24) + 1};

/* Counts of poison on either side of the HIST_BINS counts. */
enum { SPARE = 16, POISON = 0xffffffffu };

/* n bytes of input d, fresh: a random byte for same, random bytes for uniform. */
static void fill(enum hist_data d, unsigned char *x, size_t n)
{
    histogram_fill(d, x, n, testkit_next());
}

/* Variant v (or the race kernel, v = -1) on x[0..n) placed `shift` bytes past an aligned
 * start, under every thread order: HIST_BINS counts, each exact, and the SPARE counts on
 * either side untouched. */
static void check_counts(enum hist_variant v, enum hist_data d, const unsigned char *x, size_t n,
                         size_t shift)
{
    const char *name = hist_variants[v].name, *data = hist_data_names[d];
    unsigned want[HIST_BINS], got[HIST_BINS + 2 * SPARE];
    struct gpu_buf din = gpu_alloc(n + shift + 1), dout = gpu_alloc(sizeof got);
    struct gpu_buf in = {(unsigned char *)din.ptr + shift, n},
                   out = {(unsigned *)dout.ptr + SPARE, HIST_BINS * sizeof(unsigned)};
    histogram_cpu(x, n, want);
    gpu_upload(in, x, n);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %s, n = %zu, in at +%zu, order %s", name, data, n, shift,
                     testkit_order_name(o));
        gpu_poison(dout);
        assert_status(histogram(v, in, n, out), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, sizeof got);
        for (int b = 0; b < HIST_BINS; b++)
            if (got[SPARE + b] != want[b])
                fail_msg("%s, %s, n = %zu, in at +%zu, order %s: bin %d counted %u, want %u", name,
                         data, n, shift, testkit_order_name(o), b, got[SPARE + b], want[b]);
        for (int k = 0; k < SPARE; k++)
            if (got[k] != POISON || got[SPARE + HIST_BINS + k] != POISON)
                fail_msg("%s, %s, n = %zu, order %s: a count outside the 256 bins was written",
                         name, data, n, testkit_order_name(o));
    }
    gpu_free(&din);
    gpu_free(&dout);
}

/* On the CPU backend, where every thread of global_atomic is a fiber, 2^24 + 1 bytes run
 * for the grid-stride variants only, to keep the suite fast there. */
static int skip_on_cpu_backend(enum hist_variant v, size_t n)
{
#ifdef BACKEND_CPU
    return n > 1000003 && !hist_facts[v].grid_stride;
#else
    (void)v;
    (void)n;
    return 0;
#endif
}

/* Every size and input at an aligned start. */
static void counts_match(int v)
{
    for (size_t s = 0; s < COUNT(sizes); s++)
        for (int d = 0; d < HIST_DATA; d++) {
            size_t n = sizes[s];
            unsigned char *x;
            if (n > testkit_max_size() || skip_on_cpu_backend(v, n))
                continue;
            x = malloc(n + 1);
            fill((enum hist_data)d, x, n);
            check_counts((enum hist_variant)v, (enum hist_data)d, x, n, 0);
            free(x);
        }
}

/* The input 1, 2 and 3 bytes past a 16-byte boundary: the wide loads must count the head
 * before the first boundary and the tail after the last whole vector, whatever the
 * alignment. Sizes up to 1000003 (the 2^24 + 1 of counts_match adds no new alignment). */
static void unaligned_input(int v)
{
    for (size_t s = 0; s < COUNT(sizes) && sizes[s] <= 1000003; s++)
        for (size_t shift = 1; shift <= 3; shift++)
            for (int d = 0; d < HIST_DATA; d++) {
                size_t n = sizes[s];
                unsigned char *x;
                if (n > testkit_max_size())
                    continue;
                x = malloc(n + 1);
                fill((enum hist_data)d, x, n);
                check_counts((enum hist_variant)v, (enum hist_data)d, x, n, shift);
                free(x);
            }
}

static void reference_cpu(void)
{
    static const unsigned char x[] = {0, 255, 7, 7, 0, 7};
    unsigned counts[HIST_BINS], sum = 0, bins = 0;
    unsigned char *image = malloc(1u << 20);
    histogram_cpu(x, COUNT(x), counts);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[7], 3);
    assert_int_equal(counts[255], 1);
    assert_int_equal(counts[1], 0);
    histogram_cpu(x, 0, counts);
    assert_int_equal(counts[7], 0);
    /* the image: a broad histogram (many bins used) with one bin far above the rest */
    histogram_fill(HIST_IMAGE, image, 1u << 20, 1);
    histogram_cpu(image, 1u << 20, counts);
    for (int b = 0; b < HIST_BINS; b++) {
        sum += counts[b];
        bins += counts[b] > 0;
    }
    assert_int_equal(sum, 1u << 20);
    assert_true(bins >= 16 && counts[0] > (1u << 20) / 16);
    free(image);
}

/* Poisoned counts, a call that must fail, then the counts still poisoned. */
static void rejected(int status, struct gpu_buf dout, const char *call)
{
    unsigned got[HIST_BINS];
    if (status != LAB_EINVAL)
        fail_msg("%s returned %s, want LAB_EINVAL", call, lab_status_name(status));
    gpu_sync();
    gpu_download(got, dout, sizeof got);
    for (int b = 0; b < HIST_BINS; b++)
        if (got[b] != POISON)
            fail_msg("%s: bin %d was written, but the call was refused", call, b);
}

#define REFUSED(call, dout) rejected((call), (dout), #call)

static void args_rejected(void)
{
    size_t n = 1000;
    struct gpu_buf in = gpu_alloc(n), out = gpu_alloc(HIST_BINS * sizeof(unsigned));
    struct gpu_buf none = {NULL, 0}, small = {out.ptr, out.bytes - 1};
    /* 2^32 bytes claimed (never read: the size is refused first) */
    struct gpu_buf huge = {in.ptr, (size_t)1 << 33};
    gpu_poison(out);
    for (int v = 0; v < HIST_VARIANTS; v++) {
        REFUSED(histogram(v, none, n, out), out);
        REFUSED(histogram(v, none, 0, out), out);
        REFUSED(histogram(v, in, n, none), out);
        REFUSED(histogram(v, in, n, small), out);
        REFUSED(histogram(v, in, n + 1, out), out);
        REFUSED(histogram(v, huge, (size_t)1 << 32, out), out);
    }
    REFUSED(histogram(HIST_VARIANTS, in, n, out), out);
    REFUSED(histogram((enum hist_variant) - 1, in, n, out), out);
    REFUSED(histogram_race(none, n, out), out);
    REFUSED(histogram_race(in, n + 1, out), out);
    REFUSED(histogram_race(in, n, small), out);
    REFUSED(histogram_race(huge, (size_t)1 << 32, out), out);
    gpu_free(&in);
    gpu_free(&out);
}

/* The race kernel (given code) loses counts of equal bytes: on one byte repeated, a warp's
 * 32 increments become one, on the CPU backend as on a GPU. Under the race checker the race
 * is reported and the launch fails instead. */
static void race_loses_counts(void)
{
    size_t n = 4096;
    unsigned char *x = malloc(n);
    unsigned got[HIST_BINS], total = 0;
    struct gpu_buf in = gpu_alloc(n), out = gpu_alloc(sizeof got);
    fill(HIST_SAME, x, n);
    gpu_upload(in, x, n);
    if (testkit_race_checker()) {
        assert_int_equal(histogram_race(in, n, out), LAB_ECUDA);
    } else {
        assert_status(histogram_race(in, n, out), LAB_OK);
        gpu_sync();
        gpu_download(got, out, sizeof got);
        for (int b = 0; b < HIST_BINS; b++)
            total += got[b];
        assert_true(total >= 1 && total <= n / 32);
    }
    gpu_free(&in);
    gpu_free(&out);
    free(x);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),    TESTKIT_GIVEN(args_rejected),  TESTKIT_GIVEN(race_loses_counts),
    TESTKIT_VARIANTS(counts_match), TESTKIT_EACH(unaligned_input),
};

TESTKIT_MAIN("lab05_histogram", tests, hist_variants, HIST_VARIANTS)
