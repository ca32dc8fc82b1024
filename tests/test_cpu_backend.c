/* Tests of the CPU backend (common/cpu/), through the launchers of test_cpu_backend_kernels.cu.
 * The portable tests run every kernel under several thread orders and check exact integer
 * results, so on a GPU (BACKEND=cuda) they must pass unchanged; the deliberately wrong
 * kernels run on the CPU backend only, which must report them. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

int tk_is_cpu(void);
int tk_sanitized(void);
int tk_racecheck(void);
int tk_indices(const unsigned grid[3], const unsigned block[3], int *out);
int tk_reverse(int dynamic, int *data, int n);
int tk_early_return(int *data, int n, int threads);
int tk_read_dynamic(int *out, int n);
int tk_transpose(int *m, int rows, int cols);
int tk_reduce(int variant, const int *in, int n, long long *sum);
int tk_warp_ops(int *out, int threads);
int tk_atomics(int shared, int blocks, int threads, long long *out);
int tk_histogram(const unsigned char *in, int n, unsigned *bins);
int tk_constants(int *data, int n, const int *c16, int *total);
int tk_stream(int *host, int n, float *ms);
int tk_bad_launch(int which, int *cleared);
int tk_device(long long *out);
int tk_sms(void);
int tk_missing_barrier(int *data, int n);
int tk_wrong(int which, int lines[2]);
int tk_oob_line(void);
int tk_misaligned(int offset, float *sum);
int tk_shift(int in_place, int *data, int n);
int tk_total(int atomic, const int *in, int n, int *total);
int tk_last_block(int fence, const int *in, int blocks, int *sum);
int tk_block_race(int kernel, int mode, const int *in, int *out, int lines[2]);
int tk_copy_kind(int which, int *line);
int tk_cg(int *out, int blocks);
int tk_pitched(int *host, int w, int h, size_t *pitch);
int tk_host_side(int *out);
int tk_texture(const int cfg[9], float border, const void *texels, int w, int h, const float *x,
               const float *y, int n, float *out);
void tk_channel_descs(int out[20]);
int tk_texture_refused(int which);
int tk_work(int iterations, unsigned long long counts[3]);
int tk_window(unsigned blocks, size_t n, const size_t *at, int k, unsigned *got);

enum { cudaErrorInvalidValue = 1, cudaErrorAssert = 710, cudaErrorLaunchFailure = 719 };

/* Every portable test runs under these orders (the GPU ignores them). */
static const char *const orders[] = {"forward", "reverse", "random:12345"};
#define EACH_ORDER(o) for (int o = 0; o < 3 && setenv("CUDA_CPU_SCHEDULE", orders[o], 1) == 0; o++)

static uint32_t rng = 12345;
static int next_int(int bound)
{
    rng = rng * 1664525u + 1013904223u;
    return (int)((rng >> 8) % (uint32_t)bound);
}

static void cpu_only(void)
{
    if (!tk_is_cpu())
        skip();
}

/* What the backend prints while a test provokes it on purpose: captured, for the test to
 * check, rather than shown as if something had gone wrong. */
struct capture {
    int saved;
    FILE *file;
};

static struct capture capture_stderr(void)
{
    struct capture c;
    fflush(stderr);
    c.saved = dup(2);
    c.file = tmpfile();
    dup2(fileno(c.file), 2);
    return c;
}

static void captured(struct capture c, char *text, size_t size)
{
    fflush(stderr);
    dup2(c.saved, 2);
    close(c.saved);
    rewind(c.file);
    text[fread(text, 1, size - 1, c.file)] = 0;
    fclose(c.file);
}

static void test_bad_schedule(void **state)
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

