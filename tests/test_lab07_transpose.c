/* lab07 tests: every variant against the CPU transpose, bit for bit (a transpose only
 * moves elements), on square, rectangular, 1 x N, N x 1 and odd shapes that leave partial
 * tiles on every side, with fresh random data and a poisoned output; per variant, transposing
 * twice gives the input back and unaligned buffers take the scalar paths; bad arguments return
 * LAB_EINVAL. The occupancy step: blocks per SM and the fraction of an SM's threads against
 * the CPU backend's occupancy calculator (on a GPU, what is possible), and tiled_padded with
 * unused dynamic shared memory still transposing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "testkit.h"
#include "transpose.h"

struct shape {
    size_t width, height;
};

/* 1 x 1; a single row and a single column; sides one below and one above the 32-wide tile
 * and the 64-row shuffle block; rectangles both ways; heights not multiples of 4 (no
 * float4 stores in the shuffle); a square of whole tiles. */
static const struct shape shapes[] = {{1, 1},     {1000, 1}, {1, 1000}, {31, 33},
                                      {33, 31},   {65, 63},  {100, 37}, {37, 100},
                                      {257, 130}, {96, 132}, {128, 128}};
/* Images: the same idea around 4-pixel words and 128-pixel tiles, and a 1080p frame. */
static const struct shape images[] = {{1, 1},    {999, 1},   {1, 999},   {31, 33},    {130, 67},
                                      {67, 130}, {129, 257}, {256, 128}, {1920, 1080}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int copies(int v)
{
    return transpose_facts[v].copy;
}

static size_t elem(int v)
{
    return transpose_facts[v].elem;
}

/* Random elements: floats in [-1000, 1000) or any bytes. */
static void random_elements(void *x, size_t n, size_t elem_bytes)
{
    if (elem_bytes == sizeof(float))
        testkit_floats(x, n, -1e3f, 1e3f);
    else
        testkit_bytes(x, n * elem_bytes);
}

typedef int (*runner)(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h);

/* Runs one variant on device buffers (in already uploaded) under every thread order and
 * compares out, `cols` elements per row, with want. */
static void expect(const char *name, runner run, int v, struct gpu_buf in, struct gpu_buf out,
                   struct shape s, const void *want, size_t elem_bytes, size_t cols)
{
    size_t n = s.width * s.height, bad;
    unsigned char *got = malloc(n * elem_bytes + 1);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %zu x %zu, order %s", name, s.width, s.height, testkit_order_name(o));
        gpu_poison(out);
        assert_status(run(v, in, out, s.width, s.height), LAB_OK);
        gpu_sync();
        gpu_download(got, out, n * elem_bytes);
        bad = lab_first_diff(got, want, n, elem_bytes);
        if (bad < n)
            fail_msg("%s, %zu x %zu, order %s: element %zu (row %zu, column %zu of the "
                     "result) is wrong",
                     name, s.width, s.height, testkit_order_name(o), bad, bad / cols, bad % cols);
    }
    free(got);
}

static int run_variant(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    return transpose((enum transpose_variant)v, in, out, w, h);
}

/* Every shape of its element size (floats: shapes, bytes: images) under every order. */
static void transposes(int v)
{
    const struct shape *list = elem(v) == 1 ? images : shapes;
    size_t count = elem(v) == 1 ? COUNT(images) : COUNT(shapes);
    for (size_t i = 0; i < count; i++) {
        struct shape s = list[i];
        size_t n = s.width * s.height, bytes = n * elem(v);
        if (n > testkit_max_size())
            continue;
        void *in = malloc(bytes), *want = malloc(bytes);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        random_elements(in, n, elem(v));
        if (copies(v))
            memcpy(want, in, bytes);
        else
            transpose_cpu(in, want, s.width, s.height, elem(v));
        gpu_upload(din, in, bytes);
        expect(transpose_variants[v].name, run_variant, v, din, dout, s, want, elem(v),
               copies(v) ? s.width : s.height);
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(want);
    }
}

/* Transposing the transpose gives the input back (and copying a copy: the copy rows too). */
static void twice_gives_input(int v)
{
    const struct shape s = {100, 37};
    size_t n = s.width * s.height;
    float *in = malloc(n * sizeof(float));
    struct gpu_buf a = gpu_alloc(n * sizeof(float)), b = gpu_alloc(n * sizeof(float));
    random_elements(in, n, elem(v));
    gpu_upload(a, in, n * elem(v));
    assert_status(transpose((enum transpose_variant)v, a, b, s.width, s.height), LAB_OK);
    gpu_poison(a);
    expect(transpose_variants[v].name, run_variant, v, b, a,
           copies(v) ? s : (struct shape){s.height, s.width}, in, elem(v), s.width);
    gpu_free(&a);
    gpu_free(&b);
    free(in);
}

