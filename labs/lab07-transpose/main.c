/* lab07 command line: `lab07 run` checks every variant against the CPU transpose,
 * `lab07 bench` times them next to the copy kernel, cublasSgeam and cudaMemcpy (all in the
 * same run) and writes the TSV for the plots. Variants are numbered float first, then
 * 8-bit, then the library: one --variant name picks any of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"
#include "lab.h"
#include "transpose.h"

enum { U8_FIRST = TR_VARIANTS, CUBLAS = TR_VARIANTS + TR_U8_VARIANTS, ALL = CUBLAS + 1 };

static const char *names[ALL + 1];

struct job {
    int v; /* index into names */
    struct gpu_buf in, out;
    size_t width, height;
};

static int is_u8(int v)
{
    return v >= U8_FIRST && v < CUBLAS;
}

static int is_copy(int v)
{
    return v == TR_COPY || v == TR_COPY_SHARED || v == U8_FIRST + TR_U8_COPY;
}

static int run_variant(void *p)
{
    struct job *j = p;
    if (j->v < U8_FIRST)
        return transpose((enum transpose_variant)j->v, j->in, j->out, j->width, j->height);
    if (is_u8(j->v))
        return transpose_u8((enum transpose_u8_variant)(j->v - U8_FIRST), j->in, j->out,
                            j->width, j->height);
#ifdef BACKEND_CUDA
    return transpose_cublas(j->in, j->out, j->width, j->height);
#else
    return LAB_EINVAL;
#endif
}

static int available(int v)
{
#ifdef BACKEND_CUDA
    (void)v;
    return 1;
#else
    return v != CUBLAS;
#endif
}

static int wanted(const struct cli *c, int v)
{
    return available(v) && (cli_variant(c) < 0 || cli_variant(c) == v);
}

/* Random data, drawn on the host once per size (a fixed seed: bench needs no fresh draws,
 * the tests do that), so no variant is timed on zeros. */
static void *random_bytes(size_t bytes, unsigned seed)
{
    unsigned char *x = gpu_host_alloc(bytes);
    srand(seed);
    for (size_t i = 0; i < bytes; i++)
        x[i] = (unsigned char)(rand() >> 7);
    return x;
}

static float *random_floats(size_t n, unsigned seed)
{
    float *x = gpu_host_alloc(n * sizeof(float));
    srand(seed);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)rand() / RAND_MAX - 0.5f;
    return x;
}

/* Runs variant v once on a poisoned out and compares with want, bit for bit. */
static int check(struct job *j, int v, const void *want, size_t elem)
{
    size_t n = j->width * j->height, bytes = n * elem, bad = 0;
    unsigned char *got = malloc(bytes + 1);
    const unsigned char *w = want;
    int status;
    j->v = v;
    gpu_poison(j->out);
    if ((status = run_variant(j)) == LAB_OK) {
        gpu_sync();
        gpu_download(got, j->out, bytes);
        for (size_t i = 0; i < n; i++)
            bad += memcmp(got + i * elem, w + i * elem, elem) != 0;
    }
    if (status != LAB_OK)
        printf("%-16s %zu x %zu: %s\n", names[v], j->width, j->height, lab_strerror(status));
    else if (bad)
        printf("%-16s %zu x %zu: WRONG in %zu elements\n", names[v], j->width, j->height, bad);
    else
        printf("%-16s %zu x %zu: ok\n", names[v], j->width, j->height);
    free(got);
    return status != LAB_OK || bad;
}

