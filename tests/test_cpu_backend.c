/* Tests of the CPU backend (common/cpu/), through the launchers of test_cpu_backend_kernels*.cu.
 * The portable tests run every kernel under several thread orders and check exact integer
 * results, so on a GPU (BACKEND=cuda) they must pass unchanged; the deliberately wrong
 * kernels run on the CPU backend only, which must report them. Here: main's table, which
 * gives cmocka's order, and the helpers of the test_cpu_backend_*.c files, which hold the tests. */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

/* Every portable test runs under these orders (the GPU ignores them). */
const char *const orders[] = {"forward", "reverse", "random:12345"};

static uint32_t rng = 12345;
int next_int(int bound)
{
    rng = rng * 1664525u + 1013904223u;
    return (int)((rng >> 8) % (uint32_t)bound);
}

void cpu_only(void)
{
    if (!tk_is_cpu())
        skip();
}

struct capture capture_stderr(void)
{
    struct capture c;
    fflush(stderr);
    c.saved = dup(2);
    c.file = tmpfile();
    dup2(fileno(c.file), 2);
    return c;
}

void captured(struct capture c, char *text, size_t size)
{
    fflush(stderr);
    dup2(c.saved, 2);
    close(c.saved);
    rewind(c.file);
    text[fread(text, 1, size - 1, c.file)] = 0;
    fclose(c.file);
}

void test_bad_schedule(void **state)
{
    (void)state;
    cpu_only();
    int in[3] = {1, 2, 3};
    long long sum;
    setenv("CUDA_CPU_SCHEDULE", "backwards", 1);
    struct capture c = capture_stderr();
    int e = tk_reduce(0, in, 3, &sum);
    char text[1024];
    captured(c, text, sizeof text);
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    assert_int_equal(e, cudaErrorInvalidValue);
    assert_non_null(strstr(text, "CUDA_CPU_SCHEDULE=backwards: expected forward, reverse"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indices),
        cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_pipeline),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_stream_events),
        cmocka_unit_test(test_bad_launch),
        cmocka_unit_test(test_device),
        cmocka_unit_test(test_occupancy),
        cmocka_unit_test(test_poison),
        cmocka_unit_test(test_missing_barrier),
        cmocka_unit_test(test_bad_schedule),
        cmocka_unit_test(test_divergent_barrier),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_strict),
        cmocka_unit_test(test_out_of_bounds),
        cmocka_unit_test(test_use_after_free),
        cmocka_unit_test(test_workers),
        cmocka_unit_test(test_work),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_barrier_in_branch),
        cmocka_unit_test(test_mask_past_block),
        cmocka_unit_test(test_block_order),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_race_on_total),
        cmocka_unit_test(test_missing_fence),
        cmocka_unit_test(test_block_races),
        cmocka_unit_test(test_copy_kind),
        cmocka_unit_test(test_cooperative_groups),
        cmocka_unit_test(test_pitched),
        cmocka_unit_test(test_host_side),
        cmocka_unit_test(test_assert),
        cmocka_unit_test(test_texture_float),
        cmocka_unit_test(test_texture_normalized),
        cmocka_unit_test(test_texture_elements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
