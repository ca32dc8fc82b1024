/* On the CPU backend only: the poison of dynamic shared memory, and what the backend, its strict
 * mode, ASan and the race checker say of the wrong kernels (in test_cpu_backend_kernels.cu). */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

/* ------------------------------------------------------------------ CPU backend only */
void test_poison(void **state)
{
    (void)state;
    cpu_only();
    int out[100];
    assert_int_equal(tk_read_dynamic(out, 100), 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(out[i], -1);
}

/* Forward order hides the missing barrier (each thread reads a slot written before it ran);
 * reverse order shows it. */
/* Under the race checker (RACECHECK=1): `call` fails, and its report names the kernel, the
 * two accesses and the memory. */
#define EXPECT_RACE(call, kernel, memory)                                                   \
    do {                                                                                    \
        char text_[4096];                                                                   \
        struct capture c_ = capture_stderr();                                               \
        int e_ = (call);                                                                    \
        captured(c_, text_, sizeof text_);                                                  \
        if (e_ != cudaErrorLaunchFailure || !strstr(text_, "race in kernel " kernel " ") || \
            !strstr(text_, "tests/test_cpu_backend_kernels.cu:") || !strstr(text_, memory)) \
            fail_msg("%s: error %d, and printed:\n%s", #call, e_, text_);                   \
    } while (0)

void test_missing_barrier(void **state)
{
    (void)state;
    cpu_only();
    int data[256], wrong = 0;
    if (tk_racecheck()) { /* the race checker names it, whatever the order */
        EXPECT_RACE(tk_missing_barrier(data, 256), "missing_barrier", "__shared__ s, byte");
        return;
    }
    for (int o = 0; o < 2; o++) {
        setenv("CUDA_CPU_SCHEDULE", orders[o], 1);
        for (int i = 0; i < 256; i++)
            data[i] = i + 1000;
        assert_int_equal(tk_missing_barrier(data, 256), 0);
        for (int i = 1; i < 256; i++)
            wrong += data[i] != i - 1 + 1000;
        if (o == 0)
            assert_int_equal(wrong, 0);
    }
    assert_int_equal(wrong, 255);
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
}

/* Runs wrong kernel `which`; returns its error, and in text what it printed. */
static int run_wrong(int which, int lines[2], char *text, size_t size)
{
    struct capture c = capture_stderr();
    int e = tk_wrong(which, lines);
    captured(c, text, size);
    return e;
}

static void assert_names_lines(const char *text, const int lines[2])
{
    char where[64];
    for (int k = 0; k < 2; k++) {
        snprintf(where, sizeof where, "test_cpu_backend_kernels.cu:%d", lines[k]);
        if (!strstr(text, where))
            fail_msg("no %s in: %s", where, text);
    }
}

void test_divergent_barrier(void **state)
{
    (void)state;
    cpu_only();
    char text[4096];
    int lines[2];
    assert_int_equal(run_wrong(0, lines, text, sizeof text), cudaErrorLaunchFailure);
    assert_non_null(strstr(text, "barrier divergence in kernel divergent_barrier"));
    assert_non_null(strstr(text, "threads 0-15"));
    assert_non_null(strstr(text, "threads 16-31"));
    assert_names_lines(text, lines);
    long long sum; /* the next launch runs normally */
    int in[3] = {1, 2, 3};
    assert_int_equal(tk_reduce(0, in, 3, &sum), 0);
    assert_int_equal(sum, 6);
}

void test_deadlock(void **state)
{
    (void)state;
    cpu_only();
    char text[4096];
    int lines[2];
    assert_int_equal(run_wrong(1, lines, text, sizeof text), cudaErrorLaunchFailure);
    assert_non_null(strstr(text, "deadlock in kernel deadlock"));
    assert_non_null(strstr(text, "__shfl_sync"));
    assert_names_lines(text, lines);
}

/* Harris's volatile last warp: right by default (lockstep), a race in strict mode. */
void test_strict(void **state)
{
    (void)state;
    cpu_only();
    int in[512];
    long long sum;
    for (int i = 0; i < 512; i++)
        in[i] = i;
    if (tk_racecheck()) { /* the race checker sees the race in every mode */
        EXPECT_RACE(tk_reduce(1, in, 512, &sum), "reduce_unrolled<B>", "dynamic shared memory");
        return;
    }
    setenv("CUDA_CPU_STRICT", "1", 1);
    struct capture c = capture_stderr();
    int e = tk_reduce(1, in, 512, &sum);
    char text[4096];
    captured(c, text, sizeof text);
    unsetenv("CUDA_CPU_STRICT");
    assert_int_equal(e, cudaErrorLaunchFailure);
    assert_non_null(strstr(text, "race (CUDA_CPU_STRICT) in kernel reduce_unrolled<B>"));
    assert_int_equal(tk_reduce(1, in, 512, &sum), 0);
    assert_int_equal(sum, 511 * 512 / 2);
}

/* The dot product's barrier inside its if: a warning by default (the launch runs, and the sum
 * is right), an error under CUDA_CPU_STRICT=1; both name the barrier's line and who left. */
void test_barrier_in_branch(void **state)
{
    (void)state;
    cpu_only();
    char text[4096];
    int lines[2];
    assert_int_equal(run_wrong(4, lines, text, sizeof text), 0);
    assert_non_null(strstr(text, "warning: barrier reached by part of the block"));
    assert_non_null(strstr(text, "threads 0-31 wait at __syncthreads"));
    assert_non_null(strstr(text, "threads 32-63 returned"));
    assert_names_lines(text, lines);
    setenv("CUDA_CPU_STRICT", "1", 1);
    assert_int_equal(run_wrong(4, lines, text, sizeof text), cudaErrorLaunchFailure);
    unsetenv("CUDA_CPU_STRICT");
    assert_non_null(strstr(text, "barrier reached by part of the block in kernel"));
    assert_names_lines(text, lines);
}

/* A mask that names lanes past the block: the same rule. */
void test_mask_past_block(void **state)
{
    (void)state;
    cpu_only();
    char text[4096];
    int lines[2];
    assert_int_equal(run_wrong(5, lines, text, sizeof text), 0);
    assert_non_null(strstr(text, "its mask names lanes 16-31, which do not exist"));
    assert_names_lines(text, lines);
    setenv("CUDA_CPU_STRICT", "1", 1);
    assert_int_equal(run_wrong(5, lines, text, sizeof text), cudaErrorLaunchFailure);
    unsetenv("CUDA_CPU_STRICT");
    assert_names_lines(text, lines);
}

/* Blocks in reverse and random order: the in-place shift, right in index order by luck,
 * goes wrong under another; its out-of-place twin is right under all of them. */
void test_block_order(void **state)
{
    (void)state;
    cpu_only();
    enum { N = 1000 };
    int data[N], wrong_orders = 0;
    for (int in_place = 0; in_place < 2; in_place++)
        EACH_ORDER(o)
        {
            int wrong = 0;
            for (int i = 0; i < N; i++)
                data[i] = i * 7;
            if (in_place && tk_racecheck()) { /* found in every order, index order too */
                EXPECT_RACE(tk_shift(in_place, data, N), "shift_in_place",
                            "a buffer of 4000 bytes");
                continue;
            }
            assert_int_equal(tk_shift(in_place, data, N), 0);
            for (int i = 0; i < N; i++)
                wrong += data[i] != (i + 1 < N ? (i + 1) * 7 : 0);
            if (!in_place)
                assert_int_equal(wrong, 0);
            else if (o == 0)
                assert_int_equal(wrong, 0); /* index order: right by luck */
            else
                wrong_orders += wrong > 0;
        }
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    assert_int_equal(wrong_orders, tk_racecheck() ? 0 : 2);
}

/* A race on a total: the atomic twin is right everywhere; the plain `+=` is right on the
 * CPU by luck (threads switch only at barriers) and wrong on a GPU, and the race checker
 * names it. */
void test_race_on_total(void **state)
{
    (void)state;
    enum { N = 1000 };
    int in[N], want = 0, got;
    for (int i = 0; i < N; i++)
        in[i] = next_int(100), want += in[i];
    assert_int_equal(tk_total(1, in, N, &got), 0);
    assert_int_equal(got, want);
    cpu_only();
    if (tk_racecheck())
        EXPECT_RACE(tk_total(0, in, N, &got), "total_plain", "a buffer of 4 bytes allocated at");
}

/* The threadfence reduction: with both fences, right everywhere and no race; without the
 * writer's or the reader's, the race checker names the partial the last block reads. */
void test_missing_fence(void **state)
{
    (void)state;
    enum { BLOCKS = 40 };
    int in[BLOCKS], want = 0, got;
    for (int i = 0; i < BLOCKS; i++)
        in[i] = next_int(100), want += in[i];
    EACH_ORDER(o)
    {
        assert_int_equal(tk_last_block(3, in, BLOCKS, &got), 0);
        assert_int_equal(got, want);
    }
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    cpu_only();
    if (tk_racecheck()) {
        EXPECT_RACE(tk_last_block(2, in, BLOCKS, &got), "last_block_sum", "a buffer of 160 bytes");
        EXPECT_RACE(tk_last_block(1, in, BLOCKS, &got), "last_block_sum", "a buffer of 160 bytes");
    }
}

/* Races between the threads of a block after a barrier or a warp's sync, whose threads the
 * next barrier or sync does not order: a lost update on a shared total or bin, bins read out
 * while others still count into them, a warp's second pass over shared memory without its
 * __syncwarp (or with a vote in its place). Each right twin is right in every order; the race
 * checker names both lines of each wrong one. */
void test_block_races(void **state)
{
    (void)state;
    static const char *const names[] = {"shared_counts", "shared_merge", "warp_passes"};
    static const int modes[] = {3, 2, 4};
    int in[64], out[64], lines[2], want[64] = {0};
    for (int i = 0; i < 64; i++)
        in[i] = next_int(1000);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 64; t++)
            want[b * 16 + in[t] % 8]++, want[b * 16 + 8] += in[t];
    EACH_ORDER(o)
    {
        for (int k = 0; k < 3; k++) {
            assert_int_equal(tk_block_race(k, 0, in, out, lines), 0);
            for (int i = 0; i < 64; i++)
                if (k == 2)
                    assert_int_equal(out[i], i < 32 ? in[(i + 2) % 32] + 1 : in[i]);
                else if (i % 16 < (k == 0 ? 9 : 8) && i < 32)
                    assert_int_equal(out[i], want[i]);
        }
    }
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    cpu_only();
    if (!tk_racecheck())
        return;
    for (int k = 0; k < 3; k++)
        for (int m = 1; m < modes[k]; m++) {
            char text[4096], kernel[64];
            struct capture c = capture_stderr();
            int e = tk_block_race(k, m, in, out, lines);
            captured(c, text, sizeof text);
            snprintf(kernel, sizeof kernel, "race in kernel %s ", names[k]);
            if (e != cudaErrorLaunchFailure || !strstr(text, kernel))
                fail_msg("%s, mode %d: error %d, and printed:\n%s", names[k], m, e, text);
            assert_names_lines(text, lines);
        }
}

/* A copy whose kind contradicts its pointers (device memory as the host side, or the other way
 * round): a warning naming the call's line, and the copy done; an error under
 * CUDA_CPU_STRICT=1, cudaErrorInvalidValue. The right twins pass silently in both. */
void test_copy_kind(void **state)
{
    (void)state;
    char text[4096], where[64];
    int line;
    assert_int_equal(tk_copy_kind(6, &line), 0);
    cpu_only();
    for (int strict = 0; strict < 2; strict++) {
        if (strict)
            setenv("CUDA_CPU_STRICT", "1", 1);
        struct capture c = capture_stderr();
        int e = tk_copy_kind(6, &line);
        captured(c, text, sizeof text);
        if (e || strstr(text, "cuda-cpu"))
            fail_msg("the right twins: error %d, and printed:\n%s", e, text);
        for (int which = 0; which < 6; which++) {
            c = capture_stderr();
            e = tk_copy_kind(which, &line);
            captured(c, text, sizeof text);
            snprintf(where, sizeof where, "test_cpu_backend_kernels.cu:%d", line);
            if (e != (strict ? cudaErrorInvalidValue : 0) || !strstr(text, where) ||
                !strstr(text, strict ? "cuda-cpu: cudaMemcpy" : "cuda-cpu: warning: cudaMemcpy") ||
                strchr(text, '\n') != text + strlen(text) - 1)
                fail_msg("copy %d%s: error %d, and printed:\n%s", which, strict ? " (strict)" : "",
                         e, text);
        }
    }
    unsetenv("CUDA_CPU_STRICT");
}

/* Out of bounds and use after free abort under ASan: run them in a child. */
static void expect_asan(int which, const char *kind)
{
    cpu_only();
    if (!tk_sanitized())
        skip();
    char path[] = "/tmp/test_cpu_backend_XXXXXX";
    int fd = mkstemp(path);
    int lines[2] = {0, 0};
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        tk_wrong(which, lines);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    char text[65536];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!strstr(text, kind))
        fail_msg("no %s in: %s", kind, text);
    if (which == 2) {
        char where[64];
        snprintf(where, sizeof where, "test_cpu_backend_kernels.cu:%d", tk_oob_line());
        if (!strstr(text, where))
            fail_msg("no %s in: %s", where, text);
    }
}