/* Buffers one element past an aligned start: float4 and word accesses must give way to
 * scalar ones (the shape's height and width are multiples of 4). */
static void unaligned_buffers(int v)
{
    const struct shape s = {68, 36};
    size_t n = s.width * s.height;
    float *in = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
    struct gpu_buf a = gpu_alloc((n + 1) * sizeof(float));
    struct gpu_buf b = gpu_alloc((n + 1) * sizeof(float));
    struct gpu_buf a1 = {(char *)a.ptr + elem(v), n * elem(v)},
                   b1 = {(char *)b.ptr + elem(v), n * elem(v)};
    random_elements(in, n, elem(v));
    if (copies(v))
        memcpy(want, in, n * elem(v));
    else
        transpose_cpu(in, want, s.width, s.height, elem(v));
    gpu_upload(a1, in, n * elem(v));
    expect(transpose_variants[v].name, run_variant, v, a1, b1, s, want, elem(v),
           copies(v) ? s.width : s.height);
    gpu_free(&a);
    gpu_free(&b);
    free(in);
    free(want);
}

static void reference_cpu(void)
{
    const float in[6] = {1, 2, 3, 4, 5, 6}; /* 2 rows of 3 */
    const float want[6] = {1, 4, 2, 5, 3, 6};
    const uint8_t in8[6] = {1, 2, 3, 4, 5, 6}, want8[6] = {1, 4, 2, 5, 3, 6};
    float out[6];
    uint8_t out8[6];
    transpose_cpu(in, out, 3, 2, sizeof(float));
    assert_memory_equal(out, want, sizeof want);
    transpose_cpu(in8, out8, 3, 2, 1);
    assert_memory_equal(out8, want8, sizeof want8);
}

#ifdef BACKEND_CUDA
/* The library row of the bench is a transpose too (on a real GPU only). */
static int run_cublas(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    (void)v;
    return transpose_cublas(in, out, w, h);
}

static void reference_cublas(void)
{
    for (size_t i = 0; i < COUNT(shapes); i++) {
        struct shape s = shapes[i];
        size_t bytes = s.width * s.height * sizeof(float);
        float *in = malloc(bytes), *want = malloc(bytes);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        testkit_floats(in, s.width * s.height, -1e3f, 1e3f);
        transpose_cpu(in, want, s.width, s.height, sizeof(float));
        gpu_upload(din, in, bytes);
        expect("cublasSgeam", run_cublas, 0, din, dout, s, want, sizeof(float), s.height);
        assert_status(transpose_cublas(din, din, s.width, s.height), LAB_EINVAL);
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(want);
    }
}
#endif

static void args_rejected(void)
{
    struct gpu_buf a, b, c, shifted, none = {NULL, 0};
    a = gpu_alloc(100 * sizeof(float));
    b = gpu_alloc(100 * sizeof(float));
    c = gpu_alloc(50 * sizeof(float));
    shifted = (struct gpu_buf){(float *)a.ptr + 5, 95 * sizeof(float)}; /* inside a */
    for (int v = 0; v < TR_VARIANTS; v++) {
        enum transpose_variant t = (enum transpose_variant)v;
        size_t too_wide = 200 / elem(v) + 1; /* one element more than c holds */
        assert_status(transpose(t, none, b, 10, 10), LAB_EINVAL);
        assert_status(transpose(t, a, none, 10, 10), LAB_EINVAL);
        assert_status(transpose(t, a, c, too_wide, 1), LAB_EINVAL);
        assert_status(transpose(t, c, a, too_wide, 1), LAB_EINVAL);
        assert_status(transpose(t, a, a, 10, 10), LAB_EINVAL);          /* in place */
        assert_status(transpose(t, a, shifted, 9, 10), LAB_EINVAL);     /* overlapping */
        assert_status(transpose(t, a, b, SIZE_MAX / 2, 3), LAB_EINVAL); /* overflow */
        assert_status(transpose(t, a, b, 0, 10), LAB_OK);
        assert_status(transpose(t, none, none, 10, 0), LAB_OK);
    }
    assert_status(transpose(TR_VARIANTS, a, b, 10, 10), LAB_EINVAL);
    assert_status(transpose((enum transpose_variant) - 1, a, b, 10, 10), LAB_EINVAL);
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
}

