/* lab12: streams. Yours: the pipelines, host code. Each pushes the job's n floats from host
 * memory (in) through streams_kernel into host memory (out) and returns once out holds every
 * result; launch.cu has checked the job. What they teach is what waits for what: a copy or a
 * launch returns before it has run, a stream runs its own work in order and nothing else, and
 * the host must wait before it reads. Mark each copy and kernel you issue (streams_mark, the
 * stream it went to, its chunk, STREAMS_H2D, STREAMS_KERNEL or STREAMS_D2H): the timeline of
 * `make lab12 run ARGS=--timeline` is drawn from those marks. */
#include <string.h>
#include "check.h"
#include "streams.h"

#define TRY(call)              \
    do {                       \
        int status_ = (call);  \
        if (status_ != LAB_OK) \
            return status_;    \
    } while (0)

static size_t div_up(size_t x, size_t y)
{
    return (x + y - 1) / y;
}

/* streams_kernel on count elements from in into out, in stream s. */
static int transform(const float *in, float *out, size_t count, unsigned fmas, cudaStream_t s)
{
    streams_kernel<<<(unsigned)div_up(count, STREAMS_THREADS), STREAMS_THREADS, 0, s>>>(
        in, out, count, fmas);
    CUDA_TRY_LAUNCH();
    return LAB_OK;
}

/* Chunk c of the job: its first element and how many, n / chunks (never 0: chunks <= n), the
 * last one taking all that is left. */
static void chunk_of(const struct streams_job *j, unsigned c, size_t *first, size_t *count)
{
    size_t size = j->n / j->plan.chunks;
    *first = (size_t)c * size;
    *count = c + 1 == j->plan.chunks ? j->n - *first : size;
}

/* The plan's streams, and their end. Blocking streams: a cudaMemcpy on the legacy stream
 * (stream 0) waits for them, and they for it. Destroying a stream does not wait for it. */
static int make_streams(cudaStream_t *s, unsigned count)
{
    for (unsigned k = 0; k < count; k++)
        CUDA_TRY(cudaStreamCreate(&s[k]));
    return LAB_OK;
}
static void end_streams(cudaStream_t *s, unsigned count)
{
    for (unsigned k = 0; k < count; k++)
        cudaStreamDestroy(s[k]);
}

/* 1 and 2. Copy in, kernel, copy out, each waiting for the one before: the copies and the
 * kernel never overlap. The same code for pageable_sync and pinned_sync: from malloc'd
 * memory the driver copies through a page-locked buffer of its own, from page-locked memory
 * the copy engines read directly, at the link's speed. */
int pipeline_sync(const struct streams_job *j)
{
    /* TODO: cudaMemcpy in into d_in; transform d_in into d_out (stream 0); then
     * cudaMemcpy d_out into out, which waits for the kernel. Mark each in stream 0, chunk 0. */
    return LAB_OK;
}

/* Chunk c's copy in, kernel and copy out in stream s, marked: each after the one before it in
 * s, while other streams' chunks use the copy engines and the SMs. */
static int chunk_in_stream(const struct streams_job *j, unsigned c, cudaStream_t s)
{
    /* TODO: chunk_of; cudaMemcpyAsync the chunk of in into the same place of d_in,
     * in s; transform that part of d_in into d_out, in s; cudaMemcpyAsync it back into out,
     * in s; mark each. Its own part of d_in and d_out: no other stream touches them. */
    return LAB_OK;
}

/* 3. Depth-first: chunk after chunk, each whole in its stream (c % streams), then a wait for
 * all: while chunk c's kernel runs, chunk c + 1 is copied in and chunk c - 1 out. */
int pipeline_chunked(const struct streams_job *j)
{
    cudaStream_t s[STREAMS_MAX_STREAMS];
    int status = make_streams(s, j->plan.streams);
    /* TODO: chunk_in_stream for each chunk c in s[c % streams]; then wait for every
     * stream (cudaStreamSynchronize each) before out is read: nothing has waited yet. */
    end_streams(s, j->plan.streams);
    return status;
}

