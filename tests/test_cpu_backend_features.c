/* What only the CPU backend has: blocks on two workers, the work counter, CUDA_CPU_WINDOW and
 * sparse memory (test_cpu_backend_kernels_features.cu). */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

/* Blocks on two workers: integer results do not depend on it. */
void test_workers(void **state)
{
    (void)state;
    cpu_only();
    enum { N = 300000 };
    int *in = malloc(N * sizeof *in);
    long long want = 0, got;
    for (int i = 0; i < N; i++)
        in[i] = next_int(100), want += in[i];
    setenv("CUDA_CPU_WORKERS", "2", 1);
    for (int v = 0; v < 4; v++) {
        if (v == 1 && tk_racecheck()) /* warp-synchronous: see test_strict */
            continue;
        assert_int_equal(tk_reduce(v, in, N, &got), 0);
        assert_int_equal(got, want);
    }
    check_atomics(0, 8, 128);
    unsetenv("CUDA_CPU_WORKERS");
    free(in);
}

/* The work counter: kernel threads' basic blocks, the loop's the same at each iteration, a
 * few at each thread's start; none for host code, though built as the kernel is; the same
 * summed over two workers. */
void test_work(void **state)
{
    (void)state;
    cpu_only();
    unsigned long long none[3], some[3], more[3], two[3], per_iteration;
    assert_int_equal(tk_work(0, none), 0);
    assert_int_equal(tk_work(1000, some), 0);
    assert_int_equal(tk_work(2000, more), 0);
    setenv("CUDA_CPU_WORKERS", "2", 1);
    assert_int_equal(tk_work(1000, two), 0);
    unsetenv("CUDA_CPU_WORKERS");
    per_iteration = (some[0] - none[0]) / (1000 * 256);
    print_message("spin: %llu basic blocks per thread, %llu per iteration\n", none[0] / 256,
                  per_iteration);
    assert_true(per_iteration >= 1 && per_iteration <= 4);
    assert_int_equal(more[0] - some[0], some[0] - none[0]);
    assert_in_range(none[0], 256, 16 * 256);
    assert_int_equal(some[1], 256);
    assert_int_equal(some[2], 0);
    assert_int_equal(two[0], some[0]);
    assert_int_equal(two[1], 256);
}

/* CUDA_CPU_WINDOW runs the blocks that hold the ranks it names (a thread's place in the grid),
 * each taken modulo the grid's threads, in every order, and no other; sparse memory reads 0
 * until written, and 17 GB of it cost only the pages that the window's block touched. */
static long resident_pages(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f && fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = 0;
    if (f)
        fclose(f);
    return resident;
}

void test_window(void **state)
{
    (void)state;
    cpu_only();
    enum { N = 10000 };
    unsigned *got = malloc(N * sizeof *got);
    EACH_ORDER(o)
    {
        /* a thread per element, 40 blocks of 256: ranks 300-700 are blocks 1 and 2, 9999 is 39 */
        setenv("CUDA_CPU_WINDOW", "300-700,9999", 1);
        assert_int_equal(tk_window(40, N, NULL, 0, got), 0);
        for (unsigned i = 0; i < N; i++)
            assert_int_equal(got[i], i >= 256 && i < 768 ? i / 256 + 1 : i >= 9984 ? 40 : 0);
        /* 4 blocks stride over N: rank 5000 is thread 904 of their 1024 (block 3), and
         * 1000-1100 wraps around their end to 0-76 (block 0) */
        setenv("CUDA_CPU_WINDOW", "5000,1000-1100", 1);
        assert_int_equal(tk_window(4, N, NULL, 0, got), 0);
        for (unsigned i = 0; i < N; i++)
            assert_int_equal(got[i], i % 1024 >= 768 ? 4 : i % 1024 < 256 ? 1 : 0);
    }
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    setenv("CUDA_CPU_WINDOW", "700-300", 1);
    struct capture c = capture_stderr();
    int e = tk_window(40, N, NULL, 0, got);
    char text[1024];
    captured(c, text, sizeof text);
    assert_int_equal(e, cudaErrorInvalidValue);
    assert_non_null(strstr(text, "CUDA_CPU_WINDOW=700-300: expected ranks A-B or A"));
    /* 2^32 + 5 unsigneds (17 GB), a thread each: block 2^24 alone runs, past 2^32 */
    size_t past = (size_t)1 << 32, at[] = {0, past / 2, past - 1, past, past + 4};
    unsigned want[] = {0, 0, 0, (1u << 24) + 1, (1u << 24) + 1};
    long before = resident_pages();
    setenv("CUDA_CPU_WINDOW", "4294967296", 1);
    assert_int_equal(tk_window((1u << 24) + 1, past + 5, at, 5, got), 0);
    unsetenv("CUDA_CPU_WINDOW");
    for (int k = 0; k < 5; k++)
        assert_int_equal(got[k], want[k]);
    assert_true((resident_pages() - before) * sysconf(_SC_PAGESIZE) < (64 << 20));
    free(got);
}
