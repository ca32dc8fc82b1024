/* lab10 tests: every variant against the CPU reference, exactly (integers), with fresh random
 * inputs and poisoned outputs, under every thread order. Lines of 1, a block and a tile and one
 * more, primes; grids of 1 x 1, a row, a column, narrower than the temporal halo, a block and
 * one more cell each way, prime and non-square sides, rows padded or not, 1 to 9 steps, random
 * sources; images of the same kinds of shapes, random and low-contrast bytes, rows padded or
 * not. Per variant: impulses on every block edge and corner (the halo), the edges (outside a
 * line is 0, a grid's edge is insulated: a uniform grid stays uniform, which for heat_texture
 * is its clamp addressing; an image's border is replicated: a constant image has no edge, a
 * step its height on both sides of it), and for the heat variants that the grid's heat is
 * conserved exactly without sources and that n steps in one call are n calls of one step.
 * Bad arguments return LAB_EINVAL. */
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
#include "stencil.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct shape {
    size_t width, height;
};

static int is_heat(int v)
{
    return stencil_facts[v].kind == GRID_HEAT;
}

static int is_sobel(int v)
{
    return stencil_facts[v].kind == IMAGE_SOBEL;
}

/* ---------------------------------------------------------------- lines */

/* The elements of a block of line variant v: a thread's for the naive kernel, a tile's for the
 * others. */
static int line_block(int v)
{
    return v == ST_ADJACENT_NAIVE ? LINE_THREADS : LINE_TILE;
}

/* Variant v on the line in[0..n) under every order, against the reference. */
static void expect_line(int v, const int *in, size_t n, const char *what)
{
    size_t bytes = n * sizeof(int), bad;
    int *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
    (stencil_facts[v].kind == LINE_ADJACENT ? adjacent_cpu : stencil1d_cpu)(in, want, n);
    gpu_upload(din, in, bytes);
    for (int o = 0; o < testkit_orders(n); o++) {
        testkit_set_order(o);
        testkit_case("%s, %s, n = %zu, order %s", stencil_variants[v].name, what, n,
                     testkit_order_name(o));
        gpu_poison(dout);
        assert_status(stencil_line((enum stencil_variant)v, din, dout, n), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, bytes);
        if ((bad = lab_first_diff(got, want, n, sizeof(int))) < n)
            fail_msg("%s, %s, n = %zu, order %s: out[%zu] = %d, want %d (element %zu of its "
                     "block's %d)",
                     stencil_variants[v].name, what, n, testkit_order_name(o), bad, got[bad],
                     want[bad], bad % line_block(v), line_block(v));
    }
    gpu_free(&din);
    gpu_free(&dout);
    free(want);
    free(got);
}

/* 1, 2, a block and a tile and one either side, 3 of each and more, primes, past 2^20. */
static const size_t lines[] = {1,
                               2,
                               255,
                               256,
                               257,
                               769,
                               1021,
                               LINE_TILE - 1,
                               LINE_TILE,
                               LINE_TILE + 1,
                               3 * LINE_TILE + 5,
                               65537,
                               1000003};

static void line_matches(int v)
{
    for (size_t k = 0; k < COUNT(lines); k++) {
        size_t n = lines[k];
        int *in;
        if (n > testkit_max_size())
            break;
        in = malloc(n * sizeof(int));
        testkit_ints(in, n, -(1 << 20), 1 << 20);
        expect_line(v, in, n, "random");
        free(in);
    }
}

/* ---------------------------------------------------------------- grids */

/* count distinct random cells of the shape, temperatures in [0, 2^20): count <= cells. */
static void random_sources(struct heat_source *s, size_t count, struct shape sh)
{
    for (size_t k = 0; k < count;) {
        struct heat_source c = {(unsigned)(testkit_next() % sh.width),
                                (unsigned)(testkit_next() % sh.height),
                                (int)(testkit_next() % (1 << 20))};
        size_t j = 0;
        while (j < k && (s[j].x != c.x || s[j].y != c.y))
            j++;
        if (j == k)
            s[k++] = c;
    }
}

/* Variant v, `steps` steps from the grid in (pitch x height ints) under every order: its
 * cells against the reference. */
