// Inside the CPU backend's runtime: the records of kernel execution that the scheduler
// (scheduler.cpp) keeps, the hooks through which it tells the race checker (racecheck.cpp,
// cucc --racecheck) what CUDA orders (in the other builds empty inline functions: nothing of
// them remains), and the few things that the runtime's files need of each other (at the end).
#pragma once
#define CUDA_CPU_RUNTIME // the copies themselves, not the macros that pass their call site
#include "cuda_runtime.h"
#include "cuda_pipeline_primitives.h"
#include "window.h"
#include <boost/context/fiber.hpp>
#include <atomic>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#ifdef CUDA_CPU_RACECHECK
#include <sanitizer/tsan_interface.h>
extern "C" {
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
}
#endif

namespace cucc {
namespace bctx = boost::context;

enum State { FRESH, READY, BAR, WARP, STEP, DONE }; // FRESH: not yet queued
enum Order { FORWARD, REVERSE, RANDOM };            // CUDA_CPU_SCHEDULE
enum StepOp { ACCESS = 100, ACTIVEMASK };           // the ops of a STEP
enum { kMaxThreads = 1024 };
#ifdef CUDA_CPU_RACECHECK
static const int kIdentities = 2; // TSan identities per thread slot: neighbouring blocks differ
#else
static const int kIdentities = 1;
#endif

struct Job {
    Kernel k;
    dim3 grid, block;
    size_t smem;
    Order order;
    unsigned long long seed, nblocks;
    unsigned long long mult, add; // RANDOM: the k-th block picked is (mult k + add) % count
    Window window;                // the blocks that run (CUDA_CPU_WINDOW): all but in tests
    bool strict;
    std::atomic<unsigned long long> next{0};
    std::atomic<bool> failed{false}, warned{false};
    std::atomic<int> races{0}; // race checker: reports in this launch
    char start, end;           // race checker: the launch's tokens, host -> blocks -> host
    cudaError_t error = cudaErrorLaunchFailure; // what the launch returns if it failed
};

struct Worker;
struct Fiber;
struct Thread { // one CUDA thread of the running block
    Worker *w;
    Fiber *fiber; // the stack it runs on, once started
    uint3 tid;
    int id, state, op, arg, width;
    unsigned mask;
    unsigned long long val, res;
    const char *file;
    int line;
    bool fenced;       // race checker: a __threadfence since its last atomic
    unsigned firsts;   // race checker: __syncwarps of this block whose first lane it was
    const char *group; // race checker: the token of the __syncwarp it waits at, or null
    std::vector<AsyncCopy> copies; // __pipeline_memcpy_async's, from copies[done] on not written
    size_t done;
    unsigned long long groups; // __pipeline_commit's so far
};

struct Fiber { // a stack with a context: it runs fresh threads one after another until one blocks
    bctx::fiber ctx; // where it resumes, while switched out
    Worker *w;
    Thread *t; // the thread it runs, null while free (and for the scheduler's own record)
    const char *stack;
    size_t size;
    void *fake; // ASan's fake stack while switched out
    void *tsan; // the race checker's fiber: who TSan thinks runs here
    bool muted; // race checker: its accesses unseen since its launch's first race
};

struct Warp {
    unsigned alive, runnable, coll, step; // lanes: not exited, READY, in a collective, in a step
    unsigned mask;                        // of the lanes in a collective, unless `mixed`
    bool mixed;
    std::unordered_map<const volatile void *, unsigned> seen; // strict mode: volatile words touched
};

struct Worker {
    Fiber sched{}; // the scheduler: the worker thread's own stack
    Thread threads[kMaxThreads];
    Fiber fibers[kMaxThreads * kIdentities];
    int made = 0; // fibers with a stack
    std::vector<Fiber *> free;
    char *stacks = nullptr;
    Warp warps[kMaxThreads / 32];
    Thread *queue[kMaxThreads]; // ring of READY threads
    unsigned head = 0, tail = 0;
    int n = 0, live = 0, atbar = 0;
    unsigned phase = 0;
    dim3 dims{0, 0, 0};
    Job *job = nullptr;
    unsigned char *smem = nullptr;
    size_t smem_size = 0;
    bool failed = false;
    struct Shared {
        void *p;
        size_t size;
        const char *name;
    };
    std::vector<Shared> shared; // static __shared__ variables seen on this worker
    std::unordered_set<const volatile void *> published; // race checker: atomics in this block
    unsigned long long seq = 0;                          // blocks run
    char *tokens = nullptr; // race checker, per block: racecheck.cpp's Token
};

Thread *running(); // the CUDA thread running on this OS thread; null in host code
// Shared memory as each block finds it: poisoned, its history forgotten (scheduler.cpp).
void poison_shared(Worker *w, void *p, size_t size);

// ---- the race checker's hooks (racecheck.cpp)
#ifdef CUDA_CPU_RACECHECK
// The runtime's own work, when a kernel calls it: not the kernel's accesses (the library
// functions it calls, memset and friends, are seen by TSan all the same).
struct Unseen {
    Unseen() { __tsan_ignore_thread_begin(); }
    ~Unseen() { __tsan_ignore_thread_end(); }
};
// A fiber switch, which orders nothing; while switched out, a fiber is not Unseen.
inline void race_switch(Fiber *to)
{
    __tsan_switch_to_fiber(to->tsan, __tsan_switch_to_fiber_no_sync);
}
inline void race_switch_out()
{
    __tsan_ignore_thread_end();
}
inline void race_switch_in()
{
    __tsan_ignore_thread_begin();
}
void race_fiber_made(Fiber *f);             // a fresh identity for a fresh stack
void race_worker_made(Worker *w);           // the scheduler's identity: the worker thread's
void race_launch_starts(Job &j);            // the host's work so far happens before the blocks
void race_launch_ends(Job &j);              // the blocks' work happens before the host's next
void race_worker_starts(Worker *w, Job &j); // a worker takes in the launching fiber's work
// Streams (streams.cpp): the host gives a piece of work (op_given); it runs as its stream's
// identity, after what it waits for (op_runs, from the host's identity, and back: op_ran);
// a synchronising call takes in what it waited for (host_waits); a copy or memset says which
// bytes it reads and writes, and where the program asked for it (bytes, op_site).
void *race_stream_identity();
void race_op_given(const void *op);
void race_op_runs(const void *op, void *identity, const void *site,
                  const std::vector<const void *> &after);
void race_op_ran(const void *op);
void race_host_waits(const void *op);
void race_bytes(const void *p, size_t size, bool write);
void race_block_starts(Worker *w);              // no order passes from one block to the next
bool race_thread_begins(Thread *t);             // false: the launch has raced already, stop
void race_thread_ends(Thread *t);               // what it did happens before the launch's end
void race_forget(void *p, size_t size);         // memory that no thread has touched yet
void race_abandoned(Worker *w, Fiber *f);       // a thread left inside its failed block
void race_barrier(Thread *t, bool arriving);    // __syncthreads: all before it, before all after
void race_collective(Thread *t, bool arriving); // a lane at a warp collective
void race_group_meets(Worker *w, Thread *lanes, unsigned need); // lanes `need` complete one
#else
struct Unseen {
    Unseen() {} // user-provided: no unused-variable warning where it does nothing
};
inline void race_switch(Fiber *) {}
inline void race_switch_out() {}
inline void race_switch_in() {}
inline void race_fiber_made(Fiber *) {}
inline void race_worker_made(Worker *) {}
inline void race_launch_starts(Job &) {}
inline void race_launch_ends(Job &) {}
inline void race_worker_starts(Worker *, Job &) {}
inline void *race_stream_identity()
{
    return nullptr;
}
inline void race_op_given(const void *) {}
inline void race_op_runs(const void *, void *, const void *, const std::vector<const void *> &) {}
inline void race_op_ran(const void *) {}
inline void race_host_waits(const void *) {}
inline void race_bytes(const void *, size_t, bool) {}
inline void race_block_starts(Worker *) {}
inline bool race_thread_begins(Thread *)
{
    return true;
}
inline void race_thread_ends(Thread *) {}
inline void race_forget(void *, size_t) {}
inline void race_abandoned(Worker *, Fiber *) {}
inline void race_barrier(Thread *, bool) {}
inline void race_collective(Thread *, bool) {}
inline void race_group_meets(Worker *, Thread *, unsigned) {}
#endif

// ---- between the runtime's files: launch.cpp (launches), scheduler.cpp (blocks on fibers,
// barriers, warps), diagnose.cpp (what a failing block reports), memory.cpp, device.cpp (the
// virtual device), streams.cpp (streams, events, errors), texture.cpp, window.cpp (window.h).
// Each thing here is defined in one of them and used in another; the rest stays static.

// Fresh allocations (memory.cpp) and shared memory as each block finds it (scheduler.cpp):
// NaN as float, -1 as int.
enum { kPoison = 0xff };
// Shared memory per block, and the most cudaFuncSetAttribute allows: the device says it
// (device.cpp), launches are held to it (launch.cpp).
static const size_t kSmemPerBlock = 48 << 10, kSmemOptin = 96 << 10;

// The environment (device.cpp), which shapes both the device it describes and the launches:
// CUDA_CPU_STRICT=1 (the grader's): what CUDA leaves undefined but lets run is an error
// (launches, copies); CUDA_CPU_WORKERS; gridDim.y and .z's limit (CUDA_CPU_MAX_GRID_YZ).
bool strict_mode();
int workers();
unsigned grid_yz_limit();

// Errors (streams.cpp): an error kept for the next cudaGetLastError (fail), a kernel's failure
// kept for the next synchronising call too (launch_failed, from launch.cpp), and what such a
// call reports (sync_point: memory.cpp's and texture.cpp's copies, streams, events).
cudaError_t fail(cudaError_t e);
cudaError_t sync_point();
void launch_failed(cudaError_t e);
void forget_errors(); // cudaDeviceReset's

// The device's work (streams.cpp): the host does not wait for a launch, an async copy or a
// memset; each runs when a synchronising call needs it, after what its stream gave before it
// (and, on the legacy stream, after the work of every blocking stream), in an order drawn from
// CUDA_CPU_SCHEDULE's seed among those that may run. submit gives w to stream s (0: the legacy
// stream), or to the graph s captures; sync: it returns once w has run, with sync_point(), as
// cudaMemcpy does. settle_all runs everything given (cudaDeviceSynchronize's, cudaFree's).
// called_from: the program's code that called the API (its return address), for the work the
// call gives.
using Work = std::function<void()>;
cudaError_t submit(cudaStream_t s, Work w, bool sync);
void called_from(const void *pc);
cudaError_t settle_all();

// Copies (memory.cpp; texture.cpp's to and from arrays too): where the program called one (the
// macros of cuda_runtime_api.h say it just before), and a copy of height rows of width bytes,
// each pitch bytes after the one before (1D: one row), checked against the kind the program
// named.
struct Site {
    const char *file;
    int line;
};
Site take_site();
cudaError_t copy(Site at, const char *api, void *dst, size_t dpitch, const void *src, size_t spitch,
                 size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream, bool sync);

// The launch (launch.cpp) to the scheduler (scheduler.cpp), on each worker: run the launch's
// blocks until none is left or one fails.
void work(Job &j);

// What a failing block reports (diagnose.cpp), for the scheduler: an error that fails the
// launch (report), what CUDA leaves undefined (undefined: a warning once per launch, an error
// when strict), the threads that wait and where (who_waits), those that have returned
// (who_returned), a collective whose mask names lanes that are not there (missing_lanes).
void report(Worker *w, const char *what, const std::string &why);
void undefined(Worker *w, const char *what, const std::string &why);
std::string who_waits(Worker *w);
std::string who_returned(Worker *w);
void missing_lanes(Thread *t, unsigned lanes);
} // namespace cucc
