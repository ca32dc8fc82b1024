/* What every lab's cmocka tests share: fresh random inputs (seed printed, TEST_SEED to
 * repeat), the thread orders to run kernels under on the CPU backend, and the skip with
 * a one-line reason when no device can run kernels at all. Include after <cmocka.h>. */
#ifndef TESTKIT_H
#define TESTKIT_H

#include <stddef.h>
#include <stdint.h>

/* Skips the current test when no CUDA device answers (a CUDA build on a GPU-less box). */
#define REQUIRE_DEVICE()                                                                   \
    do {                                                                                   \
        if (!testkit_device())                                                             \
            skip();                                                                        \
    } while (0)

int testkit_device(void);

/* A lab's test main: runs every test, or only those named on the command line;
 * `--list` prints the names. The grader runs each test in a process of its own, so a
 * crash or a hang costs that test only. */
#define TESTKIT_MAIN(group, tests)                                                         \
    int main(int argc, char **argv)                                                        \
    {                                                                                      \
        return testkit_run(group, tests, sizeof tests / sizeof tests[0], argc, argv);     \
    }
int testkit_run(const char *group, const struct CMUnitTest *tests, size_t count, int argc,
                char **argv);

/* The random stream: seeded once per process from TEST_SEED or the clock. */
uint64_t testkit_next(void);
void testkit_floats(float *x, size_t n, float lo, float hi);
void testkit_ints(int *x, size_t n, int lo, int hi);

/* Thread orders: on the CPU backend forward, reverse and a random one (a missing
 * __syncthreads shows as a wrong answer under one of them); on a GPU, the GPU's own. */
int testkit_orders(void);
void testkit_set_order(int i);
const char *testkit_order_name(int i);

/* Index of the first element of got that differs from want bit for bit, or n. */
size_t testkit_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes);

#endif
