/* testkit's hooks (testkit.h) where the kernels run: in the test's own process, as in
 * `make labNN test`, or in the grader's worker (common/judge/worker.c), which serves them
 * to the judge (common/judge/judge.c). */
#include <stdlib.h>
#include "testkit.h"
#ifdef BACKEND_CPU
#include "cpu/include/cuda_cpu.h"
#endif

void testkit_setenv(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

int testkit_race_checker(void)
{
#ifdef __SANITIZE_THREAD__
    return 1;
#else
    return 0;
#endif
}

void testkit_counts(uint64_t counts[2])
{
#ifdef BACKEND_CPU
    counts[0] = cuda_cpu_basic_blocks();
    counts[1] = cuda_cpu_threads_launched();
#else
    counts[0] = counts[1] = 0;
#endif
}

void testkit_held(int64_t held[2])
{
#ifdef BACKEND_CPU
    held[0] = (int64_t)cuda_cpu_events_alive();
    held[1] = (int64_t)cuda_cpu_work_pending();
#else
    held[0] = held[1] = -1;
#endif
}

int64_t testkit_launch_smem(void)
{
#ifdef BACKEND_CPU
    return cuda_cpu_last_launch_smem();
#else
    return -1;
#endif
}

void testkit_mark(const char *test)
{
    (void)test;
}

int testkit_worker_gone(void)
{
    return 0;
}