static void expect_heat(int v, const int *in, struct shape s, size_t pitch,
                        const struct heat_source *src, size_t nsrc, unsigned steps,
                        const char *what)
{
    size_t cells = pitch * s.height, bytes = cells * sizeof(int);
    int *want = malloc(bytes), *scratch = malloc(bytes), *got = malloc(bytes);
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes), dscratch = gpu_alloc(bytes);
    heat_cpu(in, want, scratch, s.width, s.height, pitch, src, nsrc, steps);
    gpu_upload(din, in, bytes);
    for (int o = 0; o < testkit_orders(s.width * s.height); o++) {
        testkit_set_order(o);
        testkit_case("%s, %s, %zu x %zu (pitch %zu), %zu sources, %u steps, order %s",
                     stencil_variants[v].name, what, s.width, s.height, pitch, nsrc, steps,
                     testkit_order_name(o));
        gpu_poison(dout);
        gpu_poison(dscratch);
        assert_status(heat((enum stencil_variant)v, din, dout, dscratch, s.width, s.height, pitch,
                           src, nsrc, steps),
                      LAB_OK);
        gpu_sync();
        gpu_download(got, dout, bytes);
        for (size_t y = 0; y < s.height; y++)
            for (size_t x = 0; x < s.width; x++)
                if (got[y * pitch + x] != want[y * pitch + x])
                    fail_msg("%s, %s, %zu x %zu (pitch %zu), %zu sources, %u steps, order %s: "
                             "cell (%zu, %zu) = %d, want %d",
                             stencil_variants[v].name, what, s.width, s.height, pitch, nsrc, steps,
                             testkit_order_name(o), x, y, got[y * pitch + x], want[y * pitch + x]);
    }
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&dscratch);
    free(want);
    free(scratch);
    free(got);
}

/* A grid of random temperatures in [0, 2^20), the ends of its rows too. */
static int *random_grid(struct shape s, size_t pitch)
{
    int *g = malloc(pitch * s.height * sizeof(int));
    testkit_ints(g, pitch * s.height, 0, (1 << 20) - 1);
    return g;
}

/* 1 x 1, a row, a column, sides under the temporal halo (its mirror then folds back and
 * forth), a block (32 x 32) and one more each way, a temporal output (56 x 56) and one more,
 * prime sides, tall and wide. */
static const struct shape shapes[] = {{1, 1},
                                      {40, 1},
                                      {1, 40},
                                      {3, 5},
                                      {HEAT_BX, HEAT_TY},
                                      {HEAT_BX + 1, HEAT_TY + 1},
                                      {HEAT_T_OW + 1, HEAT_T_OH + 1},
                                      {61, 23},
                                      {13, 131}};
/* One launch, two (the buffers swapped), and past one temporal launch. */
static const unsigned step_counts[] = {1, 2, HEAT_T_STEPS + 1};

static void heat_matches(int v)
{
    struct heat_source src[8];
    for (size_t k = 0; k < COUNT(shapes); k++)
        for (size_t t = 0; t < COUNT(step_counts); t++) {
            struct shape s = shapes[k];
            /* rows padded to heat_pitch, and for all but the texture 3 cells past the width */
            size_t pitch = v == ST_HEAT_TEXTURE || t != 1 ? heat_pitch(s.width) : s.width + 3;
            size_t nsrc = s.width * s.height / 4 < 8 ? s.width * s.height / 4 : 8;
            int *in = random_grid(s, pitch);
            random_sources(src, nsrc, s);
            expect_heat(v, in, s, pitch, src, nsrc, step_counts[t], "random");
            free(in);
        }
}

/* ---------------------------------------------------------------- images */

/* Variant v's edges of the image in (pitch x height bytes) under every order, against the
 * reference: the output poisoned with 0xFF bytes, then once more with zeros, so that a pixel
 * left unwritten shows whatever its right value (255 is one). */