/* ------------------------------------------------------------- occupancy, measured */

enum { PADDED_THREADS = TILE * BLOCK_ROWS };

/* The occupancy of v's kernel at threads and extra, which must be LAB_OK, with its fraction
 * of the SM's threads; on the CPU backend also the blocks its model counts (want; -1: any),
 * and anywhere no more than the SM's threads and shared memory allow. */
static struct transpose_occupancy occupancy_of(int v, unsigned threads, size_t extra, int want)
{
    struct transpose_occupancy occ = {-1, -1.0};
    struct gpu_info gpu;
    unsigned warps = (threads + 31) / 32;
    const char *name = transpose_variants[v].name;
    assert_status(gpu_query(&gpu), LAB_OK);
    testkit_case("transpose_occupancy(%s, %u threads, %zu extra bytes)", name, threads, extra);
    assert_status(transpose_occupancy((enum transpose_variant)v, threads, extra, &occ), LAB_OK);
#ifdef BACKEND_CPU
    if (want >= 0 && occ.blocks != want)
        fail_msg("%s, %u threads, %zu extra bytes: %d blocks per SM, where the CPU backend's "
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor says %d",
                 name, threads, extra, occ.blocks, want);
#else
    (void)want;
#endif
    if (occ.blocks < 1 || occ.blocks * warps * 32 > (unsigned)gpu.max_threads_per_sm ||
        (extra && occ.blocks * extra > gpu.smem_per_sm))
        fail_msg("%s, %u threads, %zu extra bytes: %d blocks per SM cannot be (an SM has %d "
                 "threads and %zu bytes of shared memory)",
                 name, threads, extra, occ.blocks, gpu.max_threads_per_sm, gpu.smem_per_sm);
    if (fabs(occ.fraction - (double)occ.blocks * threads / gpu.max_threads_per_sm) > 1e-12)
        fail_msg("%s, %u threads, %zu extra bytes: occupancy %g for %d blocks, not their %d "
                 "threads over the SM's %d",
                 name, threads, extra, occ.fraction, occ.blocks, occ.blocks * threads,
                 gpu.max_threads_per_sm);
    return occ;
}

/* tiled_padded's 256 threads fill the 2048 of the CPU backend's SM with 8 blocks; dynamic
 * shared memory leaves fewer (its SM has 96 KiB: 2 blocks of 40000 bytes, 1 of 64 KiB, which
 * is past the 48 KiB a kernel has unless it asks). A warp a block: 32 blocks, half the
 * threads; 48 threads take 2 warps' room. On a GPU, the counts must be possible and shrink
 * as the bytes grow. Runs first: nothing else in this process has raised the limit. */
static void occupancy(void)
{
    size_t most;
    int none = TR_TILED_PADDED;
    struct transpose_occupancy a = occupancy_of(none, PADDED_THREADS, 0, 8);
    struct transpose_occupancy b = occupancy_of(none, PADDED_THREADS, 40000, 2);
    struct transpose_occupancy c = occupancy_of(none, PADDED_THREADS, 64 << 10, 1);
    if (b.blocks > a.blocks || c.blocks > b.blocks)
        fail_msg("tiled_padded: %d, %d and %d blocks per SM with 0, 40000 and 65536 extra bytes: "
                 "more shared memory cannot fit more blocks",
                 a.blocks, b.blocks, c.blocks);
    occupancy_of(none, 32, 0, 32);
    occupancy_of(none, 48, 0, 32);
    occupancy_of(TR_SHUFFLE, PADDED_THREADS, 0, 8);
    occupancy_of(TR_TILED_64, TILE * WIDE_ROWS, 0, 4);
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    occupancy_of(none, PADDED_THREADS, most, 1); /* the most a block can have: one block */
}

static void occupancy_args(void)
{
    struct transpose_occupancy occ;
    size_t most;
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    assert_status(transpose_occupancy(TR_TILED_PADDED, PADDED_THREADS, 0, NULL), LAB_EINVAL);
    assert_status(transpose_occupancy(TR_TILED_PADDED, 0, 0, &occ), LAB_EINVAL);
    assert_status(transpose_occupancy(TR_VARIANTS, PADDED_THREADS, 0, &occ), LAB_EINVAL);
    assert_status(transpose_occupancy(TR_TILED_PADDED, PADDED_THREADS, most + 1, &occ), LAB_EINVAL);
    assert_status(transpose_occupancy(TR_TILED_PADDED, 2048, 0, &occ), LAB_EINVAL);
}

