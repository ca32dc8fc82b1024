/* Tests of the CPU backend's asynchrony (common/cpu/streams.cpp, graphs.cpp): the host does not
 * wait for a launch, an async copy or a memset; streams order their own work, events and the
 * legacy stream order theirs; graphs replay what a stream captured. The portable tests build
 * with nvcc and must pass on a GPU too; those that show a missing wait (a read too early, two
 * streams on one buffer) run on the CPU backend only, where the wrong answer is certain. */
#include <cuda_runtime.h>
#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
extern "C" {
#include <cmocka.h> /* a C library, whose header does not say so to C++ */
}

#ifdef CUDA_CPU_BACKEND
#include <cuda_cpu.h>
#endif

#define CHECK(call) assert_int_equal((int)(call), (int)cudaSuccess)

#ifdef CUDA_CPU_BACKEND
#define CPU_ONLY()
#else
#define CPU_ONLY() skip()
#endif

enum { N = 1 << 12, CHUNKS = 8, CHUNK = N / CHUNKS };

__global__ void add_one(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1;
}
__global__ void twice(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2 * in[i];
}

static int count_wrong(const int *got, int n, int plus)
{
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += got[i] != 2 * i + plus;
    return wrong;
}

/* A launch returns before it runs: managed memory shows the old values until the host waits. */
static void test_launch_does_not_wait(void **)
{
    CPU_ONLY();
    int *a;
    CHECK(cudaMallocManaged(&a, N * sizeof(int)));
    memset(a, 0, N * sizeof(int));
    add_one<<<N / 256, 256>>>(a, N);
    CHECK(cudaGetLastError());
    assert_int_equal(a[0] + a[N - 1], 0); /* what a missing cudaDeviceSynchronize reads */
#ifdef __SANITIZE_THREAD__ /* the race checker: the kernel writes what the host read unordered */
    assert_int_equal((int)cudaDeviceSynchronize(), (int)cudaErrorLaunchFailure);
#else
    CHECK(cudaDeviceSynchronize());
    assert_int_equal(a[0] + a[N - 1], 2);
#endif
    CHECK(cudaFree(a));
}