static void expect_sobel(int v, const unsigned char *in, struct shape s, size_t pitch,
                         const char *what)
{
    size_t bytes = pitch * s.height;
    unsigned char *want = malloc(bytes), *got = malloc(bytes), *zeros = calloc(bytes, 1);
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
    int orders = testkit_orders(s.width * s.height);
    sobel_cpu(in, want, s.width, s.height, pitch);
    gpu_upload(din, in, bytes);
    for (int o = 0; o <= orders; o++) {
        int zeroed = o == orders; /* the last run: the first order again, zeros as poison */
        testkit_set_order(zeroed ? 0 : o);
        testkit_case("%s, %s, %zu x %zu (pitch %zu), order %s%s", stencil_variants[v].name, what,
                     s.width, s.height, pitch, testkit_order_name(zeroed ? 0 : o),
                     zeroed ? ", output zeroed" : "");
        if (zeroed)
            gpu_upload(dout, zeros, bytes);
        else
            gpu_poison(dout);
        assert_status(sobel((enum stencil_variant)v, din, dout, s.width, s.height, pitch), LAB_OK);
        gpu_sync();
        gpu_download(got, dout, bytes);
        for (size_t y = 0; y < s.height; y++)
            for (size_t x = 0; x < s.width; x++)
                if (got[y * pitch + x] != want[y * pitch + x])
                    fail_msg("%s, %s, %zu x %zu (pitch %zu), order %s%s: pixel (%zu, %zu) = %d, "
                             "want %d (pixel (%zu, %zu) of its block's %d x %d)",
                             stencil_variants[v].name, what, s.width, s.height, pitch,
                             testkit_order_name(zeroed ? 0 : o), zeroed ? ", output zeroed" : "", x,
                             y, got[y * pitch + x], want[y * pitch + x], x % SOBEL_BX, y % SOBEL_TY,
                             SOBEL_BX, SOBEL_TY);
    }
    gpu_free(&din);
    gpu_free(&dout);
    free(want);
    free(got);
    free(zeros);
}

/* 1 x 1, a row, a column, 2 x 2, a block (32 x 32) and one more pixel each way, prime and
 * non-square sides, tall and wide. */
static const struct shape images[] = {
    {1, 1},   {40, 1},   {1, 40}, {2, 2}, {SOBEL_BX, SOBEL_TY}, {SOBEL_BX + 1, SOBEL_TY + 1},
    {61, 23}, {13, 131}, {97, 70}};

/* The rows of image k: for sobel_texture sobel_pitch's, or 128 bytes more (a texture takes
 * multiples of the device's alignment, 32 bytes on recent GPUs); for sobel_shared as wide as
 * the image, 3 bytes more, or sobel_pitch's. */
static size_t image_pitch(int v, size_t k, size_t width)
{
    if (v == ST_SOBEL_TEXTURE)
        return sobel_pitch(width) + (k % 2 ? SOBEL_ROW_ALIGN : 0);
    return k % 3 == 0 ? width : k % 3 == 1 ? width + 3 : sobel_pitch(width);
}

/* Random bytes (every edge saturates somewhere), and bytes from 100 to 131 (none does:
 * the division by 4 is seen in every pixel), the ends of rows too. */
static void sobel_matches(int v)
{
    for (size_t k = 0; k < COUNT(images); k++)
        for (int contrast = 0; contrast < 2; contrast++) {
            struct shape s = images[k];
            size_t pitch = image_pitch(v, k, s.width), bytes = pitch * s.height;
            unsigned char *in = malloc(bytes);
            testkit_bytes(in, bytes);
            for (size_t i = 0; contrast && i < bytes; i++)
                in[i] = (unsigned char)(100 + in[i] % 32);
            expect_sobel(v, in, s, pitch, contrast ? "low contrast" : "random");
            free(in);
        }
}

static void matches_cpu(int v)
{
    if (is_sobel(v))
        sobel_matches(v);
    else if (is_heat(v))
        heat_matches(v);
    else
        line_matches(v);
}

/* ---------------------------------------------------------------- properties */

/* c lies on either side of an edge between blocks of `size` cells, or on the last cell. */
static int at_edge(size_t c, size_t size, size_t side)
{
    return c % size == 0 || (c + 1) % size == 0 || c + 1 == side;
}

/* Impulses on both sides of every block edge (for the lines, of blocks of 256 and tiles of
 * 2048; for the grids, of 32 x 32 blocks and 56 x 56 temporal outputs): what crosses an edge
 * comes from the halo. Sources on edges too. */
