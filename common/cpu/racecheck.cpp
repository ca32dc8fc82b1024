// The race checker (cucc --racecheck): kernels built with ThreadSanitizer, each CUDA thread a
// TSan fiber, switched without synchronising; the runtime itself is not instrumented, so that
// only the kernels' accesses count, and it tells TSan the orderings CUDA gives, through the
// hooks of runtime.h, on tokens (TSan's release and acquire on an address). Only the race
// checker's runtime (runtime-tsan) has it: the other flavours compile this file empty.
#ifdef CUDA_CPU_RACECHECK
#include "runtime.h"
#include <string.h>

extern "C" {
void __tsan_java_alloc(unsigned long ptr, unsigned long size);
void __tsan_java_free(unsigned long ptr, unsigned long size);
void __tsan_func_entry(void *call_pc);
void __tsan_func_exit(void);
void __tsan_read_range(void *addr, unsigned long size);
int __tsan_get_report_data(void *report, const char **description, int *count, int *stack_count,
                           int *mop_count, int *loc_count, int *mutex_count, int *thread_count,
                           int *unique_tid_count, void **sleep_trace, unsigned long trace_size);
void __tsan_write_range(void *addr, unsigned long size);
int __tsan_get_report_mop(void *report, unsigned long idx, int *tid, void **addr, int *size,
                          int *write, int *atomic, void **trace, unsigned long trace_size);
int __tsan_get_report_loc(void *report, unsigned long idx, const char **type, void **addr,
                          unsigned long *start, unsigned long *size, int *tid, int *fd,
                          int *suppressable, void **trace, unsigned long trace_size);
}

// Races between atomics and plain accesses too: TSan sees only the atomics of shared memory
// (atomic_seen). Each launch reports its races, even those an earlier launch had. No second's
// sleep at exit (for other threads' reports: ours are fibers, already reported), which would
// double the time of a test that the grader runs in a process of its own.
extern "C" const char *__tsan_default_options()
{
    return "report_atomic_races=1:suppress_equal_stacks=0:suppress_equal_addresses=0:"
           "atexit_sleep_ms=0";
}