/* Given: the most a block can have besides tiled_padded's tile, and the bad arguments. */
static void extra_most(void)
{
    struct gpu_info gpu;
    size_t most = 0;
    assert_status(gpu_query(&gpu), LAB_OK);
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
#ifdef BACKEND_CPU
    assert_int_equal(most, 96 << 10); /* its opt-in limit; static memory is not counted */
#endif
    assert_true(most > gpu.smem_per_block / 2 && most <= gpu.smem_per_sm);
    assert_status(transpose_extra_most(TR_TILED_PADDED, NULL), LAB_EINVAL);
    assert_status(transpose_extra_most(TR_VARIANTS, &most), LAB_EINVAL);
}

static int run_padded_extra(int extra, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    return transpose_padded_extra(in, out, w, h, (size_t)extra);
}

/* The padded tile with unused dynamic shared memory still transposes: none, a little, past
 * the 48 KiB a kernel has without asking, and the most a block can have; and, on the CPU
 * backend, which records it (testkit_launch_smem), the launch asked for those bytes. */
static void padded_extra(void)
{
    static const struct shape sizes[] = {{33, 31}, {100, 37}, {1, 65}};
    size_t most;
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    const size_t extras[] = {0, 1000, 64 << 10, most};
    for (size_t i = 0; i < COUNT(sizes); i++)
        for (size_t e = 0; e < COUNT(extras); e++) {
            struct shape s = sizes[i];
            size_t n = s.width * s.height, bytes = n * sizeof(float);
            float *in = malloc(bytes), *want = malloc(bytes);
            struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
            char name[64];
            snprintf(name, sizeof name, "tiled_padded with %zu extra bytes", extras[e]);
            testkit_floats(in, n, -1e3f, 1e3f);
            transpose_cpu(in, want, s.width, s.height, sizeof(float));
            gpu_upload(din, in, bytes);
            expect(name, run_padded_extra, (int)extras[e], din, dout, s, want, sizeof(float),
                   s.height);
#ifdef BACKEND_CPU
            /* the runtime's record of the launch: -1 here would mean none was made */
            const int64_t asked = testkit_launch_smem();
#endif
            gpu_free(&din);
            gpu_free(&dout);
            free(in);
            free(want);
#ifdef BACKEND_CPU
            if (asked != (int64_t)extras[e])
                fail_msg("%s: the launch asked for %lld bytes of dynamic shared memory, want %zu "
                         "(the third parameter of <<<grid, block, bytes>>>): the transpose is "
                         "right, but the SM sets nothing aside and the occupancy stays",
                         name, (long long)asked, extras[e]);
#endif
        }
}

/* Given: the argument checks of transpose_padded_extra. */
static void padded_extra_args(void)
{
    struct gpu_buf a = gpu_alloc(100 * sizeof(float)), b = gpu_alloc(100 * sizeof(float));
    struct gpu_buf none = {NULL, 0};
    size_t most;
    assert_status(transpose_extra_most(TR_TILED_PADDED, &most), LAB_OK);
    assert_status(transpose_padded_extra(a, b, 10, 10, most + 1), LAB_EINVAL);
    assert_status(transpose_padded_extra(none, b, 10, 10, 0), LAB_EINVAL);
    assert_status(transpose_padded_extra(a, a, 10, 10, 0), LAB_EINVAL);
    assert_status(transpose_padded_extra(a, b, 11, 10, 0), LAB_EINVAL); /* too small */
    assert_status(transpose_padded_extra(a, b, SIZE_MAX / 2, 3, 0), LAB_EINVAL);
    assert_status(transpose_padded_extra(none, none, 0, 10, 0), LAB_OK);
    gpu_free(&a);
    gpu_free(&b);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),     TESTKIT_GIVEN(args_rejected),
    TESTKIT_TEST(occupancy),         TESTKIT_TEST(occupancy_args),
    TESTKIT_GIVEN(extra_most),       TESTKIT_GIVEN(padded_extra_args),
    TESTKIT_TEST(padded_extra),
#ifdef BACKEND_CUDA
    TESTKIT_GIVEN(reference_cublas),
#endif
    TESTKIT_VARIANTS(transposes),    TESTKIT_EACH(twice_gives_input),
    TESTKIT_EACH(unaligned_buffers),
};

TESTKIT_MAIN("lab07_transpose", tests, transpose_variants, TR_VARIANTS)