static int run(const struct cli *c)
{
    size_t n = c->width * c->height;
    float *in = random_floats(n, 1), *want = malloc(n * sizeof(float) + 1);
    unsigned char *in8 = random_bytes(n, 2), *want8 = malloc(n + 1);
    struct job j = {0, gpu_alloc(n * sizeof(float)), gpu_alloc(n * sizeof(float)), c->width,
                    c->height};
    int failures = 0;
    transpose_cpu(in, want, c->width, c->height);
    gpu_upload(j.in, in, n * sizeof(float));
    for (int v = 0; v < U8_FIRST; v++)
        if (wanted(c, v))
            failures += check(&j, v, is_copy(v) ? in : want, sizeof(float));
    if (wanted(c, CUBLAS))
        failures += check(&j, CUBLAS, want, sizeof(float));
    transpose_u8_cpu(in8, want8, c->width, c->height);
    gpu_upload(j.in, in8, n);
    for (int v = U8_FIRST; v < CUBLAS; v++)
        if (wanted(c, v))
            failures += check(&j, v, is_copy(v) ? in8 : want8, 1);
    gpu_free(&j.in);
    gpu_free(&j.out);
    gpu_host_free(in);
    gpu_host_free(in8);
    free(want);
    free(want8);
    return failures ? 1 : 0;
}

/* Every wanted variant on a width x height matrix: float, the library, and (at the main
 * size only) 8-bit. Effective bytes: each element read once and written once. */
static void bench_size(struct bench *b, const struct cli *c, const char *series, size_t width,
                       size_t height)
{
    size_t n = width * height;
    int main_size = !strcmp(series, "main");
    float *in = random_floats(n, 1);
    struct job j = {0, gpu_alloc(n * sizeof(float)), gpu_alloc(n * sizeof(float)), width,
                    height};
    struct timing t;
    int bytes_in = 0; /* the 8-bit image replaces the floats before the first u8 row */
    gpu_upload(j.in, in, n * sizeof(float));
    gpu_host_free(in);
    for (int i = 0; i < ALL; i++) {
        int v = i < U8_FIRST ? i : i == U8_FIRST ? CUBLAS : i - 1; /* the library after floats */
        if (!wanted(c, v) || (is_u8(v) && !main_size))
            continue;
        if (is_u8(v) && !bytes_in) {
            unsigned char *in8 = random_bytes(n, 2);
            gpu_upload(j.in, in8, n);
            gpu_host_free(in8);
            bytes_in = 1;
        }
        j.v = v;
        if (time_gpu(run_variant, &j, c->reps, &t) == LAB_OK)
            bench_row(b, series, names[v], n, 2.0 * n * (is_u8(v) ? 1 : sizeof(float)), &t);
        else
            printf("%-28s failed\n", names[v]);
    }
    gpu_free(&j.in);
    gpu_free(&j.out);
}

static int bench(const struct cli *c)
{
    struct bench b;
    if (bench_open(&b, "lab07", c->tsv, c->width * c->height * sizeof(float), c->reps) !=
        LAB_OK)
        return 1;
    bench_size(&b, c, "main", c->width, c->height);
    for (size_t s = 256; c->sweep && s * s <= c->width * c->height; s *= 2)
        bench_size(&b, c, "sweep", s, s);
    bench_close(&b);
    printf("\nrows written to %s\n", c->tsv);
    return 0;
}

/* 1 GiB of floats on a GPU, far beyond its L2; on the CPU backend, where run only checks,
 * a size that checks in seconds. */
#ifdef BACKEND_CPU
#define SIDE 4096
#else
#define SIDE 16384
#endif
#define STR(x) #x
#define XSTR(x) STR(x)

int main(int argc, char **argv)
{
    struct cli c = {.prog = "lab07", .variants = names, .width = SIDE, .height = SIDE,
                    .reps = 20, .tsv = "plots/data/lab07.tsv",
                    .usage = "  lab07 moves a height x width float matrix (and a byte image of "
                             "the same size);\n  --n is not used: give --width and --height "
                             "(default " XSTR(SIDE) " x " XSTR(SIDE) ").\n"};
    for (int v = 0; v < TR_VARIANTS; v++)
        names[v] = transpose_names[v];
    for (int v = 0; v < TR_U8_VARIANTS; v++)
        names[U8_FIRST + v] = transpose_u8_names[v];
    names[CUBLAS] = "cublasSgeam";
    cli_parse(&c, argc, argv);
    if (c.width > ((size_t)1 << 40) / c.height) {
        fprintf(stderr, "lab07: bad value for --width: '%zu' (width x height beyond 2^40)\n",
                c.width);
        return 2;
    }
    return !strcmp(c.command, "run") ? run(&c) : bench(&c);
}
