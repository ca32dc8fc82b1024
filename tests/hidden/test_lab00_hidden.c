/* lab00 hidden tests: run by `make grade` only, never shipped to students (make dist leaves
 * tests/hidden/ out). A test per variant: grids of tens of thousands of blocks along x (past
 * the 65535 that y and z allow, and past 2^16 in every 16-bit shortcut), and a buffer larger
 * than the launch, whose places past the last thread must stay as they were; and the device
 * query refusing numbers that no device has, INT_MAX, INT_MIN and below -1. Points and
 * visibility: tests/hidden/lab00.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "hello.h"

/* v on grid x block into a buffer of `spare` places more than the launch has, poisoned:
 * every place right, and the spare ones untouched. */
static void check(int v, struct hello_shape grid, struct hello_shape block, size_t spare)
{
    size_t n = (size_t)hello_threads(grid, block),
           bytes = (n + spare) * sizeof(struct thread_place);
    struct thread_place *got = malloc(bytes), *want = malloc(bytes);
    struct gpu_buf out = gpu_alloc(bytes);
    size_t bad;
    testkit_case("%s, grid (%u, %u, %u), block (%u, %u, %u)", hello_variants[v].name, grid.x,
                 grid.y, grid.z, block.x, block.y, block.z);
    hello_places_cpu(grid, block, want);
    assert_status(hello_places(v, grid, block, out), LAB_OK);
    gpu_sync();
    gpu_download(got, out, bytes);
    if ((bad = lab_first_diff(got, want, n, sizeof *got)) < n)
        fail_msg("%s, grid (%u, %u, %u), block (%u, %u, %u): out[%zu].global = %u, want %u",
                 hello_variants[v].name, grid.x, grid.y, grid.z, block.x, block.y, block.z, bad,
                 got[bad].global, want[bad].global);
    for (size_t i = n; i < n + spare; i++)
        if (got[i].global != 0xffffffffu)
            fail_msg("%s: out[%zu] written, past the launch's %zu threads", hello_variants[v].name,
                     i, n);
    gpu_free(&out);
    free(got);
    free(want);
}

static void long_grids(int v)
{
    static const struct hello_shape grids[] = {{70000, 1, 1}, {40000, 2, 1}, {20000, 2, 2}};
    static const struct hello_shape blocks[] = {{64, 1, 1}, {16, 4, 1}, {8, 4, 2}};
    unsigned d = hello_facts[v].dims - 1;
    check(v, grids[d], blocks[d], 0);
}

static void nothing_past_the_end(int v)
{
    static const struct hello_shape grids[] = {{3, 1, 1}, {3, 2, 1}, {2, 3, 2}};
    static const struct hello_shape blocks[] = {{33, 1, 1}, {7, 5, 1}, {3, 5, 3}};
    unsigned d = hello_facts[v].dims - 1;
    check(v, grids[d], blocks[d], 1000);
}

/* Device numbers no machine has (INT_MAX) or below -1 (INT_MIN, -3: only HELLO_THIS_DEVICE
 * names the current device) refused, and the figures the same after as before. */
static void device_numbers(void)
{
    static const int none[] = {INT_MAX, INT_MIN, -3};
    struct device_facts first, d;
    memset(&first, 0, sizeof first);
    assert_status(hello_query(0, &first), LAB_OK);
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        testkit_case("hello_query(%d)", none[k]);
        memset(&d, 0xff, sizeof d);
        assert_status(hello_query(none[k], &d), LAB_ECUDA);
    }
    memset(&d, 0, sizeof d);
    assert_status(hello_query(HELLO_THIS_DEVICE, &d), LAB_OK);
    if (memcmp(&d, &first, sizeof d))
        fail_msg("hello_query: other figures after the refused device numbers (%s, %d SMs) than "
                 "before (%s, %d SMs)",
                 d.name, d.sms, first.name, first.sms);
}

static const struct testkit_test tests[] = {
    TESTKIT_EACH(long_grids),
    TESTKIT_EACH(nothing_past_the_end),
    TESTKIT_TEST(device_numbers),
};

TESTKIT_MAIN("lab00_hidden", tests, hello_variants, HELLO_VARIANTS)
