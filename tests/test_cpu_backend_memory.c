/* The portable tests of shared and constant memory and of the runtime API: streams, bad
 * launches, device facts, pitched and managed memory (test_cpu_backend_kernels_memory.cu). */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

/* ------------------------------------------------------------------ shared memory */
void test_reverse(void **state)
{
    (void)state;
    static const int sizes[] = {1, 33, 1024};
    int data[1024];
    for (int dynamic = 0; dynamic < 2; dynamic++)
        for (int s = 0; s < 3; s++)
            EACH_ORDER(o)
            {
                int n = sizes[s];
                for (int i = 0; i < n; i++)
                    data[i] = i * 3 + o;
                assert_int_equal(tk_reverse(dynamic, data, n), 0);
                if (tk_is_cpu()) /* what the launch asked for, as the runtime recorded it */
                    assert_int_equal(tk_last_launch_smem(), dynamic ? n * (int)sizeof(int) : 0);
                for (int i = 0; i < n; i++)
                    assert_int_equal(data[i], (n - 1 - i) * 3 + o);
            }
}

void test_early_return(void **state)
{
    (void)state;
    int data[1024];
    static const int shapes[][2] = {{1, 1}, {20, 33}, {33, 64}, {1000, 1024}};
    for (int s = 0; s < 4; s++)
        EACH_ORDER(o)
        {
            int n = shapes[s][0];
            for (int i = 0; i < n; i++)
                data[i] = i + o;
            struct capture c = capture_stderr();
            char text[2048];
            int e = tk_early_return(data, n, shapes[s][1]);
            captured(c, text, sizeof text);
            assert_int_equal(e, 0);
            if (tk_is_cpu() && n < shapes[s][1]) /* a tail return before a barrier: a warning */
                assert_non_null(strstr(text, "warning: barrier reached by part of the block"));
            for (int i = 0; i < n; i++)
                assert_int_equal(data[i], 2 * ((i + 1) % n + o));
        }
}

void test_transpose(void **state)
{
    (void)state;
    enum { R = 33, C = 70 };
    int m[R * C];
    EACH_ORDER(o)
    {
        for (int i = 0; i < R * C; i++)
            m[i] = i + o;
        assert_int_equal(tk_transpose(m, R, C), 0);
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++)
                assert_int_equal(m[c * R + r], r * C + c + o);
    }
}

/* Asynchronous copies through 3 stages, zeros past n, in every order. On the CPU backend, which
 * writes a copy when its thread waits for it: waiting for one group too few reads shared memory
 * as it was (the race checker: a race), no barrier after the wait is a race, and a misaligned
 * copy fails as an assert does, naming the rule. */
void test_pipeline(void **state)
{
    (void)state;
    static const int sizes[] = {1, 130, 999, 1000};
    int in[1000], out[32], want[32];
    char text[4096];
    for (int s = 0; s < 4; s++)
        EACH_ORDER(o)
        {
            int n = sizes[s];
            for (int i = 0; i < n; i++)
                in[i] = i * 7 + o;
            memset(want, 0, sizeof want);
            for (int i = 0; i < n; i++)
                want[31 - i % 128 / 4] += in[i];
            assert_int_equal(tk_pipeline(in, n, out, 0), 0);
            assert_memory_equal(out, want, sizeof want);
        }
    if (!tk_is_cpu())
        return;
    setenv("CUDA_CPU_SCHEDULE", "forward", 1);
    for (int wrong = 1; wrong <= 3; wrong++) {
        struct capture c = capture_stderr();
        int e = tk_pipeline(in, 1000, out, wrong);
        captured(c, text, sizeof text);
        if (wrong == 3)
            assert_true(e == cudaErrorAssert &&
                        strstr(text, "dst_shared and src_global aligned to size_and_align"));
        else if (tk_racecheck())
            assert_true(e == cudaErrorLaunchFailure &&
                        strstr(text, "race in kernel pipeline_sum") &&
                        strstr(text, "tests/test_cpu_backend_kernels_memory.cu:"));
        else if (wrong == 1)
            assert_true(e == 0 && memcmp(out, want, sizeof want));
    }
}