/* A misaligned float4 load stops at its line, in every build (UBSan's alignment check),
 * as a GPU stops with "misaligned address"; the aligned twin runs. */
void test_misaligned(void **state)
{
    (void)state;
    cpu_only();
    float sum = 0;
    char path[] = "/tmp/test_cpu_backend_XXXXXX";
    int fd = mkstemp(path), line = tk_misaligned(4, &sum);
    assert_true(sum == 5 + 6 + 7 + 8);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        tk_misaligned(1, &sum);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    char text[8192], where[64];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_non_null(strstr(text, "misaligned address"));
    snprintf(where, sizeof where, "test_cpu_backend_kernels.cu:%d", line);
    if (!strstr(text, where))
        fail_msg("no %s in: %s", where, text);
}

/* A failed assert() fails the launch with cudaErrorAssert and CUDA's line; on a GPU the error
 * is sticky (the rest of the process could not run), here it is not. */
void test_assert(void **state)
{
    (void)state;
    cpu_only();
    char text[4096], where[64];
    int lines[2];
    setenv("CUDA_CPU_SCHEDULE", "forward", 1); /* thread 8 is the first to fail */
    assert_int_equal(run_wrong(6, lines, text, sizeof text), cudaErrorAssert);
    snprintf(where, sizeof where, "test_cpu_backend_kernels.cu:%d: void asserting(unsigned int)",
             lines[0]);
    if (!strstr(text, where) ||
        !strstr(text, "block: [1,0,0], thread: [8,0,0] Assertion `blockIdx.x * blockDim.x + "
                      "threadIdx.x < n` failed."))
        fail_msg("not CUDA's assert line: %s", text);
    long long sum;
    int in[3] = {1, 2, 3};
    assert_int_equal(tk_reduce(0, in, 3, &sum), 0);
    assert_int_equal(sum, 6);
}

void test_out_of_bounds(void **state)
{
    (void)state;
    expect_asan(2, "heap-buffer-overflow");
}

void test_use_after_free(void **state)
{
    (void)state;
    expect_asan(3, "heap-use-after-free");
}
