// Streams and events of the CPU backend, with CUDA's asynchrony: a launch, an async copy, a
// memset or an event's record is kept, not run, until a synchronising call waits for it (a
// cudaMemcpy, a stream's, an event's or the device's synchronize, a query, cudaFree). Then
// everything given up to it runs, each piece after what it waits for (its stream's earlier
// work; on the legacy stream, every blocking stream's; an event a stream waits for), and among
// the pieces that may run, one drawn at random (CUDA_CPU_SCHEDULE's seed, else 1): so a
// program that reads a result before waiting for it, or lets two streams share a buffer, sees
// what a GPU may show it, every time, not once in a thousand runs.
#include "streams.h"
#include "cuda_cpu.h"
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <atomic>
#include <chrono>

struct CUstream_st {
    unsigned flags;
    cucc::OpRef last;         // its latest work, until done
    cucc::GraphRef capture;   // while it captures
    int capture_last = -1;    // the node it captured last
    void *identity = nullptr; // the race checker's identity of its work
};
struct CUevent_st {
    unsigned flags;
    std::shared_ptr<double> ms; // when its latest record ran; negative before
    cucc::OpRef record;         // that record, until done
    cucc::GraphRef graph;       // recorded in a capture: the graph and its node
    int node = -1;
};

namespace cucc {
static CUstream_st legacy{0, nullptr, nullptr, -1};
static std::vector<OpRef> pending;    // given, not yet run, in the order given
static thread_local const void *site; // the program's call that gives the next op
// The events created and not yet destroyed (cuda_cpu_events_alive).
static std::atomic<unsigned long long> events_alive;

void called_from(const void *pc)
{
    site = pc;
}

std::recursive_mutex &streams_lock()
{
    static std::recursive_mutex m;
    return m;
}
static CUstream_st *stream_of(cudaStream_t s)
{
    return !s || s == cudaStreamLegacy || s == cudaStreamPerThread ? &legacy : s;
}
static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
static unsigned long long draw(unsigned long long n) // splitmix64, seeded as the schedule is
{
    static unsigned long long state = [] {
        const char *s = getenv("CUDA_CPU_SCHEDULE");
        return s && !strncmp(s, "random:", 7) ? strtoull(s + 7, nullptr, 10) : 1ULL;
    }();
    unsigned long long z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (z ^ (z >> 31)) % n;
}

OpRef issue(cudaStream_t s, Work w, const std::vector<OpRef> &extra)
{
    CUstream_st *st = stream_of(s);
    auto op = std::make_shared<Op>();
    op->work = std::move(w);
    op->blocking = !(st->flags & cudaStreamNonBlocking);
    if (!st->identity)
        st->identity = race_stream_identity();
    op->identity = st->identity, op->site = site;
    site = nullptr;
    for (auto &o : extra)
        if (o && !o->done)
            op->after.push_back(o);
    if (st->last && !st->last->done)
        op->after.push_back(st->last);
    if (st == &legacy) { // the legacy stream waits for every blocking stream
        for (auto &o : pending)
            if (o->blocking)
                op->after.push_back(o);
    } else if (op->blocking && legacy.last && !legacy.last->done) {
        op->after.push_back(legacy.last); // and they wait for it
    }
    st->last = op;
    give(op);
    return op;
}

static unsigned long long given; // ops given so far: the next one's seq
void give(const OpRef &op)
{
    op->seq = ++given;
    pending.push_back(op);
    race_op_given(op.get());
}

static void run(const OpRef &op)
{
    std::vector<const void *> after;
    for (auto &a : op->after)
        after.push_back(a.get());
    op->done = true;
    Work w = std::move(op->work);
    pending.erase(std::find(pending.begin(), pending.end(), op));
    race_op_runs(op.get(), op->identity, op->site, after);
    w();
    w = nullptr; // (its copy of a kernel's arguments freed where the kernel read them)
    race_op_ran(op.get());
    op->after.clear(); // (after the race checker took in their ends)
}
// What a synchronising call waits for (targets): the device works on everything given before
// the host began to wait, so everything given up to the latest target runs, each piece after
// what it waits for, in an order drawn among those that may run (several streams interleave,
// as on a GPU); what was given after stays to come. One piece only when step (a query's
// progress). Returns whether the targets are all done.
static bool settle(const std::vector<OpRef> &targets, bool step = false)
{
    unsigned long long until = 0;
    for (auto &t : targets)
        if (t && !t->done)
            until = std::max(until, t->seq);
    std::vector<OpRef> need;
    for (auto &o : pending)
        if (o->seq <= until)
            need.push_back(o);
    while (!need.empty()) {
        std::vector<size_t> ready;
        for (size_t i = 0; i < need.size(); i++)
            if (std::all_of(need[i]->after.begin(), need[i]->after.end(),
                            [](const OpRef &o) { return o->done; }))
                ready.push_back(i);
        size_t pick = ready[draw(ready.size())];
        OpRef op = need[pick];
        need.erase(need.begin() + pick);
        run(op);
        if (step && !need.empty())
            return false;
    }
    for (auto &t : targets) // the host takes in what it waited for
        if (t)
            race_host_waits(t.get());
    return true;
}

cudaError_t submit(cudaStream_t s, Work w, bool sync)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    int *last;
    GraphRef &g = capture_of(s, &last);
    if (g && sync) {
        g->invalid = true;
        return fail(cudaErrorStreamCaptureUnsupported);
    }
    if (g) {
        g->nodes.push_back(
            {std::move(w), *last >= 0 ? std::vector<int>{*last} : std::vector<int>{}});
        *last = (int)g->nodes.size() - 1;
        return cudaSuccess;
    }
    if ((sync || stream_of(s) == &legacy) && any_capture()) {
        invalidate_captures(); // the legacy stream would wait for a capturing stream
        return fail(cudaErrorStreamCaptureImplicit);
    }
    OpRef op = issue(s, std::move(w));
    if (!sync)
        return cudaSuccess;
    settle({op});
    return sync_point();
}
cudaError_t settle_all()
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    if (any_capture()) {
        invalidate_captures();
        return fail(cudaErrorStreamCaptureUnsupported);
    }
    std::vector<OpRef> all = pending; // (settle takes them out of pending)
    settle(all);
    return sync_point();
}