/* 4. Breadth-first: every chunk's copy in, then every kernel, then every copy out, each in its
 * chunk's stream. The same work and the same order within each stream as depth-first: only
 * the order of issue differs, which a GPU with one queue per engine no longer minds. */
int pipeline_breadth_first(const struct streams_job *j)
{
    cudaStream_t s[STREAMS_MAX_STREAMS];
    int status = make_streams(s, j->plan.streams);
    /* TODO: three loops over the chunks (chunk_of, stream s[c % streams]): the
     * copies in, the kernels, the copies out, each marked; then wait for every stream. */
    end_streams(s, j->plan.streams);
    return status;
}

/* Managed memory for n floats in and out, as a program that keeps its data there has it. */
static int managed(size_t n, float **in, float **out)
{
    *in = *out = NULL;
    CUDA_TRY(cudaMallocManaged(in, n * sizeof(float)));
    CUDA_TRY(cudaMallocManaged(out, n * sizeof(float)));
    return LAB_OK;
}

/* 5. No copies written: the host writes in's data into managed memory, the kernel reads it
 * there (each page it touches first faults, and moves), and the host reads the results (each
 * page faults back). The host may touch managed memory a kernel uses only once it has ended. */
int pipeline_managed_faults(const struct streams_job *j)
{
    float *m_in, *m_out;
    int status = managed(j->n, &m_in, &m_out);
    /* TODO: memcpy in into m_in (host), mark H2D; transform m_in into m_out
     * (stream 0), mark; cudaDeviceSynchronize; memcpy m_out into out, mark D2H. */
    cudaFree(m_in);
    cudaFree(m_out);
    return status;
}

/* 6. The same, with the pages moved in bulk before they are needed: m_in to the device before
 * the kernel, m_out to the host after it, each a cudaMemPrefetchAsync in stream 0. */
int pipeline_managed_prefetch(const struct streams_job *j)
{
    float *m_in, *m_out;
    int device;
    int status = managed(j->n, &m_in, &m_out);
    CUDA_TRY(cudaGetDevice(&device));
    /* TODO: memcpy in into m_in; prefetch m_in to the device ({type
     * cudaMemLocationTypeDevice, id device}), mark H2D; transform, mark; prefetch m_out to the
     * host ({cudaMemLocationTypeHost, 0}); cudaDeviceSynchronize; memcpy m_out into out, mark
     * D2H. */
    cudaFree(m_in);
    cudaFree(m_out);
    return status;
}

/* 7. The chunked pipeline captured into a graph: s[0] records an event the other streams wait
 * for (they join the capture), the chunks go to their streams as in pipeline_chunked, s[0]
 * waits for an event of each other stream (they join back); then the graph is made once and
 * launched as one piece of work, with a single wait. Worth it when launched many times. */
int pipeline_graph(const struct streams_job *j)
{
    cudaStream_t s[STREAMS_MAX_STREAMS];
    cudaEvent_t fork, join[STREAMS_MAX_STREAMS];
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    unsigned streams = j->plan.streams;
    TRY(make_streams(s, streams));
    CUDA_TRY(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    for (unsigned k = 0; k < streams; k++)
        CUDA_TRY(cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming));
    int status = LAB_OK;
    /* TODO: cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal); record fork
     * in s[0], every other stream waits for it; chunk_in_stream for each chunk; every other
     * stream records its join, s[0] waits for each; cudaStreamEndCapture(s[0], &graph);
     * cudaGraphInstantiate(&exec, graph, 0); cudaGraphLaunch(exec, s[0]); wait for s[0]. */
    if (exec)
        cudaGraphExecDestroy(exec);
    if (graph)
        cudaGraphDestroy(graph);
    cudaEventDestroy(fork);
    for (unsigned k = 0; k < streams; k++)
        cudaEventDestroy(join[k]);
    end_streams(s, streams);
    return status;
}
