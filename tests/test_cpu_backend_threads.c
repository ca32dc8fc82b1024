/* The portable tests of threads: indices and shapes, reductions (test_cpu_backend_kernels.cu),
 * warps, atomics and cooperative groups (test_cpu_backend_kernels_threads.cu). */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

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

void test_indices(void **state)
{
    (void)state;
    check_indices(5, 1, 1, 1, 1, 1);
    check_indices(3, 1, 1, 33, 1, 1);
    check_indices(2, 1, 1, 1024, 1, 1);
    check_indices(3, 2, 2, 4, 3, 2);
    check_indices(2, 3, 4, 8, 4, 32);
}

/* ------------------------------------------------------------------ reductions */
void test_reduce(void **state)
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
void test_warp_ops(void **state)
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
void check_atomics(int shared, int blocks, int threads)
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

void test_atomics(void **state)
{
    (void)state;
    check_atomics(0, 1, 1);
    check_atomics(0, 3, 33);
    check_atomics(0, 4, 256);
    check_atomics(1, 1, 1);
    check_atomics(1, 1, 1024);
}

void test_histogram(void **state)
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

void test_cooperative_groups(void **state)
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