static void block_edges(int v)
{
    if (is_sobel(v)) { /* 2 blocks and 9 x 7 pixels: both sides of each edge and corner */
        struct shape s = {2 * SOBEL_BX + 9, 2 * SOBEL_TY + 7};
        size_t pitch = sobel_pitch(s.width);
        unsigned char *in = calloc(pitch * s.height, 1);
        for (size_t x = 0; x < s.width; x++)
            for (size_t y = 0; y < s.height; y++)
                if (at_edge(x, SOBEL_BX, s.width) && at_edge(y, SOBEL_TY, s.height))
                    in[y * pitch + x] = (unsigned char)(40 + (7 * x + 13 * y) % 200);
        expect_sobel(v, in, s, pitch, "impulses at the block edges and corners");
        /* one pixel at each block corner, alone: (31, 31) is in block (0, 0) and the
         * north-west corner of block (1, 1)'s halo, (32, 31) the north-east corner of
         * block (0, 1)'s, (31, 32) the south-west one of block (1, 0)'s, (32, 32) the
         * south-east one of block (0, 0)'s: each corner of the halo in turn */
        for (size_t corner = 0; corner < 4; corner++) {
            char what[64];
            memset(in, 0, pitch * s.height);
            for (size_t x = SOBEL_BX - 1 + corner % 2; x < s.width; x += SOBEL_BX)
                for (size_t y = SOBEL_TY - 1 + corner / 2; y < s.height; y += SOBEL_TY)
                    in[y * pitch + x] = 200;
            snprintf(what, sizeof what, "a pixel at (%zu, %zu) of each block",
                     SOBEL_BX - 1 + corner % 2, SOBEL_TY - 1 + corner / 2);
            expect_sobel(v, in, s, pitch, what);
        }
        free(in);
        return;
    }
    if (!is_heat(v)) {
        size_t n = 3 * LINE_TILE + 5;
        int *in = calloc(n, sizeof(int));
        for (size_t b = 1; b * LINE_THREADS < n; b++)
            in[b * LINE_THREADS - 1] = in[b * LINE_THREADS] = 1000 * (int)b;
        in[0] = in[n - 1] = -77;
        expect_line(v, in, n, "impulses at the block edges");
        free(in);
        return;
    }
    struct shape s = {2 * HEAT_T_OW + 9, 2 * HEAT_T_OH + 7};
    size_t pitch = heat_pitch(s.width);
    int *in = calloc(pitch * s.height, sizeof(int));
    struct heat_source src[] = {{HEAT_BX - 1, HEAT_TY, 9000},
                                {HEAT_T_OW, HEAT_T_OH - 1, 7000},
                                {(unsigned)s.width - 1, (unsigned)s.height - 1, 5000}};
    for (size_t x = 0; x < s.width; x++)
        for (size_t y = 0; y < s.height; y++)
            if ((at_edge(x, HEAT_BX, s.width) || at_edge(x, HEAT_T_OW, s.width)) &&
                (at_edge(y, HEAT_TY, s.height) || at_edge(y, HEAT_T_OH, s.height)))
                in[y * pitch + x] = 100000 + (int)(1000 * x + y);
    for (unsigned steps = 1; steps <= HEAT_T_STEPS + 1; steps += HEAT_T_STEPS)
        expect_heat(v, in, s, pitch, src, COUNT(src), steps, "impulses at the block edges");
    free(in);
}

/* The boundary rules. A line of one value c: adjacent gives c then zeros, the weighted
 * stencil less near the ends, where outside counts 0. A uniform grid stays uniform: no heat
 * leaks through an edge (for heat_texture: clamp addressing). */
/* A width x height image, `pitch` bytes a row: a step from `low` to `high` between
 * columns (vertical) or rows at `at - 1` and `at`, and the edges it has: the step's height
 * on both sides of it, 0 elsewhere (the replicated border adds no edge). */
static void step_image(unsigned char *in, unsigned char *want, struct shape s, size_t pitch,
                       int vertical, size_t at, int low, int high)
{
    for (size_t y = 0; y < s.height; y++)
        for (size_t x = 0; x < s.width; x++) {
            size_t c = vertical ? x : y;
            in[y * pitch + x] = (unsigned char)(c < at ? low : high);
            want[y * pitch + x] = (unsigned char)(c + 1 == at || c == at ? abs(high - low) : 0);
        }
}

/* An image's border: a constant image has no edge (0 everywhere, the border pixels too,
 * whose neighbours outside the image repeat the edge's); a straight step of height h gives h
 * on both sides of it, 0 elsewhere, at the image's first and last columns and rows too, and
 * at a block's edge. The expected edges are the definition's, and the reference's too. */