/* A stream runs its work in order; cudaMemcpy on the legacy stream waits for a blocking stream. */
static void test_stream_order_and_legacy_wait(void **)
{
    int *host, *d;
    cudaStream_t s;
    CHECK(cudaMallocHost(&host, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    for (int i = 0; i < N; i++)
        host[i] = i;
    CHECK(cudaMemcpyAsync(d, host, N * sizeof(int), cudaMemcpyHostToDevice, s));
    twice<<<N / 256, 256, 0, s>>>(d, d, N);
    add_one<<<N / 256, 256, 0, s>>>(d, N);
    CHECK(cudaMemcpy(host, d, N * sizeof(int), cudaMemcpyDeviceToHost));
    assert_int_equal(count_wrong(host, N, 1), 0);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(host));
}

/* The chunked pipeline: each chunk's copy in, kernel and copy out in one stream of several. With
 * its own device buffers (or an event between streams) every result is right; with one buffer
 * for all streams, another stream's copy overwrites a chunk before its kernel reads it. */
static int pipeline(int streams, int shared_buffer, int via_event)
{
    int *in, *out, *d_in, *d_out, wrong;
    cudaStream_t s[CHUNKS], t;
    cudaEvent_t copied[CHUNKS];
    CHECK(cudaMallocHost(&in, N * sizeof(int)));
    CHECK(cudaMallocHost(&out, N * sizeof(int)));
    CHECK(cudaMalloc(&d_in, N * sizeof(int)));
    CHECK(cudaMalloc(&d_out, N * sizeof(int)));
    CHECK(cudaStreamCreate(&t));
    for (int i = 0; i < streams; i++)
        CHECK(cudaStreamCreate(&s[i]));
    for (int c = 0; c < CHUNKS; c++)
        CHECK(cudaEventCreateWithFlags(&copied[c], cudaEventDisableTiming));
    for (int i = 0; i < N; i++)
        in[i] = i, out[i] = -1;
    for (int c = 0; c < CHUNKS; c++) {
        cudaStream_t st = s[c % streams];
        size_t at = shared_buffer ? 0 : (size_t)c * CHUNK, from = (size_t)c * CHUNK;
        CHECK(cudaMemcpyAsync(d_in + at, in + from, CHUNK * sizeof(int), cudaMemcpyHostToDevice,
                              via_event ? t : st));
        if (via_event) { /* the copy in another stream, the kernel after its event */
            CHECK(cudaEventRecord(copied[c], t));
            CHECK(cudaStreamWaitEvent(st, copied[c], 0));
        }
        twice<<<CHUNK / 128, 128, 0, st>>>(d_in + at, d_out + at, CHUNK);
        CHECK(cudaMemcpyAsync(out + from, d_out + at, CHUNK * sizeof(int), cudaMemcpyDeviceToHost,
                              st));
    }
    /* -1: the race checker saw two streams (or a stream and the host) touch a buffer unordered */
    wrong = cudaDeviceSynchronize() == cudaSuccess ? count_wrong(out, N, 0) : -1;
    for (int c = 0; c < CHUNKS; c++)
        CHECK(cudaEventDestroy(copied[c]));
    for (int i = 0; i < streams; i++)
        CHECK(cudaStreamDestroy(s[i]));
    CHECK(cudaStreamDestroy(t));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFreeHost(out));
    return wrong;
}
static void test_pipeline_right(void **)
{
    assert_int_equal(pipeline(1, 0, 0), 0);
    assert_int_equal(pipeline(4, 0, 0), 0);
    assert_int_equal(pipeline(4, 0, 1), 0);
    assert_int_equal(pipeline(1, 1, 0), 0); /* one stream: one buffer is enough */
}
static void test_shared_buffer_across_streams_is_wrong(void **)
{
    CPU_ONLY();
#ifdef __SANITIZE_THREAD__
    assert_int_equal(pipeline(4, 1, 0), -1);
#else
    assert_true(pipeline(4, 1, 0) > 0);
#endif
}

/* The host waits for the wrong stream: the results are another stream's, not yet copied. */
static void test_waiting_for_the_wrong_stream(void **)
{
    CPU_ONLY();
    int *out, *d;
    cudaStream_t a, b;
    CHECK(cudaMallocHost(&out, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CHECK(cudaMemsetAsync(d, 0, N * sizeof(int), a));
    add_one<<<N / 256, 256, 0, a>>>(d, N);
    memset(out, 0, N * sizeof(int));
    CHECK(cudaMemcpyAsync(out, d, N * sizeof(int), cudaMemcpyDeviceToHost, a));
    CHECK(cudaStreamSynchronize(b));
    assert_int_equal(out[N - 1], 0);
#ifdef __SANITIZE_THREAD__ /* the race checker: the copy writes what the host read unordered */
    assert_int_equal((int)cudaStreamSynchronize(a), (int)cudaErrorLaunchFailure);
    cudaGetLastError();
#else
    CHECK(cudaStreamSynchronize(a));
#endif
    assert_int_equal(out[N - 1], 1);
    /* what is given after the wait stays to come */
    add_one<<<N / 256, 256, 0, a>>>(d, N);
    CHECK(cudaStreamSynchronize(b));
    CHECK(cudaMemcpyAsync(out, d, sizeof(int), cudaMemcpyDeviceToHost, a));
    assert_int_equal(out[0], 1);
#ifdef __SANITIZE_THREAD__
    assert_int_equal((int)cudaDeviceSynchronize(), (int)cudaErrorLaunchFailure);
    cudaGetLastError();
#else
    CHECK(cudaDeviceSynchronize());
#endif
    assert_int_equal(out[0], 2);
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(out));
}

/* Queries make progress (a polling loop ends); an event's time is ready once it has run. */
static void test_queries_and_events(void **)
{
    int *d;
    float ms = -1;
    cudaStream_t s;
    cudaEvent_t a, b;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, s));
    CHECK(cudaMemsetAsync(d, 0, N * sizeof(int), s));
    for (int k = 0; k < 4; k++)
        add_one<<<N / 256, 256, 0, s>>>(d, N);
    CHECK(cudaEventRecord(b, s));