/* ------------------------------------------------------------------ runtime API */
void test_constants(void **state)
{
    (void)state;
    enum { N = 1000 };
    int data[N], c16[16], total;
    for (int k = 0; k < 16; k++)
        c16[k] = k * k - 7;
    for (int i = 0; i < N; i++)
        data[i] = i - 500;
    assert_int_equal(tk_constants(data, N, c16, &total), 0);
    assert_int_equal(total, N);
    for (int i = 0; i < N; i++) {
        int clz = 0;
        while (clz < 32 && !((unsigned)(i + 1) >> (31 - clz) & 1))
            clz++;
        assert_int_equal(data[i], (i - 500) * c16[i % 16] + __builtin_popcount(i) + clz +
                                      (i < 7 ? i : 7) + (i > 3 ? i : 3));
    }
}

void test_stream_events(void **state)
{
    (void)state;
    enum { N = 5000 };
    int host[N];
    float ms = -1;
    assert_int_equal(tk_stream(host, N, &ms), 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(host[i], 2);
    assert_true(ms >= 0);
}

void test_bad_launch(void **state)
{
    (void)state;
    int cleared;
    /* 1025 threads, z of 65, grid y of 65536, no blocks, 200 KiB of dynamic shared memory:
     * CUDA 13 answers cudaErrorInvalidValue to all (CUDA 12: cudaErrorInvalidConfiguration). */
    for (int which = 0; which < 5; which++) {
        assert_int_equal(tk_bad_launch(which, &cleared), cudaErrorInvalidValue);
        assert_true(cleared);
    }
}

void test_device(void **state)
{
    (void)state;
    long long d[21];
    assert_int_equal(tk_device(d), 0);
    long long want[] = {1, 32, 1024, 1024, 64, 2147483647, 65535, 65535, 49152, 1,
                        1, 1,  1,    1,    1,  1,          1,     1,     1,     1};
    for (int k = 0; k < 20; k++)
        assert_int_equal(d[k], want[k]);
    assert_true(d[20] >= 7);
    if (tk_is_cpu()) { /* an SM per worker, unless CUDA_CPU_SMS says otherwise */
        assert_int_equal(tk_sms(), 1);
        setenv("CUDA_CPU_SMS", "132", 1);
        assert_int_equal(tk_sms(), 132);
        unsetenv("CUDA_CPU_SMS");
    }
}

/* 256 threads a block: 8 blocks fill an SM's 2048 threads (the CPU backend counts nothing
 * else). 80 KiB of dynamic shared memory is more than a launch may ask for until the kernel
 * asks for it: no block fits, then one does (here, one in the 96 KiB of an SM; an H100 fits 2). */
void test_occupancy(void **state)
{
    (void)state;
    int blocks[3];
    assert_int_equal(tk_occupancy(blocks), 0);
    assert_int_equal(blocks[1], 0);
    assert_true(blocks[2] >= 1 && blocks[2] <= blocks[0]);
    if (tk_is_cpu()) {
        assert_int_equal(blocks[0], 8);
        assert_int_equal(blocks[2], 1);
    }
}

/* ------------------------------------------------------------------ more of the runtime API */
void test_pitched(void **state)
{
    (void)state;
    enum { W = 45, H = 7 };
    int host[H][W];
    size_t pitch = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            host[y][x] = y * W + x;
    assert_int_equal(tk_pitched(&host[0][0], W, H, &pitch), 0);
    assert_true(pitch >= W * sizeof(int));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* the last column was not copied in: cudaMemset2D's -1 */
            int in = x < W - 1 ? y * W + x : -1;
            assert_int_equal(host[y][x], in + (x < 5 ? x : 5) + (y > 2 ? y : 2) * 100 + 10000);
        }
}

void test_host_side(void **state)
{
    (void)state;
    int out[8];
    assert_int_equal(tk_host_side(out), 0);
    assert_int_equal(out[0], 11); /* the callback and the host function ran after the kernel */
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 21);
    assert_int_equal(out[3], 1024);
    assert_int_equal(out[4], 1); /* mapped host memory, written by the kernel */
    assert_int_equal(out[5], 2 * 1023 + 1);
    assert_true(out[6] >= 32 && out[6] <= 1024 && out[6] % 32 == 0);
    assert_true(out[7] >= 1);
}
