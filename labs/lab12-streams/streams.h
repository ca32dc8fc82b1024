/* lab12: streams. The table of variants, the host API that rows.c and the tests call
 * (launch.cu), and what the pipelines of streams.cu are given. Every variant does the same
 * job: push n floats from host memory through a transform on the GPU and back into host
 * memory. What differs is how the bytes travel and what waits for what. */
#ifndef STREAMS_H
#define STREAMS_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host memory the bench gives a variant's in and out (the tests give the same to all). */
enum streams_memory { STREAMS_PAGEABLE, STREAMS_PINNED };

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its facts, what it teaches. The facts: the host memory it
 * is given, and whether it works in chunks (the plan's chunks and streams). */
// clang-format off
#define STREAMS_TABLE(X) /* memory, chunked */ \
    X(STREAMS_PAGEABLE_SYNC, "pageable_sync", (STREAMS_PAGEABLE, 0), \
      "cudaMemcpy from malloc'd memory: the driver stages every byte through a pinned buffer") \
    X(STREAMS_PINNED_SYNC, "pinned_sync", (STREAMS_PINNED, 0), \
      "the same code on page-locked memory: the copy engines read it at the link's speed") \
    X(STREAMS_CHUNKED, "streams_chunked", (STREAMS_PINNED, 1), \
      "chunks over streams, copy in, kernel, copy out each: one chunk's copies overlap another's kernel") \
    X(STREAMS_BREADTH_FIRST, "streams_breadth_first", (STREAMS_PINNED, 1), \
      "the same work issued breadth-first: every copy in, then every kernel, then every copy out") \
    X(STREAMS_MANAGED_FAULTS, "managed_faults", (STREAMS_PINNED, 0), \
      "managed memory: no copies written, the pages move when first touched, a fault each") \
    X(STREAMS_MANAGED_PREFETCH, "managed_prefetch", (STREAMS_PINNED, 0), \
      "managed memory moved ahead of its use by cudaMemPrefetchAsync, in bulk") \
    X(STREAMS_GRAPH, "graph", (STREAMS_PINNED, 1), \
      "the chunked pipeline captured once into a CUDA graph, then launched as one")
// clang-format on

enum streams_variant { STREAMS_TABLE(LAB_ENUM) STREAMS_VARIANTS };
static const struct lab_variant streams_variants[] = {STREAMS_TABLE(LAB_VARIANT)};
struct streams_facts {
    enum streams_memory memory;
    unsigned chunked;
};
static const struct streams_facts streams_facts[] = {STREAMS_TABLE(LAB_FACTS)};

#define STREAMS_MAX_CHUNKS 1024u
#define STREAMS_MAX_STREAMS 32u
#define STREAMS_MAX_FMAS 65536u

/* How a chunked variant cuts the work: chunks of about n / chunks elements (the last one
 * takes what is left), chunk c in stream c % streams; every element fmas FMAs deep. */
struct streams_plan {
    unsigned chunks, streams, fmas;
};

/* A span of the timeline: one copy in, kernel or copy out (what) of one chunk, in one stream
 * (numbered in the order the pipeline first used them), from the time its stream reached it
 * to the time it ended, in ms since the pipeline began. */
enum { STREAMS_H2D, STREAMS_KERNEL, STREAMS_D2H };
/* streams_part's fourth part: the copy in and the copy out at once, in two streams (a link's
 * two directions share more than the wire: the bound of a pipeline that overlaps them). */
enum { STREAMS_BOTH_WAYS = STREAMS_D2H + 1 };
struct streams_span {
    unsigned chunk, stream, what;
    float start, end;
};

/* out[i] = streams_transform(in[i], plan.fmas) for i < n, host memory to host memory, the way
 * variant v moves the data: in and out are n floats of host memory (page-locked or not: any
 * variant is right on both; for all but pageable_sync, launch.cu page-locks for the call what
 * is not yet), d_in and d_out device buffers of n floats at least (the managed
 * variants use managed memory of their own instead). timeline: NULL, or room for a span per
 * copy and kernel (3 for the unchunked variants, 3 x plan.chunks for the chunked ones), in
 * the order the pipeline issued them. Synchronous: out holds every result when it returns.
 * Returns LAB_OK (nothing to do for n = 0), LAB_EINVAL for a bad variant, a NULL pointer, a
 * device buffer under n floats, or a plan beyond its limits (chunks 1 to STREAMS_MAX_CHUNKS
 * and at most n but for n = 0, streams 1 to STREAMS_MAX_STREAMS, fmas to STREAMS_MAX_FMAS), or LAB_ECUDA. */
int streams_pipeline(enum streams_variant v, float *out, const float *in, size_t n,
                     struct gpu_buf d_in, struct gpu_buf d_out, struct streams_plan plan,
                     struct streams_span *timeline);

/* The parts alone, for the bench's bound max(copy in, kernel, copy out) of the whole buffer:
 * part STREAMS_H2D copies in to d_in, STREAMS_KERNEL transforms d_in into d_out,
 * STREAMS_D2H copies d_out to out, STREAMS_BOTH_WAYS does the copy in and the copy out at once.
 * Synchronous; the same errors. */
int streams_part(unsigned part, float *out, const float *in, size_t n, struct gpu_buf d_in,
                 struct gpu_buf d_out, unsigned fmas);

/* The transform's FMA, x = x * A + B: both exact in binary, so the CPU's fmaf and the GPU's
 * FFMA round alike, and x stays in [-1, 1] however many times it is applied. */
#define STREAMS_A 0.9990234375f
#define STREAMS_B 0.0009765625f

/* reference.c: the transform, one element (fmas FMAs, each rounded as the GPU's), and the
 * CPU loop everything is checked against. */
float streams_transform(float x, unsigned fmas);
void streams_cpu(const float *in, float *out, size_t n, unsigned fmas);

#ifdef __cplusplus
}

#include <cuda_runtime.h>

/* What a pipeline of streams.cu is given (launch.cu checked it): the job, and the timeline
 * to mark, a call after each copy or kernel it issues (nothing when none was asked for). */
struct streams_job {
    float *out;
    const float *in;
    size_t n;
    float *d_in, *d_out;
    struct streams_plan plan;
    struct streams_timeline *timeline;
};
struct streams_timeline;
void streams_mark(struct streams_timeline *t, cudaStream_t s, unsigned chunk, unsigned what);

/* The kernel every variant launches: out[i] = streams_transform(in[i], fmas) for i < n, a
 * thread per element, STREAMS_THREADS a block (launch.cu). */
#define STREAMS_THREADS 256u
__global__ void streams_kernel(const float *in, float *out, size_t n, unsigned fmas);

/* streams.cu: the pipelines, LAB_OK or LAB_ECUDA. */
int pipeline_sync(const struct streams_job *j);
int pipeline_chunked(const struct streams_job *j);
int pipeline_breadth_first(const struct streams_job *j);
int pipeline_managed_faults(const struct streams_job *j);
int pipeline_managed_prefetch(const struct streams_job *j);
int pipeline_graph(const struct streams_job *j);
#endif
#endif