static void sobel_edges(int v)
{
    static const struct shape flat[] = {{1, 1}, {2, 2}, {1, 17}, {17, 1}, {33, 17}};
    static const struct shape step = {2 * SOBEL_BX + 5, SOBEL_TY + 9};
    static const size_t at[] = {1, 2, SOBEL_BX, SOBEL_BX + 1, 2 * SOBEL_BX + 4};
    size_t pitch = sobel_pitch(step.width);
    unsigned char *in = malloc(pitch * step.height), *want = malloc(pitch * step.height);
    unsigned char *ref = malloc(pitch * step.height);
    for (size_t k = 0; k < COUNT(flat); k++) {
        size_t p = sobel_pitch(flat[k].width);
        memset(in, 173, p * flat[k].height);
        memset(want, 0, p * flat[k].height);
        sobel_cpu(in, ref, flat[k].width, flat[k].height, p);
        for (size_t y = 0; y < flat[k].height; y++)
            assert_memory_equal(ref + y * p, want + y * p, flat[k].width);
        expect_sobel(v, in, flat[k], p, "constant");
    }
    for (int vertical = 0; vertical < 2; vertical++)
        for (size_t k = 0; k < COUNT(at); k++) {
            size_t side = vertical ? step.width : step.height;
            int low = k % 2 ? 200 : 30, high = k % 2 ? 30 : 200;
            if (at[k] >= side)
                continue;
            step_image(in, want, step, pitch, vertical, at[k], low, high);
            sobel_cpu(in, ref, step.width, step.height, pitch);
            for (size_t y = 0; y < step.height; y++)
                assert_memory_equal(ref + y * pitch, want + y * pitch, step.width);
            expect_sobel(v, in, step, pitch, vertical ? "a vertical step" : "a horizontal step");
        }
    free(in);
    free(want);
    free(ref);
}

static void edges(int v)
{
    if (is_sobel(v)) {
        sobel_edges(v);
        return;
    }
    if (!is_heat(v)) {
        static const size_t ns[] = {1, 2, RADIUS + 1, 2 * RADIUS + 1, LINE_THREADS + 1};
        for (size_t k = 0; k < COUNT(ns); k++) {
            int *in = malloc(ns[k] * sizeof(int));
            for (size_t i = 0; i < ns[k]; i++)
                in[i] = 12345;
            expect_line(v, in, ns[k], "constant");
            free(in);
        }
        return;
    }
    static const struct shape flat[] = {{1, 1}, {2, 2}, {1, 17}, {17, 1}, {33, 17}};
    for (size_t k = 0; k < COUNT(flat); k++) {
        size_t pitch = heat_pitch(flat[k].width);
        int *in = malloc(pitch * flat[k].height * sizeof(int));
        for (size_t i = 0; i < pitch * flat[k].height; i++)
            in[i] = 54321;
        expect_heat(v, in, flat[k], pitch, NULL, 0, HEAT_T_STEPS + 1, "uniform");
        free(in);
    }
}

static long long grid_sum(const int *g, struct shape s, size_t pitch)
{
    long long sum = 0;
    for (size_t y = 0; y < s.height; y++)
        for (size_t x = 0; x < s.width; x++)
            sum += g[y * pitch + x];
    return sum;
}

/* Without sources, and with insulated edges, the grid's heat is conserved exactly: what a
 * cell gives, its neighbour gets (heat_update). Any lost or doubled flow shows. */
static void conserves_heat(int v)
{
    struct shape s = {77, 45};
    size_t pitch = heat_pitch(s.width), bytes = pitch * s.height * sizeof(int);
    unsigned steps = 2 * HEAT_T_STEPS + 1;
    int *in = random_grid(s, pitch), *got = malloc(bytes);
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes), dscratch = gpu_alloc(bytes);
    long long before = grid_sum(in, s, pitch), after;
    gpu_upload(din, in, bytes);
    testkit_case("%s, %zu x %zu, %u steps", stencil_variants[v].name, s.width, s.height, steps);
    assert_status(heat((enum stencil_variant)v, din, dout, dscratch, s.width, s.height, pitch, NULL,
                       0, steps),
                  LAB_OK);
    gpu_sync();
    gpu_download(got, dout, bytes);
    if ((after = grid_sum(got, s, pitch)) != before)
        fail_msg("%s, %zu x %zu, %u steps: the grid's sum went from %lld to %lld",
                 stencil_variants[v].name, s.width, s.height, steps, before, after);
    gpu_free(&din);
    gpu_free(&dout);
    gpu_free(&dscratch);
    free(in);
    free(got);
}

/* HEAT_T_STEPS + 2 steps in one call give what as many calls of one step give (each call's
 * out the next one's in), and the reference. */