GraphRef &capture_of(cudaStream_t s, int **last)
{
    CUstream_st *st = stream_of(s);
    *last = &st->capture_last;
    return st->capture;
}
} // namespace cucc

using namespace cucc;
extern "C" {
cudaError_t cudaDeviceSynchronize(void)
{
    return settle_all();
}
cudaError_t cudaDeviceReset(void)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    pending.clear(); // what was given and never waited for is dropped, as with a GPU's context
    legacy.last = nullptr;
    forget_errors();
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream || (flags & ~cudaStreamNonBlocking))
        return fail(cudaErrorInvalidValue);
    *stream = new CUstream_st{flags, nullptr, nullptr, -1};
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, 0);
}
// Its work still runs; only the handle goes.
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (stream_of(stream) == &legacy)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    if (stream->capture) {
        auto &members = stream->capture->streams;
        members.erase(std::find(members.begin(), members.end(), stream));
    }
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    CUstream_st *st = stream_of(stream);
    if (st->capture) {
        st->capture->invalid = true;
        return fail(cudaErrorStreamCaptureUnsupported);
    }
    settle({st->last});
    return sync_point();
}
// Not yet: one piece of the work it waits for runs, so that a loop of queries ends.
cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    CUstream_st *st = stream_of(stream);
    return settle({st->last}, true) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    CUstream_st *st = stream_of(stream);
    if (event->graph && !event->graph->invalid && !st->capture) { // joins the capture
        st->capture = event->graph, st->capture_last = event->node;
        event->graph->streams.push_back(stream);
        return cudaSuccess;
    }
    if (st->capture) {
        if (event->graph == st->capture && event->node >= 0) {
            st->capture->nodes.push_back({[] {}, {event->node}});
            if (st->capture_last >= 0)
                st->capture->nodes.back().after.push_back(st->capture_last);
            st->capture_last = (int)st->capture->nodes.size() - 1;
        }
        return cudaSuccess;
    }
    if (event->record && !event->record->done)
        issue(stream, [] {}, {event->record});
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return fail(cudaErrorInvalidValue);
    *event = new CUevent_st{flags, std::make_shared<double>(-1), nullptr, nullptr, -1};
    events_alive++;
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    delete event; // a record still to run keeps its own time
    events_alive--;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    std::shared_ptr<double> ms = std::make_shared<double>(-1);
    Work stamp = [ms] { *ms = now_ms(); };
    CUstream_st *st = stream_of(stream);
    if (st->capture) {
        submit(stream, stamp, false);
        event->graph = st->capture, event->node = st->capture_last, event->record = nullptr;
    } else {
        event->graph = nullptr, event->node = -1;
        event->record = issue(stream, stamp);
    }
    event->ms = ms;
    return cudaSuccess;
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    if (flags & ~cudaEventRecordExternal)
        return fail(cudaErrorInvalidValue);
    return cudaEventRecord(event, stream);
}
cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    settle({event->record});
    return sync_point();
}
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    return settle({event->record}, true) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return fail(cudaErrorInvalidValue);
    if (!start || !end || ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    if ((start->record && !start->record->done) || (end->record && !end->record->done))
        return cudaErrorNotReady;
    if (*start->ms < 0 || *end->ms < 0)
        return fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(*end->ms - *start->ms);
    return cudaSuccess;
}

unsigned long long cuda_cpu_events_alive(void)
{
    return events_alive;
}
unsigned long long cuda_cpu_work_pending(void)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    return pending.size();
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags)
{
    if (!callback || flags)
        return fail(cudaErrorInvalidValue);
    return submit(
        stream, [=] { callback(stream, cudaSuccess, user_data); }, false);
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data)
{
    if (!fn)
        return fail(cudaErrorInvalidValue);
    return submit(
        stream, [=] { fn(user_data); }, false);
}
}
