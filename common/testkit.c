/* Shared test helpers: seeds, random data, thread orders, device check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "gpu.h"
#include "testkit.h"

static uint64_t state;

uint64_t testkit_next(void)
{
    uint64_t z;
    if (!state) {
        const char *env = getenv("TEST_SEED");
        uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
        fprintf(stderr, "random seed %llu (TEST_SEED=%llu repeats this run)\n",
                (unsigned long long)seed, (unsigned long long)seed);
        state = seed ? seed : 1;
    }
    z = (state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void testkit_floats(float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)((testkit_next() >> 40) / 16777216.0);
}

void testkit_ints(int *x, size_t n, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    for (size_t i = 0; i < n; i++)
        x[i] = (int)(lo + (int64_t)(testkit_next() % span));
}

int testkit_device(void)
{
    static int known, answer;
    if (!known) {
        answer = gpu_available();
        known = 1;
        if (!answer)
            fprintf(stderr, "no CUDA device answers: kernel tests skip "
                            "(BACKEND=cpu runs them on the CPU)\n");
    }
    return answer;
}

#ifdef BACKEND_CPU
static char random_order[40]; /* random:SEED, the seed drawn from the test's stream */
static const char *const orders[] = {"forward", "reverse", random_order};
#else
static const char *const orders[] = {"gpu"};
#endif

int testkit_orders(void)
{
    return (int)(sizeof orders / sizeof orders[0]);
}

void testkit_set_order(int i)
{
#ifdef BACKEND_CPU
    if (!random_order[0])
        snprintf(random_order, sizeof random_order, "random:%llu",
                 (unsigned long long)(testkit_next() >> 1));
    setenv("CUDA_CPU_SCHEDULE", orders[i], 1);
#else
    (void)i;
#endif
}

const char *testkit_order_name(int i)
{
    return orders[i];
}

size_t testkit_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes)
{
    const unsigned char *g = got, *w = want;
    for (size_t i = 0; i < n; i++)
        if (memcmp(g + i * elem_bytes, w + i * elem_bytes, elem_bytes))
            return i;
    return n;
}

int testkit_run(const char *group, const struct CMUnitTest *tests, size_t count, int argc,
                char **argv)
{
    struct CMUnitTest *chosen;
    size_t k = 0;
    int status;
    if (argc < 2)
        return _cmocka_run_group_tests(group, tests, count, NULL, NULL);
    if (!strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < count; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    chosen = malloc(count * sizeof *chosen);
    for (int a = 1; a < argc; a++) {
        size_t i = 0;
        while (i < count && strcmp(tests[i].name, argv[a]))
            i++;
        if (i == count) {
            fprintf(stderr, "%s: no test named '%s' (--list names them)\n", group, argv[a]);
            free(chosen);
            return 2;
        }
        chosen[k++] = tests[i];
    }
    status = _cmocka_run_group_tests(group, chosen, k, NULL, NULL);
    free(chosen);
    return status;
}