namespace cucc {
// The tokens of a block, fresh at each block: its start; its barriers, by the parity of their
// phase, so that a thread leaving one takes in what came before it and not what faster threads
// did after it (the next barrier of the same parity waits for all of them); per thread, its
// arrival at a __syncwarp; per thread and parity, the __syncwarps whose first lane it is.
enum Token {
    BLOCK_START,
    BARRIER,
    ARRIVAL = BARRIER + 2,
    GROUP = ARRIVAL + kMaxThreads,
    TOKENS = GROUP + 2 * kMaxThreads
};

static void hb_release(const volatile void *token)
{
    __tsan_release(const_cast<void *>(token));
}
static void hb_acquire(const volatile void *token)
{
    __tsan_acquire(const_cast<void *>(token));
}

// The race checker names a CUDA thread by a frame it pushes on TSan's stack, at an address
// that encodes its block and thread: reports then tell both accesses' threads apart.
static const unsigned long long kFakeFrames = 1ull << 44;
static void *thread_frame(unsigned long long block, int thread)
{
    return (void *)(kFakeFrames + ((block << 10 | (unsigned long long)thread) << 4));
}

void race_fiber_made(Fiber *f)
{
    if (f->tsan) // abandoned inside a kernel: a fresh identity, with an empty stack
        __tsan_destroy_fiber(f->tsan);
    f->tsan = __tsan_create_fiber(0);
    f->muted = false;
}

void race_worker_made(Worker *w)
{
    w->sched.tsan = __tsan_get_current_fiber();
}

void race_launch_starts(Job &j)
{
    hb_release(&j.start);
}

void race_launch_ends(Job &j)
{
    hb_acquire(&j.end);
}

// Its blocks' threads return to the fiber the launch runs on: a stream's identity (below).
void race_worker_starts(Worker *w, Job &j)
{
    w->sched.tsan = __tsan_get_current_fiber();
    hb_acquire(&j.start);
}

// ---- streams: each stream's work runs as an identity of its own (a TSan fiber), ordered
// after the host's work before it was given and the work it waits for, and before what the
// host does after a synchronising call that waited for it. Between streams, and between a
// stream and the host, nothing else orders: a kernel that reads what another stream's copy
// writes with no event between, or a host that reads what a copy writes before waiting for
// it, races. An op's tokens: its address (given) and the next byte (done).
static thread_local void *host_identity;
static thread_local const void *running_op;

void *race_stream_identity()
{
    return __tsan_create_fiber(0);
}
void race_op_given(const void *op)
{
    hb_release(op);
}
void race_op_runs(const void *op, void *identity, const void *site,
                  const std::vector<const void *> &after)
{
    host_identity = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(identity, __tsan_switch_to_fiber_no_sync);
    hb_acquire(op);
    for (const void *a : after)
        hb_acquire((const char *)a + 1);
    running_op = op;
    __tsan_func_entry(const_cast<void *>(site)); // the call that gave it, for the report
    __tsan_ignore_thread_begin(); // the runtime's own work: only race_bytes and kernels count
}
void race_op_ran(const void *op)
{
    __tsan_ignore_thread_end();
    __tsan_func_exit();
    running_op = nullptr;
    hb_release((const char *)op + 1);
    __tsan_switch_to_fiber(host_identity, __tsan_switch_to_fiber_no_sync);
}
void race_host_waits(const void *op)
{
    hb_acquire((const char *)op + 1);
}
void race_bytes(const void *p, size_t size, bool write)
{
    __tsan_ignore_thread_end();
    if (write)
        __tsan_write_range(const_cast<void *>(p), size);
    else
        __tsan_read_range(const_cast<void *>(p), size);
    __tsan_ignore_thread_begin();
}

void race_block_starts(Worker *w)
{
    free(w->tokens); // fresh tokens: no order passes from one block to the next
    w->tokens = (char *)malloc(TOKENS);
    w->published.clear();
    for (int i = 0; i < w->n; i++)
        w->threads[i].firsts = 0, w->threads[i].group = nullptr;
    hb_release(&w->tokens[BLOCK_START]);
}

// A CUDA thread starts: it sees what the block's start saw (the launch, the poisoned shared
// memory), and nothing of the blocks before. False: the launch has raced already, and stops
// here (each further report costs TSan many milliseconds).
bool race_thread_begins(Thread *t)
{
    if (t->fiber->muted) { // its last thread raced: this one is seen again
        __tsan_ignore_thread_end();
        t->fiber->muted = false;
    }
    if (t->w->job->races) {
        t->w->failed = true;
        return false;
    }
    hb_acquire(&t->w->tokens[BLOCK_START]);
    unsigned long long b =
        blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    __tsan_func_entry(thread_frame(b, t->id));
    return true;
}

void race_thread_ends(Thread *t)
{
    __tsan_func_exit();
    hb_release(&t->w->job->end);
}

// TSan has no call to forget a range's history; its Java interface's free and alloc do it
// (whole 8-byte cells: a neighbour's history may go too, never a race of this block's).
void race_forget(void *p, size_t size)
{
    unsigned long a = (unsigned long)p & ~7ul, e = ((unsigned long)p + size + 7) & ~7ul;
    if (e > a) {
        __tsan_java_free(a, e - a);
        __tsan_java_alloc(a, e - a);
    }
}

// What the thread did happens before the launch's end, as if it had finished (the race
// checker acts as its fiber for that).
void race_abandoned(Worker *w, Fiber *f)
{
    __tsan_switch_to_fiber(f->tsan, __tsan_switch_to_fiber_no_sync);
    if (f->muted) { // TSan fails a fiber destroyed while its accesses go unseen
        __tsan_ignore_thread_end();
        f->muted = false;
    }
    hb_release(&w->job->end);
    __tsan_switch_to_fiber(w->sched.tsan, __tsan_switch_to_fiber_no_sync);
}

// The barrier a thread leaves is the one before the block's current phase.
void race_barrier(Thread *t, bool arriving)
{
    const char *token = &t->w->tokens[BARRIER + ((t->w->phase - !arriving) & 1)];
    if (arriving)
        hb_release(token);
    else
        hb_acquire(token);
}

// Of the warp's collectives only __syncwarp (and a tile's sync, which is one) orders memory: the
// shuffles, votes and matches "do not imply a memory barrier" (CUDA's programming guide).
void race_collective(Thread *t, bool arriving)
{
    if (arriving && t->op == SYNCWARP)
        hb_release(&t->w->tokens[ARRIVAL + t->id]);
    else if (!arriving && t->group)
        hb_acquire(t->group);
}

// What each lane of a __syncwarp did before arriving happens before what each does after it,
// and nothing that a lane does after it happens before another lane leaves it: the lanes meet on
// a token of this instance, the first lane's of its parity (before that lane can complete its
// second __syncwarp after this one, every lane of this one has run and taken it in: the queue
// of ready threads is first in, first out). The thread completing it may be a lane that exits:
// the first lane's identity does the work.
void race_group_meets(Worker *w, Thread *lanes, unsigned need)
{
    Thread *first = &lanes[__builtin_ctz(need)];
    if (first->op != SYNCWARP) {
        for (unsigned m = need; m; m &= m - 1)
            lanes[__builtin_ctz(m)].group = nullptr;
        return;
    }
    void *was = __tsan_get_current_fiber();
    if (was != first->fiber->tsan)
        __tsan_switch_to_fiber(first->fiber->tsan, __tsan_switch_to_fiber_no_sync);
    for (unsigned m = need; m; m &= m - 1)
        hb_acquire(&w->tokens[ARRIVAL + lanes[__builtin_ctz(m)].id]);
    const char *group = &w->tokens[GROUP + 2 * first->id + (first->firsts++ & 1)];
    hb_release(group);
    for (unsigned m = need; m; m &= m - 1)
        lanes[__builtin_ctz(m)].group = group;
    if (was != first->fiber->tsan)
        __tsan_switch_to_fiber(was, __tsan_switch_to_fiber_no_sync);
}

// ---- what device code calls (cuda_runtime.h, under __SANITIZE_THREAD__)
// A static __shared__ variable, registered when a thread first passes its declaration (a
// static object's guard, written by one fiber and read by the others, would look like a race).
void shared_variable(const volatile void *p, size_t size, const char *name)
{
    Unseen unseen;
    Thread *t = running();
    if (!t)
        return;
    for (const auto &s : t->w->shared)
        if (s.p == p)
            return;
    t->w->shared.push_back({const_cast<void *>(p), size, name});
    poison_shared(t->w, const_cast<void *>(p), size);
}

// The static __shared__ variable at p, if it is one.
static const Worker::Shared *static_shared(Worker *w, const volatile void *p)
{
    for (const auto &s : w->shared)
        if ((const char *)p >= (char *)s.p && (const char *)p < (char *)s.p + s.size)
            return &s;
    return nullptr;
}

static bool in_dynamic_shared(Worker *w, const volatile void *p)
{
    return w->smem && (const char *)p >= (char *)w->smem &&
           (const char *)p < (char *)w->smem + w->smem_size;
}

bool atomic_seen(const volatile void *p)
{
    Unseen unseen;
    Thread *t = running();
    if (!t)
        return false;
    if (t->fenced) // fence, then atomic: what the thread wrote is published through p
        hb_release(p), t->fenced = false;
    t->w->published.insert(p);
    return in_dynamic_shared(t->w, p) || static_shared(t->w, p);
}

void fence()
{
    Unseen unseen;
    Thread *t = running();
    if (!t)
        return;
    for (const volatile void *p : t->w->published) // atomic, then fence: take in what came
        hb_acquire(p);
    t->fenced = true;
}

// ---- the race checker's report: one line in the backend's words, before TSan's own
static bool is_thread_frame(void *pc) // thread_frame's range (programs and libraries: above)
{
    unsigned long long v = (unsigned long long)pc;
    return v >= kFakeFrames - 16 && v < kFakeFrames + (1ull << 42);
}

static std::string source_line(void **trace, int frames)
{
    char buf[1024];
    for (int i = 0; i < frames && trace[i]; i++) { // the first frame in the program's code
        if (is_thread_frame(trace[i]))
            break;
        __sanitizer_symbolize_pc(trace[i], "%s:%l", buf, sizeof buf - 1);
        buf[sizeof buf - 1] = 0;
        // one frame per function inlined at that address, innermost first, each ended by a
        // 0 and the last by two
        for (char *f = buf; *f && f < buf + sizeof buf - 1; f += strlen(f) + 1)
            if (!strstr(f, "common/cpu/") && !strstr(f, "common/gpu.cu") &&
                !strstr(f, "libsanitizer") && strstr(f, ":"))
                return f;
    }
    return "an unknown line";
}

static std::string which_thread(void **trace, int frames, const Job &j)
{
    for (int i = 0; i < frames && trace[i]; i++) {
        if (!is_thread_frame(trace[i]))
            continue;
        unsigned long long k = ((unsigned long long)trace[i] - kFakeFrames + 8) >> 4, b = k >> 10;
        unsigned id = (unsigned)(k & 1023);
        char s[128];
        snprintf(s, sizeof s, "thread (%u,%u,%u) of block (%llu,%llu,%llu)", id % j.block.x,
                 id / j.block.x % j.block.y, id / j.block.x / j.block.y, b % j.grid.x,
                 b / j.grid.x % j.grid.y, b / j.grid.x / j.grid.y);
        return s;
    }
    // no CUDA thread's frame: the host, or a stream's copy (or TSan lost the history)
    return frames > 0 && trace[0] ? "the host (or a copy in a stream)"
                                  : "a thread whose history is lost";
}

// How many locations TSan's report describes (none for memory it knows nothing of).
static int locations(void *report)
{
    const char *description;
    int count, stacks, mops, locs, mutexes, threads, unique_tids;
    void *sleep_trace[1];
    if (!__tsan_get_report_data(report, &description, &count, &stacks, &mops, &locs, &mutexes,
                                &threads, &unique_tids, sleep_trace, 1))
        return 0;
    return locs;
}

static std::string what_memory(Worker *w, void *report, void *addr)
{
    const char *type = "";
    void *trace[32] = {}, *a;
    unsigned long start = 0, size = 0;
    int tid, fd, suppressable;
    char *p = (char *)addr;
    if (w && in_dynamic_shared(w, p)) // (no worker: a race outside kernels)
        return "dynamic shared memory (extern __shared__), byte " +
               std::to_string(p - (char *)w->smem);
    if (const Worker::Shared *s = w ? static_shared(w, p) : nullptr)
        return std::string("__shared__ ") + s->name + ", byte " + std::to_string(p - (char *)s->p);
    if (locations(report) &&
        __tsan_get_report_loc(report, 0, &type, &a, &start, &size, &tid, &fd, &suppressable, trace,
                              32) &&
        !strcmp(type, "heap"))
        return "a buffer of " + std::to_string(size) + " bytes allocated at " +
               source_line(trace, 32) + ", byte " + std::to_string(p - (char *)start);
    return std::string("memory (") + type + ")";
}
} // namespace cucc

