/* lab07's experiment, `lab07 run --occupancy` (make lab07 occupancy): tiled_padded with more
 * and more dynamic shared memory a block that it never uses, from none to the most one block
 * can have. At each amount where an SM holds one block fewer, the transpose is timed beside
 * the device-to-device copy: a line per occupancy, and with --occupancy-tsv a TSV that
 * plots/occupancy.gp draws. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rng.h"
#include "timing.h"
#include "host.h"

/* Steps of the sweep: the granularity in which a GPU hands out shared memory (128 bytes
 * since Volta), so no step skips a change of occupancy. */
enum { STEP = 128, REPS = 20 };

struct padded {
    struct gpu_buf in, out;
    size_t width, height, extra;
};

static int run_padded(void *p)
{
    struct padded *t = p;
    return transpose_padded_extra(t->in, t->out, t->width, t->height, t->extra);
}

static void fail(const char *what, int status)
{
    fprintf(stderr, "lab07: --occupancy: %s: %s\n", what, lab_strerror(status));
    exit(1);
}

/* The TSV's first line says what ran; then a row per occupancy. */
static FILE *open_tsv(const char *path, const struct gpu_info *gpu, struct lab_size s)
{
    char date[32];
    time_t now = time(NULL);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "lab07: --occupancy-tsv %s: cannot write it\n", path);
        exit(1);
    }
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(f, "# lab07 occupancy: tiled_padded, %zu x %zu floats, %s, %s\n", s.width, s.height,
            gpu->name, date);
    fprintf(f, "extra_bytes\tblocks_per_sm\toccupancy_pct\tinflight_kb\tms_median\tms_min\tms_max"
               "\tgbs\tpct_copy\tcopy_gbs\n");
    return f;
}

void occupancy(struct lab_size s, uint64_t seed)
{
    const struct transpose_facts *f = &transpose_facts[TR_TILED_PADDED];
    unsigned threads = f->threads_x * f->threads_y;
    size_t most, bytes = s.n * sizeof(float);
    struct padded job = {gpu_alloc(bytes), gpu_alloc(bytes), s.width, s.height, 0};
    struct transpose_occupancy occ;
    struct timing copy, t;
    struct gpu_info gpu;
    struct rng r = rng_new(seed);
    float *host = malloc(bytes);
    FILE *tsv = NULL;
    int status, last = -1;
    if (!host) {
        fprintf(stderr, "lab07: --occupancy: not enough host memory for %zu floats\n", s.n);
        exit(1);
    }
    rng_floats(&r, host, s.n, -1.0f, 1.0f);
    gpu_upload(job.in, host, bytes);
    if ((status = gpu_query(&gpu)) != LAB_OK)
        fail("the device", status);
    if ((status = transpose_extra_most(TR_TILED_PADDED, &most)) != LAB_OK)
        fail("transpose_extra_most", status);
    if ((status = time_copy(bytes, REPS, &copy)) != LAB_OK)
        fail("the copy", status);
    if (opt_occupancy_tsv)
        tsv = open_tsv(opt_occupancy_tsv, &gpu, s);
    printf("occupancy: tiled_padded (%u threads a block, 4 loads of 4 bytes each in flight) on "
           "%zu x %zu floats, %s;\n  dynamic shared memory a block that it never uses, 0 to %zu "
           "bytes; copy %.0f GB/s\n",
           threads, s.width, s.height, gpu.name, most, gbs(2.0 * bytes, copy.median_ms));
    printf("  %11s %10s %10s %13s %10s %8s %10s\n", "extra bytes", "blocks/SM", "occupancy",
           "KB in flight", "ms", "GB/s", "% of copy");
    for (size_t extra = 0; extra <= most; extra += STEP) {
        double rate, inflight;
        if ((status = transpose_occupancy(TR_TILED_PADDED, threads, extra, &occ)) != LAB_OK)
            fail("transpose_occupancy", status);
        if (occ.blocks == last)
            continue;
        last = occ.blocks;
        job.extra = extra;
        if ((status = time_gpu(run_padded, &job, REPS, &t)) != LAB_OK)
            fail("transpose_padded_extra", status);
        rate = gbs(2.0 * bytes, t.median_ms);
        inflight = occ.blocks * threads * 16 / 1024.0; /* a thread's 4 loads of 4 bytes */
        printf("  %11zu %10d %9.1f%% %13.0f %10.4f %8.1f %9.1f%%\n", extra, occ.blocks,
               100.0 * occ.fraction, inflight, t.median_ms, rate,
               100.0 * copy.median_ms / t.median_ms);
        if (tsv)
            fprintf(tsv, "%zu\t%d\t%.2f\t%.0f\t%.5f\t%.5f\t%.5f\t%.1f\t%.2f\t%.1f\n", extra,
                    occ.blocks, 100.0 * occ.fraction, inflight, t.median_ms, t.min_ms, t.max_ms,
                    rate, 100.0 * copy.median_ms / t.median_ms, gbs(2.0 * bytes, copy.median_ms));
    }
#ifdef BACKEND_CPU
    printf("  (CPU backend: its occupancy model's blocks, and the CPU's times, which say nothing "
           "of a GPU's)\n");
#endif
    if (tsv && fclose(tsv))
        fprintf(stderr, "lab07: --occupancy-tsv %s: could not be written\n", opt_occupancy_tsv);
    gpu_free(&job.in);
    gpu_free(&job.out);
    free(host);
}
