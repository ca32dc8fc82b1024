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
    /* SOLUTION BEGIN: cudaMemcpy in into d_in; transform d_in into d_out (stream 0); then
     * cudaMemcpy d_out into out, which waits for the kernel. Mark each in stream 0, chunk 0. */
    size_t bytes = j->n * sizeof(float);
    CUDA_TRY(cudaMemcpy(j->d_in, j->in, bytes, cudaMemcpyHostToDevice));
    streams_mark(j->timeline, 0, 0, STREAMS_H2D);
    TRY(transform(j->d_in, j->d_out, j->n, j->plan.fmas, 0));
    streams_mark(j->timeline, 0, 0, STREAMS_KERNEL);
    CUDA_TRY(cudaMemcpy(j->out, j->d_out, bytes, cudaMemcpyDeviceToHost));
    streams_mark(j->timeline, 0, 0, STREAMS_D2H);
    /* SOLUTION END */
    return LAB_OK;
}

/* Chunk c's copy in, kernel and copy out in stream s, marked: each after the one before it in
 * s, while other streams' chunks use the copy engines and the SMs. */
static int chunk_in_stream(const struct streams_job *j, unsigned c, cudaStream_t s)
{
    /* SOLUTION BEGIN: chunk_of; cudaMemcpyAsync the chunk of in into the same place of d_in,
     * in s; transform that part of d_in into d_out, in s; cudaMemcpyAsync it back into out,
     * in s; mark each. Its own part of d_in and d_out: no other stream touches them. */
    size_t first, count;
    chunk_of(j, c, &first, &count);
    CUDA_TRY(cudaMemcpyAsync(j->d_in + first, j->in + first, count * sizeof(float),
                             cudaMemcpyHostToDevice, s));
    streams_mark(j->timeline, s, c, STREAMS_H2D);
    TRY(transform(j->d_in + first, j->d_out + first, count, j->plan.fmas, s));
    streams_mark(j->timeline, s, c, STREAMS_KERNEL);
    CUDA_TRY(cudaMemcpyAsync(j->out + first, j->d_out + first, count * sizeof(float),
                             cudaMemcpyDeviceToHost, s));
    streams_mark(j->timeline, s, c, STREAMS_D2H);
    /* SOLUTION END */
    return LAB_OK;
}

/* 3. Depth-first: chunk after chunk, each whole in its stream (c % streams), then a wait for
 * all: while chunk c's kernel runs, chunk c + 1 is copied in and chunk c - 1 out. */