namespace cucc {
// A race outside kernels: between a stream's copy or memset and the host, or another stream.
// One line, then the synchronising call that ran the stream's work fails (or the next one).
static bool stream_race(void *report, bool in_stream, void *addr, int size, int write, void **now)
{
    void *before[32] = {}, *addr2;
    int tid, size2, write2, atomic2;
    std::string earlier = "another stream's work or the host";
    if (__tsan_get_report_mop(report, 1, &tid, &addr2, &size2, &write2, &atomic2, before, 32))
        earlier +=
            std::string(write2 ? " wrote" : " read") + " there at " + source_line(before, 32);
    fprintf(stderr,
            "cuda-cpu: race %s: %s %s %d bytes at %s, and before that %s, with nothing between "
            "that orders them (the host's wait for the stream, an event one stream records and "
            "the other waits for, or the device's synchronize); the memory: %s\n",
            in_stream ? "between streams or with the host" : "between the host and a stream",
            in_stream ? "a stream's work given" : "the host", write ? "writes" : "reads", size,
            source_line(now, 32).c_str(), earlier.c_str(),
            what_memory(nullptr, report, addr).c_str());
    launch_failed(cudaErrorLaunchFailure);
    return true;
}
} // namespace cucc

// TSan calls this for each report, before printing it: a race in a kernel is told in the
// backend's words instead (the first of each launch; race_launch_ends counts the rest) and
// fails the launch. Races outside kernels get TSan's own report.
namespace __tsan {
struct ReportDesc;
bool OnReport(const ReportDesc *rep, bool suppressed)
{
    using namespace cucc;
    Thread *t = running();
    void *report = (void *)rep, *now[32] = {}, *before[32] = {}, *addr, *addr2;
    int tid, size, size2, write, write2, atomic, atomic2;
    if (suppressed ||
        !__tsan_get_report_mop(report, 0, &tid, &addr, &size, &write, &atomic, now, 32))
        return suppressed;
    if (!t)
        return stream_race(report, running_op != nullptr, addr, size, write, now);
    Job &j = *t->w->job;
    if (j.races++)
        return true;
    // The launch fails at its first race: its block stops at its threads' next switch, and
    // this thread's accesses go unseen meanwhile (each further report costs TSan tens of
    // milliseconds, reading /proc/self/maps: thousands of them made a test take minutes).
    t->w->failed = true;
    t->fiber->muted = true;
    __tsan_ignore_thread_begin();
    std::string earlier = "and before that, ";
    if (__tsan_get_report_mop(report, 1, &tid, &addr2, &size2, &write2, &atomic2, before, 32))
        earlier += which_thread(before, 32, j) + (write2 ? " wrote" : " read") + " there" +
                   (atomic2 ? " with an atomic" : "") + " at " + source_line(before, 32);
    else
        earlier += "another thread touched it";
    fprintf(stderr,
            "cuda-cpu: race in kernel %s (launched at %s:%d): %s %s %d bytes%s at %s, %s, with "
            "nothing between that orders them (a barrier, a warp's sync, a fence with an atomic); "
            "the memory: %s\n",
            j.k.name, j.k.file, j.k.line, which_thread(now, 32, j).c_str(),
            write ? "writes" : "reads", size, atomic ? " with an atomic" : "",
            source_line(now, 32).c_str(), earlier.c_str(), what_memory(t->w, report, addr).c_str());
    return true;
}
} // namespace __tsan
#endif
