/* lab05 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check promises the visible tests leave open, a test per variant:
 * sizes one below, at and one above every multiple that a variant's loops turn on, and
 * inputs that start at every offset from 1 to 15 bytes past a 16-byte boundary, with the
 * counts inside a poisoned buffer, and inputs of nearly 2^32 bytes. Points and visibility: tests/hidden/lab05.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* n close to 2^32, the API's limit, where an index in int has wrapped (past 2^31) and one in
 * unsigned wraps at its next grid-stride step, i + stride passing 2^32: a byte counted twice,
 * or again and again. The input is zero but for three windows of random bytes (its start,
 * 2^31 +- 4096, and its last 4096 bytes or more), and the counts must be theirs, with the
 * zeros outside them in bin 0. On a GPU every block runs, n = 2^32 - 2^16 - 37 (within the
 * stride of any grid of 33 SMs or more; one without n + 1 GB of memory skips, which scores
 * nothing). On the CPU backend only the blocks that hold the windows' threads run
 * (testkit_window), on memory mapped where touched, n = 2^32 - 2^24 - 37: the grid-stride
 * grids cover n in one pass there, so every thread above 2^24 passes 2^32 at its next step,
 * and a wrong one walks down 2^24 at a time rather than around the whole input again. The
 * windows are whole blocks' bytes (4096: 256 threads of 16 bytes), so the blocks that run
 * count nothing but them. */
static void near_2_32(int v)
{
#ifdef BACKEND_CPU
    const size_t n = ((size_t)1 << 32) - ((size_t)1 << 24) - 37;
#else
    const size_t n = ((size_t)1 << 32) - ((size_t)1 << 16) - 37;
#endif
    const size_t w[3][2] = {{0, 4096},
                            {((size_t)1 << 31) - 4096, ((size_t)1 << 31) + 4096},
                            {(n - 4096) / 4096 * 4096, n}};
    const char *name = hist_variants[v].name;
    size_t ranks[3][2], per = v >= HIST_WIDE_LOADS ? 16 : 1; /* bytes a thread loads */
    unsigned long long total = 0, want_total = 0;
    unsigned want[HIST_BINS] = {0}, got[HIST_BINS];
#ifdef BACKEND_CUDA
    struct gpu_info info;
    if (gpu_query(&info) != LAB_OK || info.global_bytes < n + ((size_t)1 << 30)) {
        fprintf(stderr, "skipped: needs %.1f GB of device memory\n", n / 1e9 + 1);
        skip();
    }
    want[0] = (unsigned)(n - (w[0][1] - w[0][0]) - (w[1][1] - w[1][0]) - (w[2][1] - w[2][0]));
#endif
    unsigned char *x = malloc(8192);
    struct gpu_buf in = gpu_alloc_zeroed(n), out = gpu_alloc(sizeof got);
    for (int k = 0; k < 3; k++) {
        struct gpu_buf part = {(unsigned char *)in.ptr + w[k][0], w[k][1] - w[k][0]};
        testkit_bytes(x, part.bytes);
        for (size_t j = 0; j < part.bytes; j++)
            want[x[j]]++;
        gpu_upload(part, x, part.bytes);
        ranks[k][0] = w[k][0] / per;
        ranks[k][1] = (w[k][1] + per - 1) / per;
    }
    testkit_window(ranks, 3);
    testkit_case("%s, n = %zu", name, n);
    assert_status(histogram((enum hist_variant)v, in, n, out), LAB_OK);
    gpu_sync();
    testkit_window(NULL, 0);
    gpu_download(got, out, sizeof got);
    for (int b = 0; b < HIST_BINS; b++)
        total += got[b], want_total += want[b];
    for (int b = 0; b < HIST_BINS; b++)
        if (got[b] != want[b])
            fail_msg("%s, n = %zu: bin %d counted %u, want %u; %llu bytes counted in all, want "
                     "%llu (%s)",
                     name, n, b, got[b], want[b], total, want_total,
                     total > want_total   ? "bytes counted twice: an index that wrapped at 2^32?"
                     : total < want_total ? "bytes not counted: an index that wrapped at 2^31?"
                                          : "wrong bytes counted");
    gpu_free(&in);
    gpu_free(&out);
    free(x);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(unaligned_offsets),
    TESTKIT_EACH(near_2_32),
};

TESTKIT_MAIN("lab05_histogram_hidden", tests, hist_variants, HIST_VARIANTS)
