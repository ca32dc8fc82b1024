/* lab05 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * sizes one below, at and one above every multiple that a variant's loops turn on, and
 * inputs that start at every offset from 1 to 15 bytes past a 16-byte boundary, with the
 * counts inside a poisoned buffer. Points and visibility: tests/hidden/lab05.txt. */
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

/* Counts of poison on either side of the HIST_BINS counts. */
enum { SPARE = 16, POISON = 0xffffffffu };

/* Variant v on n fresh bytes of input d placed `shift` bytes past an aligned start, under
 * every thread order: every bin exact, the SPARE counts on either side untouched. */
static void check(enum hist_variant v, enum hist_data d, size_t n, size_t shift)
{
    const char *name = hist_variants[v].name, *data = hist_data_names[d];
    unsigned char *x = malloc(n + 1);
    unsigned want[HIST_BINS], got[HIST_BINS + 2 * SPARE];
    struct gpu_buf din = gpu_alloc(n + shift + 1), dout = gpu_alloc(sizeof got);
    struct gpu_buf in = {(unsigned char *)din.ptr + shift, n},
                   out = {(unsigned *)dout.ptr + SPARE, HIST_BINS * sizeof(unsigned)};
    histogram_fill(d, x, n, testkit_next());
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
    free(x);
}

/* The grid that launch.cu gives the grid-stride variants at these sizes: every SM full, as
 * many blocks of HIST_THREADS as its threads allow (2048 on an H100 and on the CPU
 * backend). An estimate: registers may allow fewer. */
static size_t device_blocks(void)
{
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK)
        fail_msg("no device to size the grid from");
    return (size_t)info.sms * (info.max_threads_per_sm / HIST_THREADS);
}

/* n = k m - 1, k m and k m + 1 for k = 1, 2 and every m that a loop turns on: a vector, a
 * warp, a block, a block's vectors, one trip of the grid over bytes, over vectors and over
 * the pairs of vectors of register_runs and best; on uniform and on same bytes. Under the
 * race checker, the sizes up to its 2^15 only. */
static void block_edges(int v)
{
    size_t grid = device_blocks();
    const size_t units[] = {16,
                            32,
                            HIST_THREADS,
                            16 * HIST_THREADS,
                            grid * HIST_THREADS,
                            16 * grid * HIST_THREADS,
                            32 * grid * HIST_THREADS};
    for (size_t u = 0; u < COUNT(units); u++)
        for (size_t k = 1; k <= 2; k++)
            for (size_t n = k * units[u] - 1; n <= k * units[u] + 1; n++)
                if (n <= testkit_max_size()) {
                    check((enum hist_variant)v, HIST_UNIFORM, n, 0);
                    check((enum hist_variant)v, HIST_SAME, n, 0);
                }
}

/* The input 1 to 15 bytes past a 16-byte boundary, on the three inputs: the head before the
 * first boundary is 15 to 1 bytes long, and the tail every length too. */
static void unaligned_offsets(int v)
{
    static const size_t sizes[] = {40, 5003, 100003};
    for (size_t s = 0; s < COUNT(sizes); s++)
        for (size_t shift = 1; shift < 16; shift++)
            for (int d = 0; d < HIST_DATA; d++)
                if (sizes[s] <= testkit_max_size())
                    check((enum hist_variant)v, (enum hist_data)d, sizes[s], shift);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(unaligned_offsets),
};

TESTKIT_MAIN("lab05_histogram_hidden", tests, hist_variants, HIST_VARIANTS)
