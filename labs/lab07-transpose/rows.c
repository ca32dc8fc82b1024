/* lab07's bench rows: the variants of transpose.h, float then 8-bit, and cuBLAS's transpose,
 * each checked element by element against the CPU's transpose (the copies against their
 * input). */
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

const struct lab_row extra_rows[ROWS - TR_VARIANTS] = {
    {"cublasSgeam", LAB_ROW_LIBRARY, "cuBLAS's transpose (geam with alpha = 1, beta = 0)"},
};

struct job {
    size_t width, height, n;
    float *in;     /* the float matrix, pinned host memory */
    uint8_t *in8;  /* the 8-bit image of the same size */
    void *want[2]; /* their transposes, made on first use: [0] floats, [1] bytes */
    unsigned char *got;
    struct gpu_buf din, din8, dout;
};

static size_t elem(int row)
{
    return row == CUBLAS ? sizeof(float) : transpose_facts[row].elem;
}

/* Random data, so that no variant is timed on zeros. */
static void *setup(struct lab_size s, uint64_t seed)
{
    struct job *j = calloc(1, sizeof *j);
    struct rng r = rng_new(seed);
    if (!j)
        return NULL;
    j->width = s.width;
    j->height = s.height;
    j->n = s.n;
    j->in = gpu_host_alloc(s.n * sizeof(float));
    j->in8 = gpu_host_alloc(s.n);
    rng_floats(&r, j->in, s.n, -1.0f, 1.0f);
    rng_bytes(&r, j->in8, s.n);
    j->din = gpu_alloc(s.n * sizeof(float));
    j->din8 = gpu_alloc(s.n);
    j->dout = gpu_alloc(s.n * sizeof(float));
    gpu_upload(j->din, j->in, s.n * sizeof(float));
    gpu_upload(j->din8, j->in8, s.n);
    return j;
}

static void teardown(void *p)
{
    struct job *j = p;
    gpu_free(&j->din);
    gpu_free(&j->din8);
    gpu_free(&j->dout);
    gpu_host_free(j->in);
    gpu_host_free(j->in8);
    free(j->want[0]);
    free(j->want[1]);
    free(j->got);
    free(j);
}

static int launch(void *p, int row)
{
    struct job *j = p;
#ifdef BACKEND_CUDA
    if (row == CUBLAS)
        return transpose_cublas(j->din, j->dout, j->width, j->height);
#endif
    return transpose((enum transpose_variant)row, elem(row) == 1 ? j->din8 : j->din, j->dout,
                     j->width, j->height);
}

/* What the row must write: its input for a copy, else the transpose. */
static const void *wanted(struct job *j, int row)
{
    int bytes = elem(row) == 1;
    const void *in = bytes ? (const void *)j->in8 : j->in;
    if (row < TR_VARIANTS && transpose_facts[row].copy)
        return in;
    if (!j->want[bytes] && (j->want[bytes] = malloc(j->n * elem(row))))
        transpose_cpu(in, j->want[bytes], j->width, j->height, elem(row));
    return j->want[bytes];
}

static int check(void *p, int row, char *why, size_t why_size)
{
    struct job *j = p;
    size_t bad, cols = row < TR_VARIANTS && transpose_facts[row].copy ? j->width : j->height;
    int status;
    const void *want = wanted(j, row);
    if (!j->got)
        j->got = malloc(j->n * sizeof(float));
    if (!j->got || !want) {
        snprintf(why, why_size, "not enough memory to check it");
        return LAB_WRONG;
    }
    gpu_poison(j->dout);
    if ((status = launch(j, row)) != LAB_OK)
        return status;
    gpu_download(j->got, j->dout, j->n * elem(row));
    if ((bad = lab_first_diff(j->got, want, j->n, elem(row))) == j->n)
        return LAB_OK;
    snprintf(why, why_size, "element %zu (row %zu, column %zu of the result)", bad, bad / cols,
             bad % cols);
    return LAB_WRONG;
}

/* Each element read once and written once. */
static double bytes(void *p, int row)
{
    return 2.0 * elem(row) * ((struct job *)p)->n;
}

const struct lab_job transpose_job = {
    .setup = setup, .teardown = teardown, .launch = launch, .check = check, .bytes = bytes};
