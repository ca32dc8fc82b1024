/* lab12 tests: every variant against the CPU loop, exactly (each FMA rounds alike on both), on
 * sizes that chunk evenly and not, with one chunk and many, one stream and several, from host
 * memory poisoned; the timeline's spans, one per copy and kernel, each chunk's in order; bad
 * arguments rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "streams.h"

static const size_t sizes[] = {1, 31, 1000, 65537};
static const struct streams_plan plans[] = {{1, 1, 16}, {4, 2, 16}, {7, 3, 5}, {16, 4, 16}};

/* Runs variant v on n floats with plan p (chunks cut to n); the first wrong index, or n. */
static size_t run(int v, size_t n, struct streams_plan p, struct streams_span *spans)
{
    size_t bytes = n * sizeof(float), bad;
    float *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
    p.chunks = p.chunks > n ? (unsigned)n : p.chunks;
    testkit_floats(in, n, -1.0f, 1.0f);
    streams_cpu(in, want, n, p.fmas);
    memset(got, 0xff, bytes);
    assert_status(streams_pipeline(v, got, in, n, din, dout, p, spans), LAB_OK);
    bad = lab_first_diff(got, want, n, sizeof(float));
    if (bad < n)
        fail_msg("%s, n = %zu, %u chunks, %u streams: out[%zu] = %.9g, want %.9g",
                 streams_variants[v].name, n, p.chunks, p.streams, bad, got[bad], want[bad]);
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(got);
    free(want);
    return bad;
}

static void matches_cpu(int v)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof plans / sizeof plans[0]; k++) {
            testkit_case("%s, n = %zu, %u chunks over %u streams", streams_variants[v].name,
                         sizes[s], plans[k].chunks, plans[k].streams);
            run(v, sizes[s], plans[k], NULL);
        }
}

/* A span per copy and kernel, each chunk's copy in before its kernel before its copy out. */
static void timeline(int v)
{
    struct streams_plan p = {6, 3, 16};
    unsigned count = streams_facts[v].chunked ? 3 * p.chunks : 3, seen[STREAMS_MAX_CHUNKS][3];
    struct streams_span spans[3 * 6];
    float end[6][3];
    testkit_case("%s, n = 6000, 6 chunks over 3 streams, with its timeline",
                 streams_variants[v].name);
    memset(seen, 0, sizeof seen);
    run(v, 6000, p, spans);
    for (unsigned k = 0; k < count; k++) {
        struct streams_span s = spans[k];
        if (s.what > STREAMS_D2H || s.chunk >= count / 3 || seen[s.chunk][s.what]++)
            fail_msg("%s: span %u is chunk %u's part %u, which is not one of the pipeline's or "
                     "was seen before",
                     streams_variants[v].name, k, s.chunk, s.what);
        if (!(s.start <= s.end))
            fail_msg("%s: span %u ends (%g ms) before it starts (%g ms)", streams_variants[v].name,
                     k, s.end, s.start);
        end[s.chunk][s.what] = s.end;
    }
    for (unsigned c = 0; c < count / 3; c++)
        if (!(end[c][STREAMS_H2D] <= end[c][STREAMS_KERNEL] &&
              end[c][STREAMS_KERNEL] <= end[c][STREAMS_D2H]))
            fail_msg("%s: chunk %u's copy in, kernel and copy out ended at %g, %g and %g ms: "
                     "out of order",
                     streams_variants[v].name, c, end[c][0], end[c][1], end[c][2]);
}

static void reference_cpu(void)
{
    const float in[3] = {1.0f, -1.0f, 0.0f};
    float out[3];
    streams_cpu(in, out, 3, 1);
    assert_true(out[0] == 1.0f && out[1] == -0.998046875f && out[2] == STREAMS_B);
    assert_true(streams_transform(0.5f, 0) == 0.5f);
}

static void args_rejected(void)
{
    float in[8] = {0}, out[8];
    struct gpu_buf a = gpu_alloc(8 * sizeof(float)), small = gpu_alloc(4 * sizeof(float));
    struct gpu_buf none = {NULL, 0};
    struct streams_plan ok = {2, 2, 1}, bad[] = {{0, 1, 1},
                                                 {9, 1, 1},
                                                 {2, 0, 1},
                                                 {2, 33, 1},
                                                 {2, 2, STREAMS_MAX_FMAS + 1}};
    for (int v = 0; v < STREAMS_VARIANTS; v++) {
        assert_status(streams_pipeline(v, out, in, 8, none, a, ok, NULL), LAB_EINVAL);
        assert_status(streams_pipeline(v, out, in, 8, a, small, ok, NULL), LAB_EINVAL);
        assert_status(streams_pipeline(v, NULL, in, 8, a, a, ok, NULL), LAB_EINVAL);
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
            assert_status(streams_pipeline(v, out, in, 8, a, a, bad[k], NULL), LAB_EINVAL);
        assert_status(streams_pipeline(v, out, in, 0, a, a, ok, NULL), LAB_OK);
    }
    assert_status(streams_pipeline(STREAMS_VARIANTS, out, in, 8, a, a, ok, NULL), LAB_EINVAL);
    assert_status(streams_part(STREAMS_BOTH_WAYS + 1, out, in, 8, a, a, 1), LAB_EINVAL);
    gpu_free(&a);
    gpu_free(&small);
}

/* The parts alone leave the copy in d_in, the kernel's results in d_out, and those in out. */
static void parts_alone(void)
{
    enum { N = 1000 };
    float in[N], out[N], want[N];
    struct gpu_buf din = gpu_alloc(sizeof in), dout = gpu_alloc(sizeof in);
    testkit_floats(in, N, -1.0f, 1.0f);
    streams_cpu(in, want, N, 7);
    for (unsigned part = STREAMS_H2D; part <= STREAMS_D2H; part++)
        assert_status(streams_part(part, out, in, N, din, dout, 7), LAB_OK);
    assert_memory_equal(out, want, sizeof want);
    /* both ways at once: the results out again, the input in again */
    memset(out, 0, sizeof out);
    gpu_poison(din);
    assert_status(streams_part(STREAMS_BOTH_WAYS, out, in, N, din, dout, 7), LAB_OK);
    assert_memory_equal(out, want, sizeof want);
    assert_status(streams_part(STREAMS_KERNEL, out, in, N, din, dout, 7), LAB_OK);
    assert_status(streams_part(STREAMS_D2H, out, in, N, din, dout, 7), LAB_OK);
    assert_memory_equal(out, want, sizeof want);
    gpu_free(&din);
    gpu_free(&dout);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),   TESTKIT_GIVEN(args_rejected), TESTKIT_GIVEN(parts_alone),
    TESTKIT_VARIANTS(matches_cpu), TESTKIT_EACH(timeline),
};

TESTKIT_MAIN("lab12_streams", tests, streams_variants, STREAMS_VARIANTS)
