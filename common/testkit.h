/* What every lab's cmocka tests share: the list of tests with what each may do in a
 * skeleton, one test per variant of the lab's table, fresh random inputs (seed printed,
 * TEST_SEED to repeat), the thread orders to run kernels under on the CPU backend, and
 * the skip, with a one-line reason, of every test that needs a device when none answers.
 * Include after <cmocka.h>. */
#ifndef TESTKIT_H
#define TESTKIT_H

#include <stddef.h>
#include <stdint.h>
#include "lab.h"

/* A lab's tests, in the order they run. Every test but a TESTKIT_HOST one needs a device:
 * without one it skips before it starts, so it allocates nothing. */
struct testkit_test {
    const char *name;
    void (*fn)(void);           /* a test of its own */
    void (*per_variant)(int v); /* or one test per variant */
    int given;                  /* checks given code: may pass while the TODOs are open */
    int host;                   /* runs on the host alone: no device needed */
    int prefixed;               /* per variant: named NAME.VARIANT, not VARIANT */
    const int *except;          /* per variant: the variants left out, ended by -1 (or NULL) */
};

/* CPU code only (the reference): runs everywhere, and passes in a skeleton. */
#define TESTKIT_HOST(f)            \
    {                              \
#f, f, NULL, 1, 1, 0, NULL \
    }
/* Code the student is given (argument checks in launch.cu): may pass in a skeleton. */
#define TESTKIT_GIVEN(f)           \
    {                              \
#f, f, NULL, 1, 0, 0, NULL \
    }
/* The student's code: fails until the TODOs are done. */
#define TESTKIT_TEST(f)            \
    {                              \
#f, f, NULL, 0, 0, 0, NULL \
    }
/* f(v) for every variant v of the table, each a test named after its variant: the test
 * that the variant's answer is right. */
#define TESTKIT_VARIANTS(f)        \
    {                              \
#f, NULL, f, 0, 0, 0, NULL \
    }
/* Another property of every variant (transposing twice, unaligned buffers...): a test per
 * variant named f.VARIANT, so one variant's bug costs that variant's test only. */
#define TESTKIT_EACH(f)            \
    {                              \
#f, NULL, f, 0, 0, 1, NULL \
    }
/* TESTKIT_EACH but for the variants listed (enum constants of the lab's table), which this
 * backend cannot take where the property lies: they are left out of the list, not skipped,
 * since a skipped test scores nothing (on the CPU backend, one block's loop over 2^32
 * elements: lab01's past_2_32.one_block runs on a GPU only). */
#define TESTKIT_EACH_EXCEPT(f, ...)         \
    {                                       \
#f, NULL, f, 0, 0, 1, (const int[]) \
        {                                   \
            __VA_ARGS__, -1                 \
        }                                   \
    }

/* A lab's test main. `labNN_test` runs every test; `labNN_test NAME...` those; `--list`
 * names them (a line each), `--list-given` those that may pass in a skeleton. The grader
 * runs each test in a process of its own, so a crash or a hang costs that test only. */
#define TESTKIT_MAIN(group, tests, variants, nvariants)                                        \
    int main(int argc, char **argv)                                                            \
    {                                                                                          \
        return testkit_main(group, tests, sizeof tests / sizeof tests[0], variants, nvariants, \
                            argc, argv);                                                       \
    }
int testkit_main(const char *group, const struct testkit_test *tests, size_t count,
                 const struct lab_variant *variants, int nvariants, int argc, char **argv);

/* Asserts that a launcher returned want; the message names both statuses, and CUDA's
 * error when the launcher reported one: "transpose(...) returned LAB_ECUDA, want LAB_OK:
 * transpose.cu:88: kernel launch: invalid configuration argument". */
#define assert_status(call, want) testkit_status((call), (want), #call, __FILE__, __LINE__)
void testkit_status(int got, int want, const char *call, const char *file, int line);

/* Skips the current test when no CUDA device answers (a CUDA build on a GPU-less box). */
#define REQUIRE_DEVICE()       \
    do {                       \
        if (!testkit_device()) \
            skip();            \
    } while (0)
int testkit_device(void);

