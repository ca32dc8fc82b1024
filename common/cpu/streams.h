// What streams.cpp (the device's work, streams and events) and graphs.cpp (stream capture and
// graphs) share: the work in flight, each piece after what it waits for.
#ifndef CUDA_CPU_STREAMS_H
#define CUDA_CPU_STREAMS_H
#include "runtime.h"
#include <memory>
#include <mutex>
#include <vector>

namespace cucc {
// A piece of work given to the device (a launch, a copy, a memset, an event's record, a host
// function) that has not run yet, and what it must wait for.
struct Op {
    Work work;
    std::vector<std::shared_ptr<Op>> after;
    bool done = false;
    bool blocking = true;       // on the legacy stream or a stream that waits for it
    unsigned long long seq = 0; // the order in which the host gave it
    void *identity = nullptr;   // the race checker's: its stream's
    const void *site = nullptr; // where the program gave it (the race checker's reports)
};
using OpRef = std::shared_ptr<Op>;

// A captured graph: its nodes in the order captured, each after the nodes it names.
struct Node {
    Work work;
    std::vector<int> after;
};
struct Graph {
    std::vector<Node> nodes;
    bool invalid = false; // a call that is not allowed while capturing broke the capture
    std::vector<cudaStream_t> streams; // capturing into it: the origin, and those that forked
};
using GraphRef = std::shared_ptr<Graph>;

// The model's lock: host threads may call the runtime together; the work runs under it.
std::recursive_mutex &streams_lock();
// Work on stream s after extra (the ops it also waits for); returns it.
OpRef issue(cudaStream_t s, Work w, const std::vector<OpRef> &extra = {});
void give(const OpRef &op); // work made whole by the caller (a graph's node)
// A stream's capture (null when it captures nothing) and the node it last captured (-1: none).
GraphRef &capture_of(cudaStream_t s, int **last);
bool any_capture();
void invalidate_captures(); // a call that breaks every capture (cudaErrorStreamCaptureImplicit)
} // namespace cucc

struct CUgraph_st {
    cucc::GraphRef graph;
};
struct CUgraphExec_st {
    cucc::GraphRef graph; // instantiated: a copy, which later captures do not change
};
#endif
