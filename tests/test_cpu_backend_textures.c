/* The portable tests of textures, against a model of an H100's fetches
 * (test_cpu_backend_kernels_textures.cu). */
#define _GNU_SOURCE
#include "test_cpu_backend.h"

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

void test_texture_float(void **state)
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

void test_texture_normalized(void **state)
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

void test_texture_elements(void **state)
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
