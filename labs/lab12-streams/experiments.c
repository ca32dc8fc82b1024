/* lab12's handout experiments: the bound table bench prints after its main table, and the
 * timeline of every variant (run --timeline). */
#include <stdio.h>
#include <stdlib.h>
#include "rng.h"
#include "host.h"

static const char *const parts[] = {"h2d", "kernel", "d2h"};

/* A pipeline can go no faster than the slowest of its parts alone, nor than its two copies
 * at once (the link's directions share the host's memory and the link), and no slower than
 * the three parts one after another (pinned_sync, nearly). */
void bound_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned)
{
    double bound = 0, serial = 0;
    (void)tuned;
    for (int r = H2D_ALONE; r < ROWS; r++) {
        bound = ms[r] > bound ? ms[r] : bound;
        serial += r == BOTH_WAYS ? 0 : ms[r];
    }
    if (bound <= 0)
        return;
    printf("\n%zu floats on %s, %u chunks over %u streams, %u FMAs an element:\n", s.n, b->gpu.name,
           opt_plan.chunks, opt_plan.streams, opt_plan.fmas);
    printf("  bound max(h2d, kernel, d2h, both ways) %.3f ms; the three in a row %.3f ms\n", bound,
           serial);
    printf("  %-24s %10s %10s %14s\n", "variant", "ms", "x bound", "vs pinned_sync");
    for (int v = 0; v < STREAMS_VARIANTS; v++)
        if (ms[v] > 0)
            printf("  %-24s %10.3f %10.2f %13.2fx\n", streams_variants[v].name, ms[v],
                   ms[v] / bound,
                   ms[STREAMS_PINNED_SYNC] > 0 ? ms[STREAMS_PINNED_SYNC] / ms[v] : 0);
}

/* Every variant once with its timeline, on pinned memory but pageable_sync's (as bench gives
 * them): variant, stream, chunk, part, start and end in ms, a line per span. */
void timeline(struct lab_size s, uint64_t seed)
{
    size_t bytes = s.n * sizeof(float);
    struct rng r = rng_new(seed);
    struct streams_plan plan = opt_plan;
    struct streams_span *spans = calloc(3 * (size_t)STREAMS_MAX_CHUNKS, sizeof *spans);
    float *host[2][2] = {{malloc(bytes), malloc(bytes)},
                         {gpu_host_alloc(bytes), gpu_host_alloc(bytes)}};
    struct gpu_buf din = gpu_alloc(bytes), dout = gpu_alloc(bytes);
    if (!spans || !host[0][0] || !host[0][1]) {
        fprintf(stderr, "lab12: out of host memory for the timeline (try a smaller --n)\n");
        exit(1);
    }
    plan.chunks = plan.chunks > s.n ? (unsigned)s.n : plan.chunks;
    rng_floats(&r, host[STREAMS_PINNED][0], s.n, -1.0f, 1.0f);
    for (size_t i = 0; i < s.n; i++)
        host[STREAMS_PAGEABLE][0][i] = host[STREAMS_PINNED][0][i];
    printf("variant\tstream\tchunk\tpart\tstart_ms\tend_ms\n");
    for (int v = 0; v < STREAMS_VARIANTS; v++) {
        float **h = host[streams_facts[v].memory];
        int status = streams_pipeline(v, h[1], h[0], s.n, din, dout, plan, spans);
        size_t count = streams_facts[v].chunked ? 3 * (size_t)plan.chunks : 3;
        if (status != LAB_OK) {
            fprintf(stderr, "lab12: %s: %s\n", streams_variants[v].name, lab_strerror(status));
            exit(1);
        }
        for (size_t k = 0; k < count; k++)
            printf("%s\t%u\t%u\t%s\t%.4f\t%.4f\n", streams_variants[v].name, spans[k].stream,
                   spans[k].chunk, parts[spans[k].what], spans[k].start, spans[k].end);
    }
    gpu_free(&din);
    gpu_free(&dout);
    free(host[0][0]), free(host[0][1]);
    gpu_host_free(host[1][0]), gpu_host_free(host[1][1]);
    free(spans);
}