#ifdef CUDA_CPU_BACKEND
    assert_int_equal((int)cudaEventElapsedTime(&ms, a, b), (int)cudaErrorNotReady);
#endif
    while (cudaStreamQuery(s) == cudaErrorNotReady)
        ;
    CHECK(cudaEventQuery(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    assert_true(ms >= 0);
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

/* How a program times a kernel on the legacy stream, and its traps: a stop event recorded after
 * a launch is not ready, and its time not readable (cudaErrorNotReady, which is no error that
 * cudaGetLastError keeps), until something waits for it: cudaEventSynchronize, the stream's or
 * the device's synchronize, or a blocking copy. A stop event recorded before the launch is
 * ready while the kernel has yet to run. The backend counts the events alive and the work
 * still to run, which is how lab01's tests see an event not destroyed and a launch not
 * waited for. */
static void test_timing_a_launch_waits_for_the_stop(void **)
{
    int *d, h;
    float ms = -1;
    cudaEvent_t start, stop;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    for (int wait = 0; wait < 4; wait++) {
#ifdef CUDA_CPU_BACKEND
        unsigned long long alive = cuda_cpu_events_alive();
#endif
        CHECK(cudaEventCreate(&start));
        CHECK(cudaEventCreate(&stop));
        CHECK(cudaEventRecord(start, 0));
        add_one<<<N / 256, 256>>>(d, N);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop, 0));
#ifdef CUDA_CPU_BACKEND
        assert_int_equal(cuda_cpu_events_alive(), alive + 2);
        assert_int_equal(cuda_cpu_work_pending(), 3); /* the two records and the launch */
        assert_int_equal((int)cudaEventElapsedTime(&ms, start, stop), (int)cudaErrorNotReady);
        CHECK(cudaGetLastError());
        assert_int_equal((int)cudaEventQuery(stop), (int)cudaErrorNotReady);
#endif
        if (wait == 0)
            CHECK(cudaEventSynchronize(stop));
        else if (wait == 1)
            CHECK(cudaStreamSynchronize(0));
        else if (wait == 2)
            CHECK(cudaDeviceSynchronize());
        else
            CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
#ifdef CUDA_CPU_BACKEND
        assert_int_equal(cuda_cpu_work_pending(), 0);
#endif
        CHECK(cudaEventQuery(stop));
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        assert_true(ms >= 0);
        CHECK(cudaEventElapsedTime(&ms, stop, start)); /* the other way round: negative */
        assert_true(ms <= 0);
        CHECK(cudaEventDestroy(start));
        CHECK(cudaEventDestroy(stop));
#ifdef CUDA_CPU_BACKEND
        assert_int_equal(cuda_cpu_events_alive(), alive);
#endif
    }
    /* The stop recorded before the launch: waiting for it leaves the kernel to run. */
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    CHECK(cudaEventRecord(stop, 0));
    add_one<<<N / 256, 256>>>(d, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(stop));
#ifdef CUDA_CPU_BACKEND
    assert_int_equal(cuda_cpu_work_pending(), 1);
#endif
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d));
}

/* A kernel's failure comes back from the synchronising call that ran it, not from the launch. */
__global__ void fails(int *a)
{
    assert(a == NULL);
}
static void test_failure_at_the_sync(void **)
{
    CPU_ONLY(); /* on a GPU the assert would leave the context unusable for the other tests */
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    fails<<<1, 1>>>(d);
    CHECK(cudaGetLastError());
    assert_int_not_equal((int)cudaDeviceSynchronize(), (int)cudaSuccess);
    CHECK(cudaFree(d));
}