/* ------------------------------------------------------------------ shapes and indices */
static void check_indices(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz)
{
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    size_t threads = (size_t)gx * gy * gz * bx * by * bz;
    int *out = calloc(4 * threads, sizeof *out);
    EACH_ORDER(o)
    {
        memset(out, 0, 4 * threads * sizeof *out);
        assert_int_equal(tk_indices(grid, block, out), 0);
        size_t i = 0;
        for (unsigned z = 0; z < gz; z++)
            for (unsigned y = 0; y < gy; y++)
                for (unsigned x = 0; x < gx; x++)
                    for (unsigned tz = 0; tz < bz; tz++)
                        for (unsigned ty = 0; ty < by; ty++)
                            for (unsigned tx = 0; tx < bx; tx++, i++) {
                                assert_int_equal(out[4 * i], (int)(x | y << 8 | z << 16));
                                assert_int_equal(out[4 * i + 1], (int)(tx | ty << 11 | tz << 22));
                                assert_int_equal(out[4 * i + 2], (int)(bx * by * bz));
                                assert_int_equal(out[4 * i + 3], (int)(gx * gy * gz + 32));
                            }
    }
    free(out);
}

static void test_indices(void **state)
{
    (void)state;
    check_indices(5, 1, 1, 1, 1, 1);
    check_indices(3, 1, 1, 33, 1, 1);
    check_indices(2, 1, 1, 1024, 1, 1);
    check_indices(3, 2, 2, 4, 3, 2);
    check_indices(2, 3, 4, 8, 4, 32);
}

/* ------------------------------------------------------------------ shared memory */
static void test_reverse(void **state)
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
                for (int i = 0; i < n; i++)
                    assert_int_equal(data[i], (n - 1 - i) * 3 + o);
            }
}

static void test_early_return(void **state)
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

static void test_transpose(void **state)
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

/* ------------------------------------------------------------------ reductions */
static void test_reduce(void **state)
{
    (void)state;
    static const int sizes[] = {0, 1, 31, 33, 256, 1000003, 1 << 20};
    int *in = malloc((1 << 20) * sizeof *in);
    for (int s = 0; s < 7; s++) {
        int n = sizes[s];
        long long want = 0, got;
        if (n > 65536 && tk_racecheck()) /* ThreadSanitizer: minutes for these sizes */
            continue;
        for (int i = 0; i < n; i++)
            in[i] = next_int(2001) - 1000, want += in[i];
        for (int v = 0; v < 4; v++)
            EACH_ORDER(o)
            {
                if (v == 1 && tk_racecheck()) /* warp-synchronous: a race, as since Volta */
                    continue;
                assert_int_equal(tk_reduce(v, in, n, &got), 0);
                if (got != want)
                    fail_msg("variant %d, n = %d, order %s: %lld, want %lld", v, n, orders[o], got,
                             want);
            }
    }
    free(in);
}

