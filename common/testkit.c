/* Shared test helpers: the test list, seeds, random data, thread orders, device check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "gpu.h"
#include "lab.h"
#include "rng.h"
#include "testkit.h"

static struct rng stream;
static int seeded;
static uint64_t base_seed;

static uint64_t the_seed(void)
{
    static int known;
    if (!known) {
        const char *env = getenv("TEST_SEED");
        base_seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
        fprintf(stderr, "random seed %llu (TEST_SEED=%llu repeats this run)\n",
                (unsigned long long)base_seed, (unsigned long long)base_seed);
        known = 1;
    }
    return base_seed;
}

static struct rng *random_stream(void)
{
    if (!seeded) {
        stream = rng_new(the_seed());
        seeded = 1;
    }
    return &stream;
}

#ifdef BACKEND_CPU
static char random_order[40]; /* random:SEED, the seed drawn from the test's stream */
#endif

/* Each test's stream from the seed and the test's name (FNV-1a), so that a test draws the
 * same inputs whether it runs alone or after others (the grader runs them in groups):
 * TEST_SEED and T=name repeat any one of them. */
static void seed_for(const char *name)
{
    uint64_t h = 14695981039346656037ull;
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    stream = rng_new(the_seed() ^ h);
    seeded = 1;
#ifdef BACKEND_CPU
    random_order[0] = '\0';
#endif
}

uint64_t testkit_next(void)
{
    return rng_next(random_stream());
}

void testkit_floats(float *x, size_t n, float lo, float hi)
{
    rng_floats(random_stream(), x, n, lo, hi);
}

void testkit_ints(int *x, size_t n, int lo, int hi)
{
    rng_ints(random_stream(), x, n, lo, hi);
}

void testkit_bytes(void *x, size_t n)
{
    rng_bytes(random_stream(), x, n);
}

