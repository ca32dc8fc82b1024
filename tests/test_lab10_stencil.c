/* lab10 tests: every variant against the CPU reference, exactly (integers), with fresh random
 * inputs and poisoned outputs, under every thread order. Lines of 1, a block and a tile and one
 * more, primes; grids of 1 x 1, a row, a column, narrower than the temporal halo, a block and
 * one more cell each way, prime and non-square sides, rows padded or not, 1 to 9 steps, random
 * sources. Per variant: impulses
 * on every block edge (the halo), the edges (outside a line is 0, a grid's edge is
 * insulated: a uniform grid stays uniform, which for heat_texture is its clamp addressing),
 * and for the heat variants that the grid's heat is conserved exactly without sources and
 * that n steps in one call are n calls of one step. Bad arguments return LAB_EINVAL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

static void matches_cpu(int v)
{
    if (is_heat(v))
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
static void edges(int v)
{
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
    for (int v = 0; v < STENCIL_VARIANTS; v++) {
        enum stencil_variant s = (enum stencil_variant)v;
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
    TESTKIT_EACH_EXCEPT(conserves_heat, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO),
    TESTKIT_EACH_EXCEPT(steps_compose, ST_ADJACENT_NAIVE, ST_ADJACENT_SHARED, ST_STENCIL1D_HALO),
};

TESTKIT_MAIN("lab10_stencil", tests, stencil_variants, STENCIL_VARIANTS)
