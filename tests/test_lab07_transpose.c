/* lab07 tests: every variant against the CPU transpose, bit for bit (a transpose only
 * moves elements), on square, rectangular, 1 x N, N x 1 and odd shapes that leave partial
 * tiles on every side, with fresh random data and a poisoned output; transposing twice
 * gives the input back; unaligned buffers take the scalar paths; bad arguments return
 * LAB_EINVAL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
static const struct shape shapes[] = {{1, 1},    {1000, 1},  {1, 1000}, {31, 33},
                                      {33, 31},  {65, 63},   {100, 37}, {37, 100},
                                      {257, 130}, {96, 132},  {128, 128}};
/* Images: the same idea around 4-pixel words and 128-pixel tiles, and a 1080p frame. */
static const struct shape images[] = {{1, 1},     {999, 1},   {1, 999},    {31, 33},
                                      {130, 67},  {67, 130},  {129, 257},  {256, 128},
                                      {1920, 1080}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int copies(enum transpose_variant v)
{
    return v == TR_COPY || v == TR_COPY_SHARED;
}

static void random_u8(uint8_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (uint8_t)(testkit_next() >> 56);
}

typedef int (*runner)(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h);

/* Runs one variant on device buffers (in already uploaded) under every thread order and
 * compares out, `cols` elements per row, with want. */
static void expect(const char *name, runner run, int v, struct gpu_buf in, struct gpu_buf out,
                   struct shape s, const void *want, size_t elem, size_t cols)
{
    size_t n = s.width * s.height, bad;
    unsigned char *got = malloc(n * elem + 1);
    for (int o = 0; o < testkit_orders(); o++) {
        testkit_set_order(o);
        gpu_poison(out);
        assert_int_equal(run(v, in, out, s.width, s.height), LAB_OK);
        gpu_sync();
        gpu_download(got, out, n * elem);
        bad = testkit_first_diff(got, want, n, elem);
        if (bad < n)
            fail_msg("%s, %zu x %zu, order %s: element %zu (row %zu, column %zu of the "
                     "result) is wrong",
                     name, s.width, s.height, testkit_order_name(o), bad,
                     bad / cols, bad % cols);
    }
    free(got);
}

static int run_float(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    return transpose((enum transpose_variant)v, in, out, w, h);
}

static int run_u8(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    return transpose_u8((enum transpose_u8_variant)v, in, out, w, h);
}

static void check_float(enum transpose_variant v)
{
    REQUIRE_DEVICE();
    for (size_t i = 0; i < COUNT(shapes); i++) {
        struct shape s = shapes[i];
        size_t bytes = s.width * s.height * sizeof(float);
        float *in = malloc(bytes), *want = malloc(bytes);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        testkit_floats(in, s.width * s.height, -1e3f, 1e3f);
        if (copies(v))
            memcpy(want, in, bytes);
        else
            transpose_cpu(in, want, s.width, s.height);
        gpu_upload(din, in, bytes);
        expect(transpose_names[v], run_float, v, din, dout, s, want, sizeof(float),
               copies(v) ? s.width : s.height);
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(want);
    }
}

static void check_u8(enum transpose_u8_variant v)
{
    REQUIRE_DEVICE();
    for (size_t i = 0; i < COUNT(images); i++) {
        struct shape s = images[i];
        size_t bytes = s.width * s.height;
        uint8_t *in = malloc(bytes), *want = malloc(bytes);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        random_u8(in, bytes);
        if (v == TR_U8_COPY)
            memcpy(want, in, bytes);
        else
            transpose_u8_cpu(in, want, s.width, s.height);
        gpu_upload(din, in, bytes);
        expect(transpose_u8_names[v], run_u8, v, din, dout, s, want, 1,
               v == TR_U8_COPY ? s.width : s.height);
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(want);
    }
}

static void copy(void **state) { (void)state; check_float(TR_COPY); }
static void copy_shared(void **state) { (void)state; check_float(TR_COPY_SHARED); }
static void naive_rows(void **state) { (void)state; check_float(TR_NAIVE_ROWS); }
static void naive_cols(void **state) { (void)state; check_float(TR_NAIVE_COLS); }
static void tiled(void **state) { (void)state; check_float(TR_TILED); }
static void tiled_padded(void **state) { (void)state; check_float(TR_TILED_PADDED); }
static void shuffle(void **state) { (void)state; check_float(TR_SHUFFLE); }
static void tiled_64(void **state) { (void)state; check_float(TR_TILED_64); }
static void tiled_64_float2(void **state) { (void)state; check_float(TR_TILED_64_FLOAT2); }
static void u8_copy(void **state) { (void)state; check_u8(TR_U8_COPY); }
static void u8_tiled_padded(void **state) { (void)state; check_u8(TR_U8_TILED_PADDED); }
static void u8_words(void **state) { (void)state; check_u8(TR_U8_WORDS); }

/* Transposing the transpose gives the input back: every transpose variant, twice. */
static void twice_gives_input(void **state)
{
    const struct shape s = {100, 37};
    size_t n = s.width * s.height;
    float *in = malloc(n * sizeof(float));
    uint8_t *in8 = malloc(n);
    struct gpu_buf a = gpu_alloc(n * sizeof(float)), b = gpu_alloc(n * sizeof(float));
    (void)state;
    REQUIRE_DEVICE();
    testkit_floats(in, n, -1.0f, 1.0f);
    random_u8(in8, n);
    for (int v = 0; v < TR_VARIANTS; v++) {
        if (copies((enum transpose_variant)v))
            continue;
        gpu_upload(a, in, n * sizeof(float));
        assert_int_equal(transpose((enum transpose_variant)v, a, b, s.width, s.height), LAB_OK);
        gpu_poison(a);
        expect(transpose_names[v], run_float, v, b, a, (struct shape){s.height, s.width}, in,
               sizeof(float), s.width);
    }
    for (int v = TR_U8_TILED_PADDED; v < TR_U8_VARIANTS; v++) {
        gpu_upload(a, in8, n);
        assert_int_equal(transpose_u8((enum transpose_u8_variant)v, a, b, s.width, s.height),
                         LAB_OK);
        gpu_poison(a);
        expect(transpose_u8_names[v], run_u8, v, b, a, (struct shape){s.height, s.width}, in8,
               1, s.width);
    }
    gpu_free(&a);
    gpu_free(&b);
    free(in);
    free(in8);
}

/* Buffers one element past an aligned start: float4 and word accesses must give way to
 * scalar ones (the shapes have heights and widths that are multiples of 4). */
static void unaligned_buffers(void **state)
{
    const struct shape s = {68, 36};
    size_t n = s.width * s.height;
    float *in = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
    uint8_t *in8 = malloc(n), *want8 = malloc(n);
    struct gpu_buf a = gpu_alloc((n + 1) * sizeof(float));
    struct gpu_buf b = gpu_alloc((n + 1) * sizeof(float));
    struct gpu_buf a1 = {(float *)a.ptr + 1, n * sizeof(float)},
                   b1 = {(float *)b.ptr + 1, n * sizeof(float)};
    struct gpu_buf a8 = {(uint8_t *)a.ptr + 1, n}, b8 = {(uint8_t *)b.ptr + 1, n};
    (void)state;
    REQUIRE_DEVICE();
    testkit_floats(in, n, -1.0f, 1.0f);
    random_u8(in8, n);
    transpose_cpu(in, want, s.width, s.height);
    gpu_upload(a1, in, n * sizeof(float));
    for (int v = 0; v < TR_VARIANTS; v++)
        expect(transpose_names[v], run_float, v, a1, b1, s,
               copies((enum transpose_variant)v) ? in : want, sizeof(float),
               copies((enum transpose_variant)v) ? s.width : s.height);
    transpose_u8_cpu(in8, want8, s.width, s.height);
    gpu_upload(a8, in8, n);
    for (int v = 0; v < TR_U8_VARIANTS; v++)
        expect(transpose_u8_names[v], run_u8, v, a8, b8, s, v == TR_U8_COPY ? in8 : want8, 1,
               v == TR_U8_COPY ? s.width : s.height);
    gpu_free(&a);
    gpu_free(&b);
    free(in);
    free(want);
    free(in8);
    free(want8);
}

static void reference_cpu(void **state)
{
    const float in[6] = {1, 2, 3, 4, 5, 6}; /* 2 rows of 3 */
    const float want[6] = {1, 4, 2, 5, 3, 6};
    const uint8_t in8[6] = {1, 2, 3, 4, 5, 6}, want8[6] = {1, 4, 2, 5, 3, 6};
    float out[6];
    uint8_t out8[6];
    (void)state;
    transpose_cpu(in, out, 3, 2);
    assert_memory_equal(out, want, sizeof want);
    transpose_u8_cpu(in8, out8, 3, 2);
    assert_memory_equal(out8, want8, sizeof want8);
}

#ifdef BACKEND_CUDA
/* The library row of the bench is a transpose too (on a real GPU only). */
static int run_cublas(int v, struct gpu_buf in, struct gpu_buf out, size_t w, size_t h)
{
    (void)v;
    return transpose_cublas(in, out, w, h);
}

static void reference_cublas(void **state)
{
    (void)state;
    REQUIRE_DEVICE();
    for (size_t i = 0; i < COUNT(shapes); i++) {
        struct shape s = shapes[i];
        size_t bytes = s.width * s.height * sizeof(float);
        float *in = malloc(bytes), *want = malloc(bytes);
        struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
        testkit_floats(in, s.width * s.height, -1e3f, 1e3f);
        transpose_cpu(in, want, s.width, s.height);
        gpu_upload(din, in, bytes);
        expect("cublasSgeam", run_cublas, 0, din, dout, s, want, sizeof(float), s.height);
        assert_int_equal(transpose_cublas(din, din, s.width, s.height), LAB_EINVAL);
        gpu_free(&din);
        gpu_free(&dout);
        free(in);
        free(want);
    }
}
#endif

static void args_rejected(void **state)
{
    struct gpu_buf a, b, c, shifted, none = {NULL, 0};
    (void)state;
    REQUIRE_DEVICE();
    a = gpu_alloc(100 * sizeof(float));
    b = gpu_alloc(100 * sizeof(float));
    c = gpu_alloc(50 * sizeof(float));
    shifted = (struct gpu_buf){(float *)a.ptr + 5, 95 * sizeof(float)}; /* inside a */
    for (int v = 0; v < TR_VARIANTS; v++) {
        enum transpose_variant t = (enum transpose_variant)v;
        assert_int_equal(transpose(t, none, b, 10, 10), LAB_EINVAL);
        assert_int_equal(transpose(t, a, none, 10, 10), LAB_EINVAL);
        assert_int_equal(transpose(t, a, c, 10, 10), LAB_EINVAL);  /* c holds 50 */
        assert_int_equal(transpose(t, c, a, 51, 1), LAB_EINVAL);
        assert_int_equal(transpose(t, a, a, 10, 10), LAB_EINVAL); /* in place */
        assert_int_equal(transpose(t, a, shifted, 9, 10), LAB_EINVAL); /* overlapping */
        assert_int_equal(transpose(t, a, b, SIZE_MAX / 2, 3), LAB_EINVAL); /* overflow */
        assert_int_equal(transpose(t, a, b, 0, 10), LAB_OK);
        assert_int_equal(transpose(t, none, none, 10, 0), LAB_OK);
    }
    for (int v = 0; v < TR_U8_VARIANTS; v++) {
        enum transpose_u8_variant t = (enum transpose_u8_variant)v;
        assert_int_equal(transpose_u8(t, none, b, 10, 10), LAB_EINVAL);
        assert_int_equal(transpose_u8(t, a, none, 10, 10), LAB_EINVAL);
        assert_int_equal(transpose_u8(t, a, c, 201, 1), LAB_EINVAL); /* c holds 200 bytes */
        assert_int_equal(transpose_u8(t, b, b, 10, 10), LAB_EINVAL);
        assert_int_equal(transpose_u8(t, a, b, SIZE_MAX / 2, 3), LAB_EINVAL);
        assert_int_equal(transpose_u8(t, a, b, 10, 0), LAB_OK);
    }
    assert_int_equal(transpose(TR_VARIANTS, a, b, 10, 10), LAB_EINVAL);
    assert_int_equal(transpose((enum transpose_variant)-1, a, b, 10, 10), LAB_EINVAL);
    assert_int_equal(transpose_u8(TR_U8_VARIANTS, a, b, 10, 10), LAB_EINVAL);
    assert_int_equal(transpose_u8((enum transpose_u8_variant)-1, a, b, 10, 10), LAB_EINVAL);
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(reference_cpu),     cmocka_unit_test(args_rejected),
    cmocka_unit_test(copy),              cmocka_unit_test(copy_shared),
    cmocka_unit_test(naive_rows),        cmocka_unit_test(naive_cols),
    cmocka_unit_test(tiled),             cmocka_unit_test(tiled_padded),
    cmocka_unit_test(shuffle),           cmocka_unit_test(tiled_64),
    cmocka_unit_test(tiled_64_float2),
    cmocka_unit_test(u8_copy),           cmocka_unit_test(u8_tiled_padded),
    cmocka_unit_test(u8_words),          cmocka_unit_test(twice_gives_input),
    cmocka_unit_test(unaligned_buffers),
#ifdef BACKEND_CUDA
    cmocka_unit_test(reference_cublas),
#endif
};

TESTKIT_MAIN("lab07_transpose", tests)
