/* lab{{NN}} hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). They check what the visible tests leave open, a test per variant: the
 * input 1 to 3 floats past an aligned start, and the output inside a poisoned buffer, on
 * sizes one below, at and one above a block's multiples. Points: tests/hidden/lab{{NN}}.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "{{id}}.h"

enum { SPARE = 16 }; /* floats of poison on either side of the output */

static void check(int v, size_t n, size_t shift)
{
    size_t bytes = n * sizeof(float), all = (n + 2 * SPARE) * sizeof(float), bad;
    float *in = malloc(bytes + 1), *got = malloc(all), *want = malloc(all);
    struct gpu_buf din = gpu_alloc(bytes + shift * sizeof(float)), dout = gpu_alloc(all);
    struct gpu_buf moved = {(float *)din.ptr + shift, bytes}, out = {(float *)dout.ptr + SPARE,
                                                                     bytes};
    testkit_case("%s, n = %zu, input at +%zu floats", {{id}}_variants[v].name, n, shift);
    testkit_floats(in, n, -1e3f, 1e3f);
    gpu_upload(moved, in, bytes);
    gpu_poison(dout);
    gpu_download(want, dout, all); /* the poison, where nothing may be written */
    {{id}}_cpu(in, want + SPARE, n);
    assert_status({{id}}(v, moved, out, n), LAB_OK);
    gpu_sync();
    gpu_download(got, dout, all);
    bad = lab_first_diff(got, want, n + 2 * SPARE, sizeof(float));
    if (bad < n + 2 * SPARE)
        fail_msg("%s, n = %zu, input at +%zu floats: out[%td] = %g, want %g",
                 {{id}}_variants[v].name, n, shift, (ptrdiff_t)bad - SPARE, got[bad], want[bad]);
    gpu_free(&din);
    gpu_free(&dout);
    free(in);
    free(got);
    free(want);
}

static void unaligned_edges(int v)
{
    for (size_t k = 1; k <= 4; k++)
        for (size_t n = k * 256 - 1; n <= k * 256 + 1; n++)
            if (n <= testkit_max_size())
                check(v, n, k % 4);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(unaligned_edges),
};

TESTKIT_MAIN("lab{{NN}}_{{id}}_hidden", tests, {{id}}_variants, {{ID}}_VARIANTS)