/* ------------------------------------------------------------------ warps */
static void test_warp_ops(void **state)
{
    (void)state;
    int out[20 * 96];
    for (int threads = 96; threads >= 48; threads -= 48)
        EACH_ORDER(o)
        {
            memset(out, 0, sizeof out);
            assert_int_equal(tk_warp_ops(out, threads), 0);
            for (int t = 0; t < threads; t++) {
                int lane = t % 32, w = t / 32, *r = out + 20 * t;
#define V(l) ((l)*3 + 1)
                if (w == 1 && threads % 32 == 0) {
                    assert_int_equal(r[0], V(31 - lane));
                    assert_int_equal(r[1], V(lane >= 3 ? lane - 3 : lane));
                    assert_int_equal(r[2], V(lane + 7 < 32 ? lane + 7 : lane));
                    assert_int_equal(r[3], V(lane ^ 5));
                    assert_int_equal(r[4], V(lane % 8 + 3 < 8 ? lane + 3 : lane));
                    assert_int_equal(r[5], V(lane ^ 9));
                    assert_int_equal((unsigned)r[6], 0x49249249u);
                    assert_int_equal(r[7], 1);
                    assert_int_equal(r[8], 0);
                    assert_int_equal((unsigned)r[9], 0xffffffffu);
                    assert_int_equal(r[10], lane ^ 1);
                    assert_int_equal(r[11], V(8));
                    assert_int_equal((unsigned)r[17], 0xfu << (lane / 4 * 4));
                    assert_int_equal(r[18], V(lane / 16 * 16 + 3));
                    assert_int_equal(r[19], 32);
                } else {
                    for (int k = 0; k < 12; k++)
                        assert_int_equal(r[k], 0);
                    for (int k = 17; k < 20; k++)
                        assert_int_equal(r[k], 0);
                }
                assert_int_equal((unsigned)r[16], lane < 10 ? 0x3ffu : 0u);
                if (lane < 16)
                    assert_int_equal(r[12], 0xaaaa + V(15 - lane));
                int lanes = threads - 32 * w < 32 ? threads - 32 * w : 32;
                assert_int_equal((unsigned)r[13], lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
                assert_int_equal(r[14], threads == 96 ? 48 : 24);
                assert_int_equal(r[15], 3);
#undef V
            }
        }
}

/* ------------------------------------------------------------------ atomics */
static void check_atomics(int shared, int blocks, int threads)
{
    int n = blocks * threads;
    long long want[24] = {0, 0, 1 << 30, -1, -1, 0,  0, 0, -1, 0, 0xffffffffll, 0, 0, 0,
                          0, 0, -1,      0,  0,  -1, 0, 0, 0,  0};
    unsigned long long ull_and = ~0ull, ull_or = 0;
    for (int id = 0; id < n; id++) {
        want[0] += id, want[1] -= id;
        if (1000 - id < want[2])
            want[2] = 1000 - id;
        if (id * 7 % 1013 > want[3])
            want[3] = id * 7 % 1013;
        want[4] &= ~(1 << (id % 31)), want[5] |= 1 << (id % 29), want[6] ^= id;
        want[7] += 2, want[8] += id, want[9] += id;
        if (id + 5 < want[10])
            want[10] = id + 5;
        if (id * 3 > want[11])
            want[11] = id * 3;
        want[15] += (1ll << 40) + id;
        ull_and &= ~(1ull << (id % 63)), ull_or |= 1ull << (id % 61);
        want[22] += id, want[23] += id;
    }
    want[4] = (int)want[4], want[5] = (int)want[5], want[1] = (int)want[1],
    want[9] = (unsigned)want[9];
    want[12] = n % 17, want[13] = (10 - n % 10) % 10, want[14] = n;
    want[16] = 0, want[17] = (long long)(n - 1) << 33, want[18] = (long long)ull_and,
    want[19] = (long long)ull_or;
    want[20] = 3ll * n, want[21] = want[22];
    long long got[24];
    EACH_ORDER(o)
    {
        assert_int_equal(tk_atomics(shared, blocks, threads, got), 0);
        for (int k = 0; k < 24; k++)
            if (got[k] != want[k])
                fail_msg("%s atomics, counter %d, order %s: %lld, want %lld",
                         shared ? "shared" : "global", k, orders[o], got[k], want[k]);
    }
}

static void test_atomics(void **state)
{
    (void)state;
    check_atomics(0, 1, 1);
    check_atomics(0, 3, 33);
    check_atomics(0, 4, 256);
    check_atomics(1, 1, 1);
    check_atomics(1, 1, 1024);
}

static void test_histogram(void **state)
{
    (void)state;
    enum { N = 100003 };
    static unsigned char in[N];
    unsigned want[256] = {0}, got[256];
    for (int i = 0; i < N; i++)
        in[i] = (unsigned char)(next_int(7) * next_int(37)), want[in[i]]++;
    EACH_ORDER(o)
    {
        assert_int_equal(tk_histogram(in, N, got), 0);
        assert_memory_equal(got, want, sizeof want);
    }
}

/* ------------------------------------------------------------------ runtime API */
static void test_constants(void **state)
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

static void test_stream_events(void **state)
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

static void test_bad_launch(void **state)
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

static void test_device(void **state)
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

/* ------------------------------------------------------------------ cooperative groups */
enum { CG_BLOCK = 6, CG_TILE = 18, CG_BIG = 4, CG_OUT = CG_BLOCK + 3 * CG_TILE + CG_BIG };

static int cg_value(unsigned block, unsigned rank)
{
    return (int)((rank * 37 + block * 11) % 101) - 50;
}

/* What tile_ops() of test_cpu_backend_kernels.cuh must give thread `rank` of a tile of n. */
static void expect_tile(int block, int rank, int n, int want[CG_TILE])
{
    int base = rank / n * n, r = rank % n, v[32] = {0};
    for (int k = 0; k < n; k++)
        v[k] = cg_value(block, base + k);
    memset(want, 0, CG_TILE * sizeof *want);
    want[0] = r, want[1] = n, want[2] = rank / n, want[3] = 128 / n;
    want[4] = v[(r + 1) % n];
    want[5] = r + 1 < n ? v[r + 1] : v[r];
    want[6] = r >= 2 ? v[r - 2] : v[r];
    want[7] = v[r ^ (n / 2 + 1)];
    unsigned and_ = ~0u, or_ = 0, xor_ = 0, ballot = 0,
             x_other = (unsigned)v[n - 1 - r] * 2654435761u;
    int all = 1, sum = 0, lo = v[0], hi = v[0];
    for (int k = 0; k < n; k++) {
        want[8] |= v[k] > 40, all &= v[k] > -40;
        ballot |= (unsigned)(v[k] % 3 == 0) << k;
        sum += v[k], lo = v[k] < lo ? v[k] : lo, hi = v[k] > hi ? v[k] : hi;
        and_ &= (unsigned)v[k] | 0x10u, or_ |= 1u << (k * 7 % 31);
        xor_ ^= (unsigned)v[k] * 2654435761u;
    }
    want[9] = all, want[10] = (int)ballot, want[11] = sum, want[12] = lo, want[13] = hi;
    want[14] = (int)and_, want[15] = (int)or_;
    want[16] = (int)xor_ ^ (int)(((long long)x_other << 20) >> 20) ^ -v[n - 1 - r];
    want[17] = v[(r + n - 1) % n];
}

static void test_cooperative_groups(void **state)
{
    (void)state;
    enum { BLOCKS = 3, N = BLOCKS * 128 * CG_OUT };
    static int out[N];
    EACH_ORDER(o)
    {
        memset(out, 0, sizeof out);
        assert_int_equal(tk_cg(out, BLOCKS), 0);
        for (int b = 0; b < BLOCKS; b++)
            for (int t = 0; t < 128; t++) {
                const int *got = out + (b * 128 + t) * CG_OUT;
                int want[CG_OUT], v = cg_value(b, t), big = 0;
                int block[CG_BLOCK] = {t,
                                       128,
                                       b,
                                       t % 16 + 100 * (t / 16 % 4) + 10000 * (t / 64),
                                       16 + 100 * 4 + 10000 * 2,
                                       cg_value(b, 127 - t)};
                memcpy(want, block, sizeof block);
                for (int k = 0; k < 3; k++)
                    expect_tile(b, t, (int[]){4, 16, 32}[k], want + CG_BLOCK + k * CG_TILE);
                for (int k = t / 64 * 64; k < t / 64 * 64 + 64; k++)
                    big += cg_value(b, k);
                int *w = want + CG_BLOCK + 3 * CG_TILE;
                w[0] = t % 64, w[1] = t / 64, w[2] = 2, w[3] = big;
                for (int k = 0; k < CG_OUT; k++)
                    if (got[k] != want[k])
                        fail_msg("block %d, thread %d (value %d), output %d, order %s: %d, want %d",
                                 b, t, v, k, orders[o], got[k], want[k]);
            }
    }
}

/* ------------------------------------------------------------------ more of the runtime API */
static void test_pitched(void **state)
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

static void test_host_side(void **state)
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

/* ------------------------------------------------------------------ textures */
/* The CUDA programming guide's texture fetching, as an H100 does it (CUDA 13.0): normalised
 * coordinates cut to 21 fractional bits, then scaled exactly; texel centres at +0.5; wrap and
 * mirror on the texel index, with normalised coordinates only (else clamp); linear filtering
 * weights in 256ths, in 2D the corner's rounded and the others what is left of the 1D ones;
 * unsigned 8- and 16-bit texels read as normalised floats and filtered in 16-bit fixed point,
 * rounded once; a 32-bit integer read out of range in border mode is the border colour's bits.
 * Float texels are small integers, so that the filter's sums are exact. */
enum { WRAP, CLAMP, MIRROR, BORDER };
enum { SIGNED, UNSIGNED, FLOAT };
struct texture {
    const void *texels;
    int w, h, bits, channels, kind, address, linear, normalized, as_float;
    float border;
};

static long long tex_index(const struct texture *t, long long i, long long n)
{
    int mode = t->normalized || t->address == BORDER ? t->address : CLAMP;
    if (mode == WRAP)
        return (i % n + n) % n;
    if (mode == MIRROR) {
        long long m = (i % (2 * n) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    if (mode == BORDER)
        return i < 0 || i >= n ? -1 : i;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Channel c of texel (i, j), or of the border colour in the texel's format (-1: outside). */
static double texel(const struct texture *t, long long i, long long j, int c)
{
    long long k = (j * t->w + i) * t->channels + c,
              top = (1ll << (t->bits - (t->kind == SIGNED))) - 1;
    if (i < 0 || j < 0) {
        if (t->kind == FLOAT)
            return t->border;
        if (!t->as_float) { /* the low bits of the float */
            uint32_t bits;
            memcpy(&bits, &t->border, sizeof bits);
            long long v = t->bits == 32 ? (long long)bits : bits & ((1u << t->bits) - 1);
            return t->kind == SIGNED && v >> (t->bits - 1) ? v - (1ll << t->bits) : v;
        }
        double lo = t->kind == SIGNED ? -1 : 0, b = t->border < lo  ? lo
                                                    : t->border > 1 ? 1
                                                                    : t->border;
        return (long long)(b * top);
    }
    if (t->kind == FLOAT)
        return ((const float *)t->texels)[k];
    if (t->bits == 8)
        return t->kind == SIGNED ? ((const signed char *)t->texels)[k]
                                 : ((const unsigned char *)t->texels)[k];
    if (t->bits == 16)
        return t->kind == SIGNED ? ((const short *)t->texels)[k]
                                 : ((const unsigned short *)t->texels)[k];
    return ((const int *)t->texels)[k];
}

static double expect_fetch(const struct texture *t, int dims, float x, float y, int c)
{
    long long n[2] = {t->w, t->h}, ix[2][2] = {{0, 0}, {0, 0}};
    int w[2] = {0, 0};
    float u[2] = {x, y};
    for (int d = 0; d < dims; d++) {
        double v = t->normalized ? floor(u[d] * 2097152.0) / 2097152.0 * n[d] : u[d];
        v = t->linear ? v - 0.5 : v;
        double f = floor(v);
        w[d] = t->linear ? (int)floor((v - f) * 256.0 + 0.5) : 0;
        ix[d][0] = tex_index(t, (long long)f, n[d]);
        ix[d][1] = tex_index(t, (long long)f + 1, n[d]);
    }
    long long top = (1ll << (t->bits - (t->kind == SIGNED))) - 1;
    if (!t->linear) {
        double v = texel(t, ix[0][0], ix[1][0], c);
        if (t->kind == FLOAT || !t->as_float)
            return v;
        float f = (float)v / (float)top;
        return f < -1 ? -1 : f;
    }
    int corner = dims > 1 ? (w[0] * w[1] + 128) / 256 : 0, weight[4];
    weight[0] = 256 - w[0] - w[1] + corner, weight[1] = w[0] - corner;
    weight[2] = w[1] - corner, weight[3] = corner;
    double sum = 0;
    for (int k = 0; k < 4; k++)
        if (weight[k])
            sum += texel(t, ix[0][k & 1], ix[1][k >> 1], c) * weight[k] *
                   (t->kind == UNSIGNED && t->bits == 8 ? 257 : 1);
    if (t->kind == UNSIGNED)
        return (float)(((long long)sum + 128) / 256) / 65535.0f;
    return (float)(sum / 256);
}

/* Fetches t at every (xs[i], ys[j]) through resource `res` (see tk_texture) and fetch `mode`. */
static void check_texture(const struct texture *t, int res, int mode, const float *xs, int nx,
                          const float *ys, int ny)
{
    static const int dims_of[] = {1, 1, 2, 2, 2, 2};
    int n = nx * ny, cfg[9] = {res,       t->bits,       t->channels, t->kind, t->address,
                               t->linear, t->normalized, t->as_float, mode};
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y),
          *out = malloc(4 * n * sizeof *out);
    for (int i = 0; i < n; i++)
        x[i] = xs[i % nx], y[i] = ys[i / nx];
    assert_int_equal(tk_texture(cfg, t->border, t->texels, t->w, t->h, x, y, n, out), 0);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            double want = c < t->channels ? expect_fetch(t, dims_of[mode], x[i], y[i], c) : 0;
            float f = out[4 * i + c];
            int bits;
            memcpy(&bits, &f, sizeof bits);
            double got = mode == 4 ? (double)bits : (double)f; /* mode 4: an int's bits */
            if (mode != 4 ? f != (float)want || signbit(f) != signbit((float)want) : got != want)
                fail_msg("resource %d, fetch %d, %d-bit kind %d, address %d, %s, %s coordinates, "
                         "read %s: at (%.9g, %.9g) channel %d: %.9g, want %.9g",
                         res, mode, t->bits, t->kind, t->address, t->linear ? "linear" : "point",
                         t->normalized ? "normalised" : "texel",
                         t->as_float ? "normalised" : "element", x[i], y[i], c, got, want);
        }
    free(x), free(y), free(out);
}

/* n coordinates from `from` in steps of `step` texels of a texture of `size` (1: texel
 * coordinates), on the 1/256 grid of a texel (grid) or anywhere (off_grid). */
static void grid(float *c, int n, double from, double step, int size)
{
    for (int i = 0; i < n; i++)
        c[i] = (float)(floor((from + i * step) * 256) / 256 / size);
}

static void off_grid(float *c, int n, double from, double step, int size)
{
    for (int i = 0; i < n; i++)
        c[i] = (float)((from + i * step) / size);
}

static void test_texture_float(void **state)
{
    (void)state;
    float texels[8 * 4];
    for (int i = 0; i < 8 * 4; i++)
        texels[i] = (float)((i * 7 + i / 8 * 11) % 23 - 5);
    float xs[48], ys[12], offx[40], offy[9], nxs[80], nys[10], x53[40], y53[9], x7[80], off7[40];
    grid(xs, 48, -1.5, 0.17, 1), grid(ys, 12, -1.0, 0.43, 1);
    off_grid(offx, 40, -1.3, 0.211, 1), off_grid(offy, 9, -0.7, 0.61, 1);
    grid(nxs, 80, -10.0, 0.33, 8), grid(nys, 10, -1.2, 0.77, 4);
    off_grid(x53, 40, -6.0, 0.43, 5), off_grid(y53, 9, -4.1, 1.3, 3);
    grid(x7, 80, -10.0, 0.33, 7), off_grid(off7, 40, -10.0, 0.61, 7);
    for (int linear = 0; linear < 2; linear++) {
        /* texel coordinates, clamp and border, on a 5 x 3 array and on pitched memory */
        for (int address = CLAMP; address <= BORDER; address += 2) {
            struct texture t = {texels, 5, 3, 32, 1, FLOAT, address, linear, 0, 0, -3.0f};
            check_texture(&t, 0, 2, xs, 48, ys, 12);
            check_texture(&t, 2, 2, xs, 48, ys, 12);
            check_texture(&t, 0, 2, offx, 40, offy, 9);
        }
        /* normalised coordinates, every address mode, on 8 x 4 and on 5 x 3 */
        for (int address = WRAP; address <= BORDER; address++) {
            struct texture t = {texels, 8, 4, 32, 1, FLOAT, address, linear, 1, 0, 2.0f};
            check_texture(&t, 0, 2, nxs, 80, nys, 10);
            struct texture t53 = {texels, 5, 3, 32, 1, FLOAT, address, linear, 1, 0, 2.0f};
            check_texture(&t53, 0, 2, x53, 40, y53, 9);
        }
        /* 1D: an array of 7 with normalised coordinates */
        struct texture t = {texels, 7, 1, 32, 1, FLOAT, WRAP, linear, 1, 0, 0};
        check_texture(&t, 1, 1, x7, 80, nys, 1);
        check_texture(&t, 1, 1, off7, 40, nys, 1);
    }
}

static void test_texture_normalized(void **state)
{
    (void)state;
    unsigned char u8[6 * 5 * 4];
    signed char s8[256];
    unsigned short u16[300];
    short s16[300];
    for (int i = 0; i < 6 * 5 * 4; i++)
        u8[i] = (unsigned char)(i * 97 % 256);
    for (int i = 0; i < 256; i++)
        s8[i] = (signed char)(i - 128);
    for (int i = 0; i < 300; i++)
        u16[i] = (unsigned short)(i * 7919 % 65536), s16[i] = (short)(i * 7919 % 65536 - 32768);
    float xs[40], ys[9], idx[300];
    off_grid(xs, 40, -1.0, 0.21, 1), off_grid(ys, 9, -0.6, 0.77, 1);
    for (int i = 0; i < 300; i++)
        idx[i] = i + 0.5f;
    for (int linear = 0; linear < 2; linear++) {
        /* unsigned 8-bit on pitched memory, on a 2D array, and 4 channels (uchar4) */
        struct texture t = {u8, 6, 5, 8, 1, UNSIGNED, CLAMP, linear, 0, 1, 0};
        check_texture(&t, 2, 2, xs, 40, ys, 9);
        check_texture(&t, 0, 2, xs, 40, ys, 9);
        struct texture t4 = {u8, 6, 5, 8, 4, UNSIGNED, BORDER, linear, 0, 1, 0};
        check_texture(&t4, 0, 3, xs, 40, ys, 9);
        /* unsigned 16-bit, 1D, every value of the texture, and between them */
        struct texture t16 = {u16, 300, 1, 16, 1, UNSIGNED, CLAMP, linear, 0, 1, 0};
        float between[40];
        off_grid(between, 40, -1.0, 0.37, 1);
        check_texture(&t16, 1, 1, idx, 300, ys, 1);
        check_texture(&t16, 1, 1, between, 40, ys, 1);
    }
    /* signed: point sampling ([-1, 1], the most negative value clamped to -1) */
    struct texture ts8 = {s8, 256, 1, 8, 1, SIGNED, CLAMP, 0, 0, 1, 0};
    check_texture(&ts8, 1, 1, idx, 256, ys, 1);
    struct texture ts16 = {s16, 300, 1, 16, 1, SIGNED, CLAMP, 0, 0, 1, 0};
    check_texture(&ts16, 1, 1, idx, 300, ys, 1);
}

static void test_texture_elements(void **state)
{
    (void)state;
    int ints[6 * 5];
    unsigned char u8[6 * 5 * 4];
    float floats[13];
    for (int i = 0; i < 6 * 5; i++)
        ints[i] = i * 1000003 - 7;
    for (int i = 0; i < 6 * 5 * 4; i++)
        u8[i] = (unsigned char)(i * 31 + 5);
    for (int i = 0; i < 13; i++)
        floats[i] = i * 1.5f - 4;
    float xs[40], ys[9], nxs[40], nys[9], idx[20];
    off_grid(xs, 40, -1.0, 0.21, 1), off_grid(ys, 9, -0.6, 0.77, 1);
    off_grid(nxs, 40, -7.0, 0.53, 6), off_grid(nys, 9, -3.0, 1.5, 5);
    nxs[0] = -7.0f / 6; /* -1.1666666 cut to 21 bits, times 6, is below -7: texel 4, not 5 */
    nys[0] = -0.6f;     /* -0.6 times 5 is below -3, not -3 as in fp32: row 3, not 2 */
    for (int i = 0; i < 20; i++)
        idx[i] = (float)(i - 3);
    /* 32-bit integers as such: clamp; border (the border colour's bits) */
    for (int address = CLAMP; address <= BORDER; address += 2) {
        struct texture t = {ints, 6, 5, 32, 1, SIGNED, address, 0, 0, 0, 7.5f};
        check_texture(&t, 0, 4, xs, 40, ys, 9);
    }
    /* uchar4 as such, normalised coordinates, mirror */
    struct texture t4 = {u8, 6, 5, 8, 4, UNSIGNED, MIRROR, 0, 1, 0, 0};
    check_texture(&t4, 0, 5, nxs, 40, nys, 9);
    /* tex1Dfetch on linear memory: indices out of range give zero, whatever the mode */
    struct texture tl = {floats, 13, 1, 32, 1, FLOAT, BORDER, 0, 0, 0, 9.0f};
    int cfg[9] = {3, 32, 1, FLOAT, BORDER, 0, 0, 0, 0};
    float out[4 * 20];
    assert_int_equal(tk_texture(cfg, 9.0f, floats, 13, 1, idx, idx, 20, out), 0);
    for (int i = 0; i < 20; i++)
        assert_true(out[4 * i] ==
                    (idx[i] >= 0 && idx[i] < 13 ? expect_fetch(&tl, 1, idx[i] + 0.5f, 0, 0) : 0));
    int descs[20], want[20] = {8,  8, 8, 8, UNSIGNED, 16, 16, 0, 0, SIGNED,
                               32, 0, 0, 0, FLOAT,    32, 0,  0, 0, SIGNED};
    tk_channel_descs(descs);
    assert_memory_equal(descs, want, sizeof want);
    assert_int_equal(tk_texture_refused(0), 26); /* cudaErrorInvalidFilterSetting */
    assert_int_equal(tk_texture_refused(1), 27); /* cudaErrorInvalidNormSetting */
}

/* ------------------------------------------------------------------ CPU backend only */
static void test_poison(void **state)
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

static void test_missing_barrier(void **state)
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

static void test_divergent_barrier(void **state)
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

static void test_deadlock(void **state)
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
static void test_strict(void **state)
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
static void test_barrier_in_branch(void **state)
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
static void test_mask_past_block(void **state)
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
static void test_block_order(void **state)
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
static void test_race_on_total(void **state)
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
static void test_missing_fence(void **state)
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
static void test_block_races(void **state)
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
static void test_copy_kind(void **state)
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
static void test_misaligned(void **state)
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
static void test_assert(void **state)
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

static void test_out_of_bounds(void **state)
{
    (void)state;
    expect_asan(2, "heap-buffer-overflow");
}

static void test_use_after_free(void **state)
{
    (void)state;
    expect_asan(3, "heap-use-after-free");
}

/* Blocks on two workers: integer results do not depend on it. */
static void test_workers(void **state)
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
static void test_work(void **state)
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

static void test_window(void **state)
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indices),
        cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_stream_events),
        cmocka_unit_test(test_bad_launch),
        cmocka_unit_test(test_device),
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
