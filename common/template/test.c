/* lab{{NN}} tests: every variant against the CPU loop, exactly (one float multiply by 2
 * rounds the same on both), on sizes around the block size and past one grid dimension,
 * with fresh random inputs and a poisoned output; bad arguments rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "{{id}}.h"

static const size_t sizes[] = {0, 1, 31, 33, 1000003, (1u << 24) + 1};

static void matches_cpu(int v)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], bytes = n * sizeof(float), bad;
        float *in = malloc(bytes + 1), *got = malloc(bytes + 1), *want = malloc(bytes + 1);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        testkit_floats(in, n, -1e3f, 1e3f);
        {{id}}_cpu(in, want, n);
        gpu_upload(din, in, bytes);
        for (int o = 0; o < testkit_orders(n); o++) {
            testkit_set_order(o);
            testkit_case("%s, n = %zu, order %s", {{id}}_variants[v].name, n,
                         testkit_order_name(o));
            gpu_poison(dout);
            assert_status({{id}}(v, din, dout, n), LAB_OK);
            gpu_sync();
            gpu_download(got, dout, bytes);
            bad = lab_first_diff(got, want, n, sizeof(float));
            if (bad < n)
                fail_msg("%s, n = %zu, order %s: out[%zu] = %g, want %g",
                         {{id}}_variants[v].name, n, testkit_order_name(o), bad, got[bad],
                         want[bad]);
        }
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(got);
        free(want);
    }
}

static void reference_cpu(void)
{
    const float in[3] = {1.0f, -2.5f, 0.0f}, want[3] = {2.0f, -5.0f, 0.0f};
    float out[3];
    {{id}}_cpu(in, out, 3);
    assert_memory_equal(out, want, sizeof want);
}

static void args_rejected(void)
{
    struct gpu_buf a = gpu_alloc(100 * sizeof(float)), b = gpu_alloc(50 * sizeof(float));
    struct gpu_buf none = {NULL, 0};
    for (int v = 0; v < {{ID}}_VARIANTS; v++) {
        assert_status({{id}}(v, none, a, 10), LAB_EINVAL);
        assert_status({{id}}(v, a, none, 10), LAB_EINVAL);
        assert_status({{id}}(v, a, b, 51), LAB_EINVAL); /* b holds 50 */
        assert_status({{id}}(v, a, b, 0), LAB_OK);
    }
    assert_status({{id}}({{ID}}_VARIANTS, a, b, 10), LAB_EINVAL);
    gpu_free(&a);
    gpu_free(&b);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),
    TESTKIT_GIVEN(args_rejected),
    TESTKIT_VARIANTS(matches_cpu),
};

TESTKIT_MAIN("lab{{NN}}_{{id}}", tests, {{id}}_variants, {{ID}}_VARIANTS)
