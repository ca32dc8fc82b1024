/* What lab01's visible and hidden tests share: the buffers of one case (random inputs, the CPU
 * loop's sum, the device's copies) made and freed in one call, and the check of the sum read
 * back, which fails at the caller's line (as assert_status does) with the caller's words.
 * Include after <cmocka.h>. Static inline: a file using only some gets no unused warning. */
#ifndef TEST_LAB01_BUFFERS_H
#define TEST_LAB01_BUFFERS_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu.h"
#include "lab.h"
#include "testkit.h"
#include "vector_add.h"

/* What lab01_bufs_new makes besides a, b, got and want on the host. */
enum lab01_where {
    LAB01_HOST,            /* nothing on the device: vector_add_host's own buffers */
    LAB01_DEVICE,          /* da and db (the inputs uploaded) and dc, each of n floats */
    LAB01_DEVICE_IN_PLACE, /* as LAB01_DEVICE, but want is a, summed in place after the
                              upload, and got is b: two host buffers for the largest case */
};

/* One case of n floats: a and b random in [-1e3, 1e3] (a, then b: TEST_SEED repeats them),
 * want = a + b by the CPU loop, got for the answer; da, db and dc for LAB01_DEVICE. */
struct lab01_bufs {
    size_t n, bytes;
    int device;
    float *a, *b, *got, *want;
    struct gpu_buf da, db, dc;
};

static inline struct lab01_bufs lab01_bufs_new(size_t n, enum lab01_where where)
{
    /* + 1: malloc(0) may return NULL, and n = 0 must still pass real buffers, not NULL */
    size_t bytes = n * sizeof(float), host = bytes + 1;
    struct lab01_bufs t = {.n = n, .bytes = bytes, .device = where != LAB01_HOST};
    int in_place = where == LAB01_DEVICE_IN_PLACE;
    t.a = malloc(host);
    t.b = malloc(host);
    t.got = in_place ? t.b : malloc(host);
    t.want = in_place ? t.a : malloc(host);
    if (t.device) {
        t.da = gpu_alloc(bytes);
        t.db = gpu_alloc(bytes);
        t.dc = gpu_alloc(bytes);
    }
    testkit_floats(t.a, n, -1e3f, 1e3f);
    testkit_floats(t.b, n, -1e3f, 1e3f);
    if (t.device) {
        gpu_upload(t.da, t.a, bytes);
        gpu_upload(t.db, t.b, bytes);
    }
    vector_add_cpu(t.a, t.b, t.want, n);
    return t;
}

static inline void lab01_bufs_free(struct lab01_bufs *t)
{
    if (t->device) {
        gpu_free(&t->da);
        gpu_free(&t->db);
        gpu_free(&t->dc);
    }
    if (t->got != t->b)
        free(t->got);
    if (t->want != t->a)
        free(t->want);
    free(t->a);
    free(t->b);
}

/* dc read back into got (on the device), and the first element of got that is not want's,
 * bit for bit, or n. */
static inline size_t lab01_first_wrong(struct lab01_bufs *t)
{
    if (t->device)
        gpu_download(t->got, t->dc, t->bytes);
    return lab_first_diff(t->got, t->want, t->n, sizeof(float));
}

/* lab01_first_wrong, failing where got is wrong with "WHAT: c[i] = G, want W" and then
 * ": HINT" if hint is not NULL; WHAT is fmt's printf. */
#define lab01_check(t, hint, ...) lab01_check_at(__FILE__, __LINE__, (t), (hint), __VA_ARGS__)
static inline void lab01_check_at(const char *file, int line, struct lab01_bufs *t,
                                  const char *hint, const char *fmt, ...)
{
    size_t bad = lab01_first_wrong(t);
    char what[256];
    va_list ap;
    if (bad == t->n)
        return;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    print_error("ERROR: %s: c[%zu] = %g, want %g%s%s\n", what, bad, t->got[bad], t->want[bad],
                hint ? ": " : "", hint ? hint : "");
    _fail(file, line);
}

/* The windowed sums, for the sizes whose every block the CPU backend cannot afford: c = a +
 * a in place on n floats, zero but for windows of i % 4096 + 1 (lab01_wrap_value), which alone
 * run and are checked (lab01_add_in_windows); an element that comes back as it was was not
 * written, one quadrupled was written twice (lab01_describe). */
static inline float lab01_wrap_value(size_t i)
{
    return (float)(i % 4096 + 1);
}

/* The first wrong element of a window, added to why: what it holds tells what went wrong
 * (skipped: what an element not written suggests). */
static inline void lab01_describe(char *why, size_t size, size_t i, float got, const char *skipped)
{
    size_t used = strlen(why);
    const char *sep = used ? "; " : "";
    float was = lab01_wrap_value(i);
    if (got == was)
        snprintf(why + used, size - used, "%sc[%zu] was not written (%s)", sep, i, skipped);
    else if (got == 4 * was)
        snprintf(why + used, size - used,
                 "%sc[%zu] was written twice (by a thread whose index wrapped at 2^32?)", sep, i);
    else
        snprintf(why + used, size - used, "%sc[%zu] = %g, want %g", sep, i, got, 2 * was);
}

/* c = a + a in place by variant v on n floats, zero but for the windows w[k] = [from, to)
 * (whole rows of grid_2d's blocks), which hold i % 4096 + 1 and alone are checked. On the
 * CPU backend only the blocks that hold the windows' threads run (testkit_window), on memory
 * mapped where touched. Windows of at most 16384 floats. Returns the call's status, and in
 * why what the windows show (skipped: describe's). */
static inline int lab01_add_in_windows(int v, size_t n, const size_t (*w)[2], int count, char *why,
                                       size_t size, const char *skipped)
{
    enum { MOST = 16384 };
    size_t ranks[3][2], per = vector_add_facts[v].float4 ? 4 : 1;
    float *x = malloc(MOST * sizeof(float));
    struct gpu_buf d = gpu_alloc_zeroed(n * sizeof(float));
    int status;
    for (int k = 0; k < count; k++) {
        struct gpu_buf part = {(float *)d.ptr + w[k][0], (w[k][1] - w[k][0]) * sizeof(float)};
        for (size_t j = 0; j < w[k][1] - w[k][0]; j++)
            x[j] = lab01_wrap_value(w[k][0] + j);
        gpu_upload(part, x, part.bytes);
        /* a float4 variant's thread has 4 elements; a thread's rank counts whole blocks, so
         * grid_2d's last block row holds ranks past n: the end rounded up to a block row */
        ranks[k][0] = w[k][0] / per;
        ranks[k][1] = (w[k][1] + 8191) / 8192 * 8192 / per;
    }
    testkit_window(ranks, (size_t)count);
    status = vector_add((enum vector_add_variant)v, d, d, d, n);
    if (status == LAB_OK)
        gpu_sync();
    testkit_window(NULL, 0);
    for (int k = 0; k < count && status == LAB_OK; k++) {
        struct gpu_buf part = {(float *)d.ptr + w[k][0], (w[k][1] - w[k][0]) * sizeof(float)};
        size_t j = 0;
        gpu_download(x, part, part.bytes);
        while (j < w[k][1] - w[k][0] && x[j] == 2 * lab01_wrap_value(w[k][0] + j))
            j++;
        if (j < w[k][1] - w[k][0])
            lab01_describe(why, size, w[k][0] + j, x[j], skipped);
    }
    gpu_free(&d);
    free(x);
    return status;
}

#endif