/* A captured pipeline replays: memset, two kernels and a copy, three launches of the graph. */
static void test_graph_replays(void **)
{
    int *host, *d;
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t exec;
    cudaStreamCaptureStatus status;
    CHECK(cudaMallocHost(&host, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemset(d, 0, N * sizeof(int)));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamIsCapturing(s, &status));
    assert_int_equal((int)status, (int)cudaStreamCaptureStatusActive);
    add_one<<<N / 256, 256, 0, s>>>(d, N);
    add_one<<<N / 256, 256, 0, s>>>(d, N);
    CHECK(cudaMemcpyAsync(host, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int k = 0; k < 3; k++)
        CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    assert_int_equal(host[0], 6);
    assert_int_equal(host[N - 1], 6);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(host));
}

/* Waiting inside a capture is refused, and the capture is lost. */
static void test_capture_refuses_a_wait(void **)
{
    int *d, h;
    cudaStream_t s;
    cudaGraph_t g;
    CHECK(cudaMalloc(&d, sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add_one<<<1, 1, 0, s>>>(d, 1);
    assert_int_not_equal((int)cudaStreamSynchronize(s), (int)cudaSuccess);
    assert_int_not_equal((int)cudaStreamEndCapture(s, &g), (int)cudaSuccess);
    cudaGetLastError();
    CHECK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

/* A stream forked into a capture by an event must join it again before the capture ends. */
static void test_capture_needs_the_join(void **)
{
    int *d;
    cudaStream_t s, t;
    cudaEvent_t fork, join;
    cudaGraph_t g;
    CHECK(cudaMalloc(&d, 2 * sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreate(&t));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    for (int joined = 0; joined < 2; joined++) {
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        CHECK(cudaEventRecord(fork, s));
        CHECK(cudaStreamWaitEvent(t, fork, 0));
        add_one<<<1, 2, 0, t>>>(d, 2);
        if (joined) {
            CHECK(cudaEventRecord(join, t));
            CHECK(cudaStreamWaitEvent(s, join, 0));
        }
        cudaError_t e = cudaStreamEndCapture(s, &g);
        if (joined) {
            CHECK(e);
            CHECK(cudaGraphDestroy(g));
        } else {
            assert_int_equal((int)e, (int)cudaErrorStreamCaptureUnjoined);
        }
        cudaGetLastError();
    }
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(t));
    CHECK(cudaFree(d));
}

/* Managed memory prefetched to the device and back, in a stream's order. */
static void test_prefetch(void **)
{
    int *a;
    cudaStream_t s;
    cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0}, cpu = {cudaMemLocationTypeHost, 0};
    CHECK(cudaMallocManaged(&a, N * sizeof(int)));
    CHECK(cudaStreamCreate(&s));
    for (int i = 0; i < N; i++)
        a[i] = i;
    CHECK(cudaMemPrefetchAsync(a, N * sizeof(int), gpu, 0, s));
    twice<<<N / 256, 256, 0, s>>>(a, a, N);
    CHECK(cudaMemPrefetchAsync(a, N * sizeof(int), cpu, 0, s));
    CHECK(cudaStreamSynchronize(s));
    assert_int_equal(count_wrong(a, N, 0), 0);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_does_not_wait),
        cmocka_unit_test(test_stream_order_and_legacy_wait),
        cmocka_unit_test(test_pipeline_right),
        cmocka_unit_test(test_shared_buffer_across_streams_is_wrong),
        cmocka_unit_test(test_waiting_for_the_wrong_stream),
        cmocka_unit_test(test_queries_and_events),
        cmocka_unit_test(test_timing_a_launch_waits_for_the_stop),
        cmocka_unit_test(test_failure_at_the_sync),
        cmocka_unit_test(test_graph_replays),
        cmocka_unit_test(test_capture_refuses_a_wait),
        cmocka_unit_test(test_capture_needs_the_join),
        cmocka_unit_test(test_prefetch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