static void steps_compose(int v)
{
    struct shape s = {70, 37};
    size_t pitch = heat_pitch(s.width), bytes = pitch * s.height * sizeof(int);
    unsigned steps = HEAT_T_STEPS + 2;
    struct heat_source src[6];
    int *in = random_grid(s, pitch), *one = malloc(bytes), *many = malloc(bytes);
    struct gpu_buf g[2] = {gpu_alloc(bytes), gpu_alloc(bytes)}, scratch = gpu_alloc(bytes);
    random_sources(src, COUNT(src), s);
    gpu_upload(g[0], in, bytes);
    testkit_case("%s, %u calls of one step", stencil_variants[v].name, steps);
    for (unsigned k = 0; k < steps; k++)
        assert_status(heat((enum stencil_variant)v, g[k % 2], g[(k + 1) % 2], scratch, s.width,
                           s.height, pitch, src, COUNT(src), 1),
                      LAB_OK);
    gpu_sync();
    gpu_download(one, g[steps % 2], bytes);
    gpu_upload(g[0], in, bytes);
    testkit_case("%s, one call of %u steps", stencil_variants[v].name, steps);
    assert_status(heat((enum stencil_variant)v, g[0], g[1], scratch, s.width, s.height, pitch, src,
                       COUNT(src), steps),
                  LAB_OK);
    gpu_sync();
    gpu_download(many, g[1], bytes);
    for (size_t y = 0; y < s.height; y++)
        for (size_t x = 0; x < s.width; x++)
            if (one[y * pitch + x] != many[y * pitch + x])
                fail_msg("%s: cell (%zu, %zu) is %d after %u calls of one step, %d after one "
                         "call of %u steps",
                         stencil_variants[v].name, x, y, one[y * pitch + x], steps,
                         many[y * pitch + x], steps);
    expect_heat(v, in, s, pitch, src, COUNT(src), steps, "against the reference");
    gpu_free(&g[0]);
    gpu_free(&g[1]);
    gpu_free(&scratch);
    free(in);
    free(one);
    free(many);
}

/* ---------------------------------------------------------------- host and arguments */

/* The Sobel reference on what a hand works out, and sobel_magnitude (the kernels') against
 * it on random windows and the extremes. */
static void sobel_reference(void)
{
    /* 3 x 3, 40 in the middle: each neighbour sees it at weight 1 in one mask and 1 in the
     * other, or 2 in one: (40 + 40) / 4 or 80 / 4; the middle itself weighs 0 */
    const unsigned char dot[9] = {0, 0, 0, 0, 40, 0, 0, 0, 0};
    const unsigned char dot_edges[9] = {20, 20, 20, 20, 0, 20, 20, 20, 20};
    /* 4 x 1, a step of 80: |Sx| = 4 x 80 beside it; the first and last pixels' outside
     * neighbours repeat them (with zeros outside they would see an edge of 10) */
    const unsigned char step[4] = {10, 10, 90, 90}, step_edges[4] = {0, 80, 80, 0};
    /* 3 x 3 with a corner of 255: a diagonal edge, the largest there is */
    const unsigned char corner[9] = {0, 0, 0, 0, 0, 255, 0, 255, 255};
    unsigned char out[9], img[9];
    sobel_cpu(dot, out, 3, 3, 3);
    assert_memory_equal(out, dot_edges, 9);
    sobel_cpu(step, out, 4, 1, 4);
    assert_memory_equal(out, step_edges, 4);
    sobel_cpu(corner, out, 3, 3, 3);
    assert_int_equal(out[4], 255); /* |Sx| + |Sy| = 765 + 765, over 4 is 382: capped */
    for (int k = 0; k < 20000; k++) {
        int w[3], m[3], e[3];
        testkit_bytes(img, 9);
        if (k < 2) /* the largest |Sx| + |Sy|: 1530, and 0 */
            for (int i = 0; i < 9; i++)
                img[i] = (unsigned char)(k ? 0 : (i % 3 == 2 || i / 3 == 2) ? 255 : 0);
        for (int r = 0; r < 3; r++)
            w[r] = img[3 * r], m[r] = img[3 * r + 1], e[r] = img[3 * r + 2];
        sobel_cpu(img, out, 3, 3, 3);
        if (sobel_magnitude(w, m, e) != out[4])
            fail_msg("sobel_magnitude = %d, the reference %d, for the window %d %d %d / %d %d %d "
                     "/ %d %d %d",
                     sobel_magnitude(w, m, e), out[4], img[0], img[1], img[2], img[3], img[4],
                     img[5], img[6], img[7], img[8]);
    }
}