void testkit_case(const char *fmt, ...)
{
    va_list args;
    if (!getenv("TESTKIT_CASES"))
        return;
    va_start(args, fmt);
    fputs("case: ", stderr);
    vfprintf(stderr, fmt, args);
    fputs("\n", stderr);
    va_end(args);
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
static const char *const orders[] = {"forward", "reverse", random_order};
#else
static const char *const orders[] = {"gpu"};
#endif

enum { ORDERED_SIZE = 1 << 17 }; /* the largest problem run under every order */
enum { RACE_SIZE = 1 << 15 };    /* the largest under the race checker: 128 blocks of 256 */

/* Whether the kernels run under the race checker, asked once. */
static int race_checker(void)
{
    static int known, answer;
    if (!known) {
        answer = testkit_race_checker();
        known = 1;
    }
    return answer;
}

int testkit_orders(size_t n)
{
    if (race_checker())
        return 1;
    return n > ORDERED_SIZE ? 1 : (int)(sizeof orders / sizeof orders[0]);
}

size_t testkit_max_size(void)
{
    return race_checker() ? RACE_SIZE : (size_t)-1;
}

void testkit_set_order(int i)
{
#ifdef BACKEND_CPU
    if (!random_order[0])
        snprintf(random_order, sizeof random_order, "random:%llu",
                 (unsigned long long)(testkit_next() >> 1));
    testkit_setenv("CUDA_CPU_SCHEDULE", orders[i]);
#else
    (void)i;
#endif
}

const char *testkit_order_name(int i)
{
    return orders[i];
}

#ifdef BACKEND_CPU
static uint64_t work_start, threads_start;

void testkit_work_begin(void)
{
    uint64_t counts[2];
    testkit_counts(counts);
    work_start = counts[0];
    threads_start = counts[1];
}

uint64_t testkit_work_threads(void)
{
    uint64_t counts[2];
    testkit_counts(counts);
    return counts[1] - threads_start;
}

/* Every kernel thread runs a basic block at least: none counted is kernels built without the
 * count, which would pass any bound. */
uint64_t testkit_work(void)
{
    uint64_t counts[2], work;
    testkit_counts(counts);
    work = counts[0] - work_start;
    if (work == 0 && testkit_work_threads() > 0)
        fail_msg("no work counted for %llu kernel threads: the lab's lab.mk must say "
                 "labNN_COUNT_WORK := 1 (cucc --count-work)",
                 (unsigned long long)testkit_work_threads());
    return work;
}
#endif

static int window_set; /* a window to undo at the next test's start, if it did not */

void testkit_window(const size_t (*ranks)[2], size_t count)
{
#ifdef BACKEND_CPU
    char spec[1024] = "";
    size_t used = 0;
    for (size_t k = 0; k < count && used < sizeof spec; k++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, "%s%zu-%zu", k ? "," : "",
                                 ranks[k][0], ranks[k][1] - 1);
    if (used >= sizeof spec)
        fail_msg("testkit_window: %zu ranges are more than it takes", count);
    testkit_setenv("CUDA_CPU_WINDOW", count ? spec : NULL);
    testkit_setenv("CUDA_CPU_SMS", count ? "4194304" : NULL);
    window_set = count > 0;
#else
    (void)ranks, (void)count;
#endif
}

void testkit_status(int got, int want, const char *call, const char *file, int line)
{
    if (got == want)
        return;
    print_error("ERROR: %s returned %s, want %s%s%s\n", call, lab_status_name(got),
                lab_status_name(want), got == LAB_ECUDA ? ": " : "",
                got == LAB_ECUDA ? lab_cuda_failure() : "");
    _fail(file, line);
}

/* ---------------------------------------------------------------- the test list */

/* One test as cmocka runs it: the lab's entry, and its variant for a per-variant one. */
struct entry {
    const struct testkit_test *test;
    int variant;
    const char *variant_name;
    char *name; /* NAME.VARIANT, for TESTKIT_EACH */
};

/* The grader's progress file (TESTKIT_PROGRESS, a descriptor it opened for us), where
 * each test's start and end go as they happen: it runs the tests of a lab in one process
 * beside one worker, and learns from these lines which test a crash or a hang stopped. */
static void progress(const char *what, const char *name)
{
    static int fd = -2;
    struct timespec now;
    char line[512];
    if (fd == -2) {
        const char *env = getenv("TESTKIT_PROGRESS");
        fd = env ? atoi(env) : -1;
    }
    if (fd < 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int n = snprintf(line, sizeof line, "%s %s %lld.%09ld\n", what, name, (long long)now.tv_sec,
                     now.tv_nsec);
    if (n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) != n)
        fd = -1;
}

static void run_entry(void **state)
{
    const struct entry *e = *state;
    const char *name = e->name ? e->name : e->test->per_variant ? e->variant_name : e->test->name;
    if (testkit_worker_gone()) {
        fprintf(stderr, "not run: the code under test ended in an earlier test\n");
        skip();
    }
    progress("start", name);
    seed_for(name);
    testkit_mark(name);
    if (window_set) /* an earlier test's, in the same worker */
        testkit_window(NULL, 0);
    if (!e->test->host)
        REQUIRE_DEVICE();
    if (e->test->per_variant)
        e->test->per_variant(e->variant);
    else
        e->test->fn();
    progress("passed", name);
}

static int left_out(const struct testkit_test *test, int v)
{
    for (const int *e = test->except; e && *e >= 0; e++)
        if (*e == v)
            return 1;
    return 0;
}

/* Every test of the list, per-variant ones expanded. Returns the count. */
static size_t expand(const struct testkit_test *tests, size_t count,
                     const struct lab_variant *variants, int nvariants, struct entry *out,
                     struct CMUnitTest *units)
{
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        for (int v = 0; v < (tests[i].per_variant ? nvariants : 1); v++) {
            if (left_out(&tests[i], v))
                continue;
            const char *name = tests[i].per_variant ? variants[v].name : tests[i].name;
            out[k] = (struct entry){&tests[i], v, name, NULL};
            if (tests[i].prefixed) {
                size_t len = strlen(tests[i].name) + strlen(name) + 2;
                out[k].name = malloc(len);
                snprintf(out[k].name, len, "%s.%s", tests[i].name, name);
                name = out[k].name;
            }
            units[k] = (struct CMUnitTest){name, run_entry, NULL, NULL, &out[k]};
            k++;
        }
    return k;
}

static int find(const struct CMUnitTest *units, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(units[i].name, name))
            return (int)i;
    return -1;
}

int testkit_main(const char *group, const struct testkit_test *tests, size_t count,
                 const struct lab_variant *variants, int nvariants, int argc, char **argv)
{
    size_t most = count * (size_t)(nvariants > 1 ? nvariants : 1), n, k = 0;
    struct entry *entries = calloc(most, sizeof *entries);
    struct CMUnitTest *units = calloc(most, sizeof *units), *chosen = calloc(most, sizeof *chosen);
    int status = 0;
    n = expand(tests, count, variants, nvariants, entries, units);
    if (argc > 1 && (!strcmp(argv[1], "--list") || !strcmp(argv[1], "--list-given"))) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(argv[1], "--list-given") || entries[i].test->given)
                printf("%s\n", units[i].name);
    } else if (argc < 2) {
        status = _cmocka_run_group_tests(group, units, n, NULL, NULL);
    } else {
        for (int a = 1; a < argc && status == 0; a++) {
            int i = find(units, n, argv[a]);
            if (i < 0) {
                fprintf(stderr, "%s: no test named '%s' (--list names them)\n", group, argv[a]);
                status = 2;
            } else {
                chosen[k++] = units[i];
            }
        }
        if (status == 0)
            status = _cmocka_run_group_tests(group, chosen, k, NULL, NULL);
    }
    for (size_t i = 0; i < n; i++)
        free(entries[i].name);
    free(entries);
    free(units);
    free(chosen);
    return status;
}
