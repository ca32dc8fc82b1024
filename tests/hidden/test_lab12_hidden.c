/* lab12 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). What the visible tests leave open: the output inside a poisoned host
 * buffer (nothing written outside it), device buffers 1 to 3 floats past an aligned start,
 * a chunk per element, more streams than chunks, and odd sizes. Points: tests/hidden/lab12.txt. */
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

enum { SPARE = 16 }; /* floats of poison on either side of the output */

static void check(int v, size_t n, size_t shift, struct streams_plan p)
{
    size_t bytes = n * sizeof(float), all = (n + 2 * SPARE) * sizeof(float), bad;
    float *in = malloc(bytes), *got = malloc(all), *want = malloc(all);
    struct gpu_buf din = gpu_alloc(bytes + shift * sizeof(float)),
                   dout = gpu_alloc(bytes + shift * sizeof(float));
    struct gpu_buf d_in = {(float *)din.ptr + shift, bytes},
                   d_out = {(float *)dout.ptr + shift, bytes};
    testkit_case("%s, n = %zu, device buffers at +%zu floats, %u chunks over %u streams",
                 streams_variants[v].name, n, shift, p.chunks, p.streams);
    testkit_floats(in, n, -1.0f, 1.0f);
    memset(got, 0xff, all);
    memset(want, 0xff, all);
    streams_cpu(in, want + SPARE, n, p.fmas);
    assert_status(streams_pipeline(v, got + SPARE, in, n, d_in, d_out, p, NULL), LAB_OK);
    bad = lab_first_diff(got, want, n + 2 * SPARE, sizeof(float));
    if (bad < n + 2 * SPARE)
        fail_msg("%s, n = %zu, device buffers at +%zu floats, %u chunks over %u streams: "
                 "out[%td] = %.9g, want %.9g",
                 streams_variants[v].name, n, shift, p.chunks, p.streams, (ptrdiff_t)bad - SPARE,
                 got[bad], want[bad]);
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(got);
    free(want);
}

static void edges(int v)
{
    check(v, 255, 1, (struct streams_plan){255, 4, 3}); /* a chunk per element */
    check(v, 257, 2, (struct streams_plan){3, 32, 9});  /* more streams than chunks */
    check(v, 4099, 3, (struct streams_plan){64, 5, 1}); /* the last chunk the longest */
    check(v, 1, 0, (struct streams_plan){1, 1, 0});     /* no FMA at all: a copy */
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(edges),
};

TESTKIT_MAIN("lab12_streams_hidden", tests, streams_variants, STREAMS_VARIANTS)