static void reference_cpu(void)
{
    const int line[4] = {3, 5, 2, -1}, diff[4] = {3, 2, -3, -3};
    int out[8], impulse[8] = {0, 0, 0, 0, 10, 0, 0, 0}, scratch[3];
    /* 3 x 1: 80 gives an eighth (10) to its east; -80 to its west, with the sign kept */
    const int grid[3] = {80, 0, -80}, step[3] = {70, 0, -70};
    const struct heat_source hot = {1, 0, 500};
    /* heat_update's eighths are C's d / 8 for every difference two temperatures can have */
    for (int d = -2 * HEAT_MAX_TEMP; d<2 * HEAT_MAX_TEMP; d += d> - 4096 && d < 4096 ? 1 : 999)
        if (eighth(d) != d / 8)
            fail_msg("eighth(%d) = %d, want %d", d, eighth(d), d / 8);
    assert_int_equal(eighth(2 * HEAT_MAX_TEMP), 2 * HEAT_MAX_TEMP / 8);
    assert_int_equal(eighth(2 * HEAT_MAX_TEMP - 1), (2 * HEAT_MAX_TEMP - 1) / 8);
    adjacent_cpu(line, out, 4);
    assert_memory_equal(out, diff, sizeof diff);
    stencil1d_cpu(impulse, out, 8); /* out[i] = 10 x weight of in[4] seen from i */
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], i >= 1 ? 10 * line_weight(4 - i) : 0);
    heat_cpu(grid, out, scratch, 3, 1, 3, NULL, 0, 1);
    assert_memory_equal(out, step, sizeof step);
    heat_cpu(grid, out, scratch, 3, 1, 3, &hot, 1, 2); /* 70, 500, -70, then the flows again */
    assert_int_equal(out[0], 70 + (500 - 70) / 8);
    assert_int_equal(out[1], 500);
    assert_int_equal(out[2], -70 + (500 + 70) / 8);
    sobel_reference();
}