/* The random stream: seeded once per process from TEST_SEED or the clock. */
uint64_t testkit_next(void);
void testkit_floats(float *x, size_t n, float lo, float hi);
void testkit_ints(int *x, size_t n, int lo, int hi);
void testkit_bytes(void *x, size_t n);

/* The case a test is at (its variant, size, order...), printed as "case: ..." when
 * TESTKIT_CASES is set, as `make labNN test` sets it: when a test crashes or hangs, the last
 * case printed says where. */
void testkit_case(const char *fmt, ...);

/* Thread orders: on the CPU backend forward, reverse and a random one (a missing
 * __syncthreads shows as a wrong answer under one of them) for problems up to 2^17
 * elements, forward alone above (an order bug shows on a few blocks; the large sizes are
 * there for the index arithmetic, and three orders of them would triple the tests' time),
 * and one under the race checker, which finds a race whatever the order; on a GPU, the
 * GPU's own. n: the problem's size. */
int testkit_orders(size_t n);
void testkit_set_order(int i);
const char *testkit_order_name(int i);

/* The largest problem worth a case: unlimited, but 2^15 elements under the CPU backend's race
 * checker (RACECHECK=1), where ThreadSanitizer spends microseconds on each access. Races show
 * on a few blocks as well as on millions; the plain test run covers the large sizes. */
size_t testkit_max_size(void);

/* Tests past 2^31 and 2^32 elements, where an index computed in 32 bits wraps: from now on,
 * on the CPU backend, only the blocks that hold the threads of ranks [ranks[k][0],
 * ranks[k][1]) run (a thread's rank: its place in the grid, for a thread per element its
 * element; CUDA_CPU_WINDOW, common/cpu/README.md), on a device of 2^22 SMs, so that a grid
 * sized to the device covers 2^32 elements in one pass; count 0, and the next test's start,
 * undo both. On a GPU, which runs every block, it does nothing. With gpu_alloc_zeroed, whose
 * pages cost nothing until touched, a test runs past 2^32 in seconds here. */
void testkit_window(const size_t (*ranks)[2], size_t count);

/* Where the kernels run: in this process (testkit_here.c, which `make labNN test` links), or
 * in the worker process that the grader's judge drives (common/judge/judge.c, remote.h).
 * testkit_setenv: a backend setting of that process (CUDA_CPU_SMS...; value NULL unsets it);
 * testkit_race_checker: 1 when its kernels run under the race checker (RACECHECK=1);
 * testkit_counts: the basic blocks that its kernel threads executed, and the threads
 * launched, so far (the CPU backend's counts; 0 elsewhere). */
void testkit_setenv(const char *name, const char *value);
int testkit_race_checker(void);
void testkit_counts(uint64_t counts[2]);
/* testkit_held: what the runtime of that process holds: held[0] the CUDA events created and
 * not yet destroyed, held[1] the pieces of device work given and not yet run (the CPU
 * backend's counts, cuda_cpu.h; -1 each on a GPU, which does not tell): for tests that code
 * destroys the events it made and waits for the work it times. */
void testkit_held(int64_t held[2]);
/* testkit_launch_smem: the dynamic shared memory the last launch of that process asked for
 * (cuda_cpu_last_launch_smem; -1 before any launch, and on a GPU, which does not tell). */
int64_t testkit_launch_smem(void);
/* testkit_mark: a test begins (the grader's worker prints a line with its name, which splits
 * its output by test); testkit_worker_gone: the code under test ended (a crash) and the rest
 * of the tests cannot run in this process (in the grader's judge; 0 elsewhere). */
void testkit_mark(const char *test);
int testkit_worker_gone(void);

#ifdef BACKEND_CPU
/* The work that kernels do, as the CPU backend counts it (common/cpu/include/cuda_cpu.h):
 * for tests that a kernel does no more work than its problem needs, which no clock can tell
 * here. testkit_work_begin() starts a count; testkit_work() gives the basic blocks that
 * kernel threads have executed since, testkit_work_threads() the threads launched since. */
void testkit_work_begin(void);
uint64_t testkit_work(void);
uint64_t testkit_work_threads(void);
#endif

#endif