int pipeline_chunked(const struct streams_job *j)
{
    cudaStream_t s[STREAMS_MAX_STREAMS];
    int status = make_streams(s, j->plan.streams);
    /* SOLUTION BEGIN: chunk_in_stream for each chunk c in s[c % streams]; then wait for every
     * stream (cudaStreamSynchronize each) before out is read: nothing has waited yet. */
    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++)
        status = chunk_in_stream(j, c, s[c % j->plan.streams]);
    for (unsigned k = 0; status == LAB_OK && k < j->plan.streams; k++)
        if (cudaStreamSynchronize(s[k]) != cudaSuccess)
            status = LAB_ECUDA;
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: three loops over the chunks (chunk_of, stream s[c % streams]): the
     * copies in, the kernels, the copies out, each marked; then wait for every stream. */
    size_t first, count;
    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++) {
        chunk_of(j, c, &first, &count);
        if (cudaMemcpyAsync(j->d_in + first, j->in + first, count * sizeof(float),
                            cudaMemcpyHostToDevice, s[c % j->plan.streams]) != cudaSuccess)
            status = LAB_ECUDA;
        streams_mark(j->timeline, s[c % j->plan.streams], c, STREAMS_H2D);
    }
    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++) {
        chunk_of(j, c, &first, &count);
        status = transform(j->d_in + first, j->d_out + first, count, j->plan.fmas,
                           s[c % j->plan.streams]);
        streams_mark(j->timeline, s[c % j->plan.streams], c, STREAMS_KERNEL);
    }
    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++) {
        chunk_of(j, c, &first, &count);
        if (cudaMemcpyAsync(j->out + first, j->d_out + first, count * sizeof(float),
                            cudaMemcpyDeviceToHost, s[c % j->plan.streams]) != cudaSuccess)
            status = LAB_ECUDA;
        streams_mark(j->timeline, s[c % j->plan.streams], c, STREAMS_D2H);
    }
    for (unsigned k = 0; status == LAB_OK && k < j->plan.streams; k++)
        if (cudaStreamSynchronize(s[k]) != cudaSuccess)
            status = LAB_ECUDA;
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: memcpy in into m_in (host), mark H2D; transform m_in into m_out
     * (stream 0), mark; cudaDeviceSynchronize; memcpy m_out into out, mark D2H. */
    size_t bytes = j->n * sizeof(float);
    if (status == LAB_OK) {
        memcpy(m_in, j->in, bytes);
        streams_mark(j->timeline, 0, 0, STREAMS_H2D);
        status = transform(m_in, m_out, j->n, j->plan.fmas, 0);
        streams_mark(j->timeline, 0, 0, STREAMS_KERNEL);
    }
    if (status == LAB_OK && cudaDeviceSynchronize() != cudaSuccess)
        status = LAB_ECUDA;
    if (status == LAB_OK) {
        memcpy(j->out, m_out, bytes);
        streams_mark(j->timeline, 0, 0, STREAMS_D2H);
    }
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: memcpy in into m_in; prefetch m_in to the device ({type
     * cudaMemLocationTypeDevice, id device}), mark H2D; transform, mark; prefetch m_out to the
     * host ({cudaMemLocationTypeHost, 0}); cudaDeviceSynchronize; memcpy m_out into out, mark
     * D2H. */
    size_t bytes = j->n * sizeof(float);
    struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, device},
                           cpu = {cudaMemLocationTypeHost, 0};
    if (status == LAB_OK) {
        memcpy(m_in, j->in, bytes);
        if (cudaMemPrefetchAsync(m_in, bytes, gpu, 0, 0) != cudaSuccess)
            status = LAB_ECUDA;
        streams_mark(j->timeline, 0, 0, STREAMS_H2D);
    }
    if (status == LAB_OK) {
        status = transform(m_in, m_out, j->n, j->plan.fmas, 0);
        streams_mark(j->timeline, 0, 0, STREAMS_KERNEL);
    }
    if (status == LAB_OK && (cudaMemPrefetchAsync(m_out, bytes, cpu, 0, 0) != cudaSuccess ||
                             cudaDeviceSynchronize() != cudaSuccess))
        status = LAB_ECUDA;
    if (status == LAB_OK) {
        memcpy(j->out, m_out, bytes);
        streams_mark(j->timeline, 0, 0, STREAMS_D2H);
    }
    /* SOLUTION END */
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
    /* SOLUTION BEGIN: cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal); record fork
     * in s[0], every other stream waits for it; chunk_in_stream for each chunk; every other
     * stream records its join, s[0] waits for each; cudaStreamEndCapture(s[0], &graph);
     * cudaGraphInstantiate(&exec, graph, 0); cudaGraphLaunch(exec, s[0]); wait for s[0]. */
    if (cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal) != cudaSuccess ||
        cudaEventRecord(fork, s[0]) != cudaSuccess)
        status = LAB_ECUDA;
    for (unsigned k = 1; status == LAB_OK && k < streams; k++)
        if (cudaStreamWaitEvent(s[k], fork, 0) != cudaSuccess)
            status = LAB_ECUDA;
    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++)
        status = chunk_in_stream(j, c, s[c % streams]);
    for (unsigned k = 1; status == LAB_OK && k < streams; k++)
        if (cudaEventRecord(join[k], s[k]) != cudaSuccess ||
            cudaStreamWaitEvent(s[0], join[k], 0) != cudaSuccess)
            status = LAB_ECUDA;
    if (cudaStreamEndCapture(s[0], &graph) != cudaSuccess)
        status = LAB_ECUDA;
    if (status == LAB_OK &&
        (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess ||
         cudaGraphLaunch(exec, s[0]) != cudaSuccess || cudaStreamSynchronize(s[0]) != cudaSuccess))
        status = LAB_ECUDA;
    /* SOLUTION END */
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