static void args_rejected(void)
{
    const size_t w = 40, h = 10, pitch = heat_pitch(w), cells = pitch * h;
    struct gpu_buf a = gpu_alloc(cells * sizeof(int)), b = gpu_alloc(cells * sizeof(int));
    struct gpu_buf c = gpu_alloc(cells * sizeof(int)), none = {NULL, 0};
    struct gpu_buf small = {b.ptr, cells * sizeof(int) - 1}, inside = {(int *)a.ptr + 8, 64};
    struct gpu_buf odd = {(int *)c.ptr + 1, (cells - 1) * sizeof(int)};
    struct heat_source ok = {39, 9, 100}, twice[2] = {{1, 1, 5}, {1, 1, 6}};
    struct heat_source outside[3] = {{40, 0, 1}, {0, 10, 1}, {0, 0, HEAT_MAX_TEMP + 1}};
    static struct heat_source many[HEAT_MAX_SOURCES + 1];
    for (unsigned k = 0; k <= HEAT_MAX_SOURCES; k++)
        many[k] = (struct heat_source){k % 40, k / 40, 0};
    /* the images: 40 x 10 bytes, rows of sobel_pitch (128 bytes), in the same buffers */
    const size_t spitch = sobel_pitch(w), bytes = spitch * h;
    struct gpu_buf small8 = {b.ptr, bytes - 1}, inside8 = {(char *)a.ptr + 8, bytes};
    struct gpu_buf odd8 = {(char *)a.ptr + 1, bytes};
    for (int v = 0; v < STENCIL_VARIANTS; v++) {
        enum stencil_variant s = (enum stencil_variant)v;
        if (is_sobel(v)) {
            assert_status(sobel(s, none, b, w, h, spitch), LAB_EINVAL);
            assert_status(sobel(s, a, none, w, h, spitch), LAB_EINVAL);
            assert_status(sobel(s, a, small8, w, h, spitch), LAB_EINVAL);
            assert_status(sobel(s, small8, a, w, h, spitch), LAB_EINVAL);
            assert_status(sobel(s, a, a, w, h, spitch), LAB_EINVAL);       /* in place */
            assert_status(sobel(s, a, inside8, w, h, spitch), LAB_EINVAL); /* overlapping */
            assert_status(sobel(s, a, b, w, h, w - 1), LAB_EINVAL);        /* pitch < width */
            assert_status(sobel(s, a, b, SOBEL_MAX_SIDE + 1, 1, SOBEL_MAX_SIDE + 1), LAB_EINVAL);
            assert_status(sobel(s, a, b, 1, SOBEL_MAX_SIDE + 1, 1), LAB_EINVAL);
            assert_status(sobel(s, a, b, w, h, SIZE_MAX / 2), LAB_EINVAL);
            assert_status(sobel(s, none, none, 0, 5, 0), LAB_OK);
            assert_status(sobel(s, none, none, 5, 0, 5), LAB_OK);
            assert_status(sobel(s, a, b, w, h, spitch), LAB_OK);
            /* a texture wants aligned rows and starts; sobel_shared takes any */
            assert_status(sobel(s, a, b, w, h, w + 1), s == ST_SOBEL_TEXTURE ? LAB_EINVAL : LAB_OK);
            assert_status(sobel(s, odd8, b, w, h, spitch),
                          s == ST_SOBEL_TEXTURE ? LAB_EINVAL : LAB_OK);
            assert_status(stencil_line(s, a, b, 10), LAB_EINVAL);
            assert_status(heat(s, a, b, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
            continue;
        }
        assert_status(sobel(s, a, b, w, h, spitch), LAB_EINVAL);
        if (!is_heat(v)) {
            assert_status(stencil_line(s, none, b, 10), LAB_EINVAL);
            assert_status(stencil_line(s, a, none, 10), LAB_EINVAL);
            assert_status(stencil_line(s, a, small, cells), LAB_EINVAL);
            assert_status(stencil_line(s, a, a, 10), LAB_EINVAL);      /* in place */
            assert_status(stencil_line(s, a, inside, 16), LAB_EINVAL); /* overlapping */
            assert_status(stencil_line(s, none, none, 0), LAB_OK);
            assert_status(heat(s, a, b, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
            continue;
        }
        assert_status(stencil_line(s, a, b, 10), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, pitch, NULL, 0, 0), LAB_EINVAL); /* no step */
        assert_status(heat(s, none, b, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, none, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, none, w, h, pitch, NULL, 0, 2), LAB_EINVAL); /* no scratch */
        assert_status(heat(s, a, small, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, a, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, a, w, h, pitch, NULL, 0, 2), LAB_EINVAL);
        assert_status(heat(s, a, b, b, w, h, pitch, NULL, 0, 2), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, w - 1, NULL, 0, 1), LAB_EINVAL); /* pitch < w */
        assert_status(heat(s, a, b, c, HEAT_MAX_SIDE + 1, 1, HEAT_MAX_SIDE + 1, NULL, 0, 1),
                      LAB_EINVAL);
        assert_status(heat(s, a, b, c, 1, HEAT_MAX_SIDE + 1, 1, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, SIZE_MAX / 2, NULL, 0, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, pitch, NULL, 1, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, pitch, twice, 2, 1), LAB_EINVAL);
        for (int k = 0; k < 3; k++)
            assert_status(heat(s, a, b, c, w, h, pitch, &outside[k], 1, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, pitch, many, HEAT_MAX_SOURCES + 1, 1), LAB_EINVAL);
        assert_status(heat(s, a, b, c, w, h, pitch, &ok, 1, 1), LAB_OK);
        assert_status(heat(s, a, b, none, w, h, pitch, &ok, 1, 1), LAB_OK); /* no scratch */
        assert_status(heat(s, none, none, none, 0, 5, 0, NULL, 0, 3), LAB_OK);
        /* a texture wants aligned rows and starts; the others take any */
        assert_status(heat(s, a, b, c, w, h, w + 1, NULL, 0, 1),
                      s == ST_HEAT_TEXTURE ? LAB_EINVAL : LAB_OK);
        assert_status(heat(s, a, odd, c, w, h - 1, pitch, NULL, 0, 1),
                      s == ST_HEAT_TEXTURE ? LAB_EINVAL : LAB_OK);
    }
    assert_status(stencil_line(STENCIL_VARIANTS, a, b, 10), LAB_EINVAL);
    assert_status(heat(STENCIL_VARIANTS, a, b, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
    assert_status(heat((enum stencil_variant) - 1, a, b, c, w, h, pitch, NULL, 0, 1), LAB_EINVAL);
    assert_status(sobel(STENCIL_VARIANTS, a, b, w, h, spitch), LAB_EINVAL);
    assert_status(sobel((enum stencil_variant) - 1, a, b, w, h, spitch), LAB_EINVAL);
    gpu_sync();
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
}

static const struct testkit_test tests[] = {
    TESTKIT_HOST(reference_cpu),
    TESTKIT_GIVEN(args_rejected),
    TESTKIT_VARIANTS(matches_cpu),
    TESTKIT_EACH(block_edges),
    TESTKIT_EACH(edges),
    /* the heat variants' properties */
    TESTKIT_EACH_EXCEPT(conserves_heat, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO,
                        ST_SOBEL_SHARED, ST_SOBEL_TEXTURE),
    TESTKIT_EACH_EXCEPT(steps_compose, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO,
                        ST_SOBEL_SHARED, ST_SOBEL_TEXTURE),
};

TESTKIT_MAIN("lab10_stencil", tests, stencil_variants, STENCIL_VARIANTS)
