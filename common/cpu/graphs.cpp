// CUDA graphs by stream capture, in the CPU backend: between cudaStreamBeginCapture and
// cudaStreamEndCapture a stream's work (and that of the streams that wait for one of its
// events, until they join it again) is kept as the nodes of a graph, each after the nodes it
// waited for; cudaGraphLaunch gives them all to a stream at once, to run as streams.cpp runs
// any work: each node after those it waits for, the order otherwise drawn at random.
#include "streams.h"
#include <algorithm>

namespace cucc {
static std::vector<GraphRef> capturing; // graphs being captured

bool any_capture()
{
    return !capturing.empty();
}
void invalidate_captures()
{
    for (auto &g : capturing)
        g->invalid = true;
}
// Whether every node is the origin's last (end) or comes before it: each stream that forked
// from the origin joined it again (an event the origin waited for) after its last work.
static bool joined(const Graph &g, int end)
{
    std::vector<char> before(g.nodes.size(), 0);
    std::vector<int> stack;
    if (end >= 0)
        stack.push_back(end);
    while (!stack.empty()) {
        int k = stack.back();
        stack.pop_back();
        if (before[k]++)
            continue;
        stack.insert(stack.end(), g.nodes[k].after.begin(), g.nodes[k].after.end());
    }
    return std::all_of(before.begin(), before.end(), [](char b) { return b != 0; });
}
} // namespace cucc

using namespace cucc;
extern "C" {
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode)
{
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    int *last;
    GraphRef &g = capture_of(stream, &last);
    if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
        return fail(cudaErrorStreamCaptureUnsupported); // the legacy stream cannot capture
    if (g)
        return fail(cudaErrorIllegalState);
    g = std::make_shared<Graph>();
    g->streams.push_back(stream);
    *last = -1;
    capturing.push_back(g);
    return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    if (!graph)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    int *last;
    GraphRef &g = capture_of(stream, &last);
    if (!g)
        return fail(cudaErrorIllegalState);
    GraphRef done = g;
    int end = *last;
    for (cudaStream_t s : done->streams) // the origin and every stream that forked from it
        capture_of(s, &last) = nullptr;
    capturing.erase(std::find(capturing.begin(), capturing.end(), done));
    *graph = nullptr;
    if (done->invalid)
        return fail(cudaErrorStreamCaptureInvalidated);
    if (!joined(*done, end)) // a stream forked from it whose work the origin did not wait for
        return fail(cudaErrorStreamCaptureUnjoined);
    *graph = new CUgraph_st{done};
    return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    if (!status)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    int *last;
    GraphRef &g = capture_of(stream, &last);
    *status = !g           ? cudaStreamCaptureStatusNone
              : g->invalid ? cudaStreamCaptureStatusInvalidated
                           : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long)
{
    if (!exec || !graph)
        return fail(cudaErrorInvalidValue);
    *exec = new CUgraphExec_st{std::make_shared<Graph>(*graph->graph)};
    return cudaSuccess;
}
// Each node after the nodes it names, the first after the stream's earlier work; the stream's
// later work after them all.
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    if (!exec)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lock(streams_lock());
    int *last;
    if (capture_of(stream, &last))
        return fail(cudaErrorStreamCaptureUnsupported);
    OpRef before = issue(stream, [] {});
    std::vector<OpRef> ops;
    for (const Node &n : exec->graph->nodes) {
        auto op = std::make_shared<Op>();
        op->work = n.work, op->blocking = before->blocking, op->identity = before->identity;
        op->after.push_back(before);
        for (int i : n.after)
            op->after.push_back(ops[i]);
        give(op);
        ops.push_back(op);
    }
    issue(
        stream, [] {}, ops);
    return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    delete exec;
    return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    delete graph;
    return cudaSuccess;
}
}
