// Runtime of the CPU backend: the CUDA runtime API over host memory, and the execution of
// kernels. Each thread of a block is a fiber (boost::context::fiber); a worker runs one
// block at a time, switching fibers at barriers, warp collectives and volatile accesses.
// Everything runs synchronously on the calling thread (and CUDA_CPU_WORKERS-1 helpers), so
// streams are trivially in order and events see real elapsed times. The race checker's part
// is racecheck.cpp, which the runtime calls through the hooks of runtime.h.
#include "runtime.h"
#include "cuda_cpu.h"
#include <assert.h>
#include <boost/context/fiber.hpp>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <numeric>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#ifdef __SANITIZE_ADDRESS__
// ASan keeps SIGSEGV to itself, so that a test framework's handler (cmocka's) does not turn a
// wild write into "Segmentation fault" with no line. Leaks of host memory are not what a
// kernel lab is about, and LeakSanitizer fails in containers without ptrace. An allocation
// too large fails as it does without ASan (NULL, then the program's own "out of memory"),
// not with a report of the sanitizer's. Stack use after return (on by default from gcc 13's
// runtime) costs the fibers' every call a heap frame: 3x here, 9x on Ubuntu 24.04's g++ 13,
// for a bug of host C no lab is about. ASAN_OPTIONS, when set, comes after these and wins.
extern "C" const char *__asan_default_options()
{
    return "detect_leaks=0:allow_user_segv_handler=0:allocator_may_return_null=1:"
           "detect_stack_use_after_return=0";
}
#endif

__thread uint3 threadIdx, blockIdx;
__thread dim3 blockDim, gridDim;

namespace cucc {
__thread unsigned char *dynamic_smem;

// ---------------------------------------------------------------------------------------------
// Errors. A kernel failure is reported by the launch (cudaGetLastError) and by the next
// synchronising call, whichever asks first. Unlike a GPU's, it is not sticky: the next test runs.
static thread_local cudaError_t last_error, async_error;

cudaError_t fail(cudaError_t e)
{
    if (e)
        last_error = e;
    return e;
}
cudaError_t sync_point()
{
    cudaError_t e = async_error;
    async_error = cudaSuccess;
    if (last_error == e)
        last_error = cudaSuccess;
    return e;
}

// ---------------------------------------------------------------------------------------------
// The virtual device.
enum { kPoison = 0xff }; // fresh allocations and dynamic shared memory: NaN as float, -1 as int
static const size_t kSmemPerBlock = 48 << 10, kSmemOptin = 96 << 10;
static size_t smem_optin = kSmemPerBlock; // raised by cudaFuncSetAttribute, for every kernel

// CUDA_CPU_STRICT=1 (the grader's): what CUDA leaves undefined but lets run is an error.
static bool strict_mode()
{
    const char *s = getenv("CUDA_CPU_STRICT");
    return s && *s && strcmp(s, "0");
}

static int workers()
{
    const char *s = getenv("CUDA_CPU_WORKERS");
    int n = s ? atoi(s) : 1;
    return n < 1 ? 1 : n > 256 ? 256 : n;
}

// gridDim.y and gridDim.z reach 65535 on a GPU; CUDA_CPU_MAX_GRID_YZ=N (read each time, so a
// test can setenv it) makes it N here, so that a test folds grids at sizes run in seconds.
static unsigned grid_yz_limit()
{
    const char *s = getenv("CUDA_CPU_MAX_GRID_YZ");
    long n = s ? atol(s) : 65535;
    return n < 1 ? 1 : n > 65535 ? 65535 : (unsigned)n;
}

// CUDA_CPU_SMS=N: the SMs the device reports (default: one per worker), so that a test can
// have the grids that code sizes to the device be a GPU's, whatever runs their blocks, or
// (up to 2^24 SMs) cover 2^32 elements in one pass, which CUDA_CPU_WINDOW then cuts down.
static int sms()
{
    const char *s = getenv("CUDA_CPU_SMS");
    long n = s ? atol(s) : 0;
    return n < 1 ? workers() : (int)std::min(n, 1L << 24);
}

static cudaDeviceProp properties()
{
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    int w = workers();
    snprintf(p.name, sizeof p.name, "CPU backend (%d worker%s)", w, w > 1 ? "s" : "");
    p.totalGlobalMem = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    p.sharedMemPerBlock = kSmemPerBlock;
    p.sharedMemPerBlockOptin = kSmemOptin;
    p.sharedMemPerMultiprocessor = kSmemOptin;
    p.regsPerBlock = p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.memPitch = INT32_MAX;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = INT32_MAX, p.maxGridSize[1] = p.maxGridSize[2] = (int)grid_yz_limit();
    p.totalConstMem = 65536;
    // The warp semantics implemented: _sync collectives, independent lanes.
    p.major = 7;
    p.minor = 0;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.maxTexture1D = p.maxTexture2D[0] = 1 << 17; // an H100's
    p.maxTexture2D[1] = 1 << 16;
    p.multiProcessorCount = sms();
    p.maxThreadsPerMultiProcessor = 2048;
    p.maxBlocksPerMultiProcessor = 32;
    p.integrated = p.canMapHostMemory = p.unifiedAddressing = p.managedMemory = 1;
    p.pageableMemoryAccess = p.concurrentManagedAccess = 1;
    // Nominal dual-channel DDR4-3200, not measured: the backend has no timing model.
    p.memoryBusWidth = 128;
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    p.l2CacheSize = l2 > 0 ? (int)l2 : 1 << 20;
    return p;
}
static const int kMemoryClockKHz = 1600000;

// ---------------------------------------------------------------------------------------------
// Execution.
#ifdef __SANITIZE_ADDRESS__
static const size_t kStack = 256 << 10; // ASan's frames are larger
#else
static const size_t kStack = 64 << 10;
#endif
static const size_t kGuard = 4096;

static __thread Thread *cur;    // the running CUDA thread; null in host code
static __thread Fiber *leaving; // the fiber switching out: the one switched to keeps its context

Thread *running()
{
    return cur;
}

// Inlined, as wait() is: a switch ends in a jump, not a return, which leaves the CPU's return
// predictions a call off; each call level between the kernel and it costs a mispredicted return.
static inline __attribute__((always_inline)) void switch_to(Fiber *from, Fiber *to)
{
    if (to != from) {
        leaving = from;
        race_switch(to);
#ifdef __SANITIZE_ADDRESS__
        __sanitizer_start_switch_fiber(&from->fake, to->stack, to->size);
#endif
        bctx::fiber back = std::move(to->ctx).resume();
        leaving->ctx = std::move(back);
#ifdef __SANITIZE_ADDRESS__
        __sanitizer_finish_switch_fiber(from->fake, nullptr, nullptr);
#endif
    }
    cur = from->t;
    if (cur)
        threadIdx = cur->tid;
}

// The fiber to run next: the one of the thread at the head of the queue (a free one if that
// thread is fresh), or the scheduler when the queue is empty or the block failed.
static Fiber *pick(Worker *w)
{
    if (w->failed || w->head == w->tail)
        return &w->sched;
    Thread *t = w->queue[w->head++ % kMaxThreads];
    if (!t->fiber && kIdentities > 1) { // a fiber (stack, TSan identity) of its own
        t->fiber = &w->fibers[w->seq % kIdentities * w->n + t->id];
        t->fiber->t = t;
    } else if (!t->fiber) {
        t->fiber = w->free.back();
        w->free.pop_back();
        t->fiber->t = t;
    }
    return t->fiber;
}

static void exit_thread(Fiber *f);
static bctx::fiber fiber_main(Fiber *f, bctx::fiber &&back)
{
    leaving->ctx = std::move(back);
#ifdef __SANITIZE_ADDRESS__
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
    cur = f->t;
    threadIdx = cur->tid;
    for (;;) {
        f->t->fenced = false;
        if (race_thread_begins(f->t)) {
            f->w->job->k.invoke(f->w->job->k.fn, f->w->job->k.args);
            race_thread_ends(f->t);
        }
        exit_thread(f); // returns with the next thread to run on this fiber
    }
}

struct OwnStack { // the runtime owns the stacks (guard pages, staggered tops): a fiber frees none
    void deallocate(bctx::stack_context &) noexcept {}
};

static void make_fiber(Fiber *f)
{
#ifdef __SANITIZE_ADDRESS__
    __asan_unpoison_memory_region(f->stack, f->size); // an abandoned run may have left redzones
#endif
    bctx::stack_context
        sc; // fiber keeps its record (the function) at the top, the thread runs below
    sc.sp = (char *)f->stack + f->size, sc.size = f->size;
    // Built over an abandoned context without destroying it: fiber's destructor would unwind the
    // kernel's frames left on the stack, which must never run again.
    new (&f->ctx)
        bctx::fiber(std::allocator_arg, bctx::preallocated(sc.sp, sc.size, sc), OwnStack(),
                    [f](bctx::fiber &&back) { return fiber_main(f, std::move(back)); });
    race_fiber_made(f);
}

static Warp &warp_of(Thread *t)
{
    return t->w->warps[t->id >> 5];
}
static unsigned bit_of(Thread *t)
{
    return 1u << (t->id & 31);
}

static void ready(Thread *t)
{
    Worker *w = t->w;
    t->state = READY;
    warp_of(t).runnable |= bit_of(t);
    w->queue[w->tail++ % kMaxThreads] = t;
}
static void block_on(Thread *t, int state)
{
    t->state = state;
    warp_of(t).runnable &= ~bit_of(t);
}

// Wake the threads waiting in `state`, in the schedule's order.
static void wake_all(Worker *w, int state)
{
    int n = w->n, order = w->job->order;
    int perm[kMaxThreads];
    for (int i = 0; i < n; i++)
        perm[i] = order == REVERSE ? n - 1 - i : i;
    if (order == RANDOM) { // a permutation per block and phase, the same whatever the workers
        unsigned long long b =
            blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
        unsigned long long s = (w->job->seed + 1) * 0x9e3779b97f4a7c15ull ^ (b << 20) ^ w->phase;
        for (int i = n - 1; i > 0; i--) {
            s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
            std::swap(perm[i],
                      perm[(s * 0x2545f4914f6cdd1dull >> 33) % (unsigned long long)(i + 1)]);
        }
    }
    for (int i = 0; i < n; i++)
        if (w->threads[perm[i]].state == state)
            ready(&w->threads[perm[i]]);
}

// Release what the lanes of a warp can release: collectives whose lanes have all arrived
// (exited lanes excepted), and volatile steps once no lane of the warp can run further.
// `arrived` is the lane just arrived at a collective: while all waiting lanes give the same
// mask, only its group can have completed.
static void check_warp(Worker *w, Warp &wp, int warp, Thread *arrived = nullptr)
{
    Thread *lanes = &w->threads[warp * 32];
    for (unsigned c = arrived && !wp.mixed ? bit_of(arrived) : wp.coll; c;) {
        Thread &t = lanes[__builtin_ctz(c)];
        unsigned need = (t.mask | bit_of(&t)) & wp.alive;
        c &= c - 1;
        if (need & ~wp.coll)
            continue;
        unsigned ballot = 0;
        for (unsigned m = need; m; m &= m - 1)
            if (lanes[__builtin_ctz(m)].val)
                ballot |= 1u << __builtin_ctz(m);
        for (unsigned m = need; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            Thread &g = lanes[l];
            int width = g.width >= 1 && g.width <= 32 && !(g.width & (g.width - 1)) ? g.width : 32;
            int seg = l & ~(width - 1), src = l;
            switch (g.op) {
            case SHFL:
                src = seg + (int)((unsigned)g.arg % width);
                break;
            case SHFL_UP:
                src = l - g.arg >= seg ? l - g.arg : l;
                break;
            case SHFL_DOWN:
                src = l + g.arg < seg + width ? l + g.arg : l;
                break;
            case SHFL_XOR:
                src = (l ^ g.arg) < seg + width ? l ^ g.arg : l;
                break;
            }
            if (src < 0 || src > 31 || warp * 32 + src >= w->n)
                src = l;
            switch (g.op) {
            case BALLOT:
                g.res = ballot;
                break;
            case ALL:
                g.res = (ballot & need) == need;
                break;
            case ANY:
                g.res = ballot != 0;
                break;
            case MATCH_ANY:
                g.res = 0;
                for (unsigned k = need; k; k &= k - 1)
                    if (lanes[__builtin_ctz(k)].val == g.val)
                        g.res |= 1u << __builtin_ctz(k);
                break;
            default:
                g.res = lanes[src].val;
            }
        }
        wp.coll &= ~need;
        wp.seen.clear(); // the collective synchronises these lanes
        race_group_meets(w, lanes, need);
        for (unsigned m = need; m; m &= m - 1)
            ready(&lanes[__builtin_ctz(m)]);
        c = wp.mixed ? wp.coll : 0;
        wp.mixed &= wp.coll != 0;
    }
    if (wp.step && !wp.runnable) {
        // Volatile accesses go all together. Lanes at __activemask go when no access is left, those
        // at the first line in the file first: lanes that skipped a branch wait there for the lanes
        // in it, as if the warp reconverged after the branch.
        unsigned go = 0, first = 0;
        for (unsigned m = wp.step; m; m &= m - 1) {
            Thread &g = lanes[__builtin_ctz(m)];
            if (g.op == ACCESS)
                go |= 1u << __builtin_ctz(m);
            else if (!first || g.line < lanes[first - 1].line)
                first = __builtin_ctz(m) + 1;
        }
        if (!go)
            for (unsigned m = wp.step; m; m &= m - 1) {
                Thread &g = lanes[__builtin_ctz(m)];
                if (g.line == lanes[first - 1].line && g.file == lanes[first - 1].file)
                    go |= 1u << __builtin_ctz(m);
            }
        wp.step &= ~go;
        for (unsigned m = go; m; m &= m - 1) {
            lanes[__builtin_ctz(m)].res = go;
            ready(&lanes[__builtin_ctz(m)]);
        }
    }
}

// Block the running thread, let others run; back when it is released. Its callers hold an
// Unseen, which the race checker ends while switched out: a fiber abandoned here (its block
// failed) is destroyed without one.
static inline __attribute__((always_inline)) void wait(Thread *t)
{
    race_switch_out();
    switch_to(t->fiber, pick(t->w));
    race_switch_in();
}

static void exit_thread(Fiber *f)
{
    Thread *t = f->t;
    Worker *w = f->w;
    block_on(t, DONE);
    warp_of(t).alive &= ~bit_of(t);
    w->live--;
    check_warp(w, warp_of(t), t->id >> 5);
    Thread *next = w->head != w->tail ? w->queue[w->head % kMaxThreads] : nullptr;
    if (!w->failed && next && !next->fiber && kIdentities == 1) { // a fresh thread: run it here
        w->head++;
        next->fiber = f;
        f->t = cur = next;
        threadIdx = next->tid;
        return; // fiber_main starts it
    }
    f->t = nullptr;
    if (kIdentities == 1)
        w->free.push_back(f);
    switch_to(f, pick(w));
}

// ---- diagnostics: "threads 0-15,32 wait at __syncthreads at f.cu:12; threads 16-31 ..."
static const char *wait_name(const Thread &t)
{
    static const char *warp_ops[] = {"__syncwarp",       "__shfl_sync",     "__shfl_up_sync",
                                     "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                                     "__all_sync",       "__any_sync",      "__match_any_sync"};
    switch (t.state) {
    case BAR:
        return "__syncthreads";
    case WARP:
        return warp_ops[t.op];
    case STEP:
        return t.op == ACTIVEMASK ? "__activemask" : "a volatile access";
    }
    return "?";
}

static std::string ranges(const std::vector<int> &ids)
{
    std::string s;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            j++;
        s += (s.empty() ? "" : ",") + std::to_string(ids[i]) +
             (j > i ? "-" + std::to_string(ids[j]) : "");
        i = j + 1;
    }
    return s;
}

static std::string who_waits(Worker *w)
{
    std::vector<const Thread *>
        sites; // one thread per distinct (wait, file, line), in thread order
    std::vector<std::vector<int>> ids;
    for (int i = 0; i < w->n; i++) {
        const Thread &t = w->threads[i];
        if (t.state == DONE || t.state == READY)
            continue;
        size_t k = 0;
        while (k < sites.size() && !(sites[k]->state == t.state && sites[k]->op == t.op &&
                                     sites[k]->line == t.line && !strcmp(sites[k]->file, t.file)))
            k++;
        if (k == sites.size())
            sites.push_back(&t), ids.emplace_back();
        ids[k].push_back(i);
    }
    std::string s;
    for (size_t k = 0; k < sites.size(); k++)
        s += std::string(k ? "; " : "") + "threads " + ranges(ids[k]) + " wait at " +
             wait_name(*sites[k]) + " at " + sites[k]->file + ":" + std::to_string(sites[k]->line);
    return s;
}

static void report(Worker *w, const char *what, const std::string &why)
{
    const Kernel &k = w->job->k;
    w->failed = true;
    if (w->job->failed.exchange(true))
        return; // one line per launch, whatever the workers
    fprintf(stderr, "cuda-cpu: %s in kernel %s (launched at %s:%d), block (%u,%u,%u): %s\n", what,
            k.name, k.file, k.line, blockIdx.x, blockIdx.y, blockIdx.z, why.c_str());
}

// What CUDA leaves undefined but lets run: a warning, once per launch, or with
// CUDA_CPU_STRICT=1 (as the grader runs) an error that fails the launch.
static void undefined(Worker *w, const char *what, const std::string &why)
{
    if (w->job->strict)
        return report(w, what, why + " (an error under CUDA_CPU_STRICT=1)");
    if (w->job->warned.exchange(true))
        return;
    const Kernel &k = w->job->k;
    fprintf(stderr,
            "cuda-cpu: warning: %s in kernel %s (launched at %s:%d), block (%u,%u,%u): %s\n", what,
            k.name, k.file, k.line, blockIdx.x, blockIdx.y, blockIdx.z, why.c_str());
}

// The threads of the block that have returned, and where they were last seen waiting.
static std::string who_returned(Worker *w)
{
    std::vector<int> after, before;
    const Thread *site = nullptr;
    for (int i = 0; i < w->n; i++) {
        const Thread &t = w->threads[i];
        if (t.state != DONE)
            continue;
        (t.file ? after : before).push_back(i);
        if (t.file && !site)
            site = &t;
    }
    std::string s;
    if (!before.empty())
        s += "threads " + ranges(before) + " returned without waiting anywhere";
    if (!after.empty())
        s += std::string(s.empty() ? "" : "; ") + "threads " + ranges(after) +
             " returned, last seen waiting at " + site->file + ":" + std::to_string(site->line);
    return s;
}

// Every live thread waits at a barrier: release it if it is the same one for all of them.
static void release_barrier(Worker *w)
{
    const Thread *first = nullptr;
    int count = 0;
    for (int i = 0; i < w->n; i++) {
        const Thread &t = w->threads[i];
        if (t.state != BAR)
            continue;
        if (!first)
            first = &t;
        if (t.line != first->line || (t.file != first->file && strcmp(t.file, first->file)))
            return report(w, "barrier divergence",
                          who_waits(w) + "; every live thread must reach the same __syncthreads");
        count += (int)t.val;
    }
    if (w->live < w->n) // undefined in CUDA: it hangs older GPUs
        undefined(w, "barrier reached by part of the block",
                  who_waits(w) + "; " + who_returned(w) +
                      "; every thread of a block must reach it");
    if (w->failed)
        return;
    for (int i = 0; i < w->n; i++) {
        Thread &t = w->threads[i];
        if (t.state != BAR)
            continue;
        switch (t.op) {
        case SYNCTHREADS:
            t.res = 0;
            break;
        case SYNCTHREADS_COUNT:
            t.res = count;
            break;
        case SYNCTHREADS_AND:
            t.res = count == w->live;
            break;
        case SYNCTHREADS_OR:
            t.res = count > 0;
            break;
        }
    }
    for (int i = 0; i < (w->n + 31) / 32; i++)
        w->warps[i].seen.clear();
    w->atbar = 0;
    w->phase++;
    wake_all(w, BAR);
}

// Shared memory as a block finds it: the poison pattern; for the race checker, memory that
// no thread has touched yet (what the blocks before did there is forgotten).
void poison_shared(Worker *w, void *p, size_t size)
{
    (void)w;
    if (size)
        memset(p, kPoison, size);
    race_forget(p, size);
}

static bool run_block(Worker *w, unsigned long long b)
{
    const Job &j = *w->job;
    blockIdx = {(unsigned)(b % j.grid.x), (unsigned)(b / j.grid.x % j.grid.y),
                (unsigned)(b / j.grid.x / j.grid.y)};
    poison_shared(w, w->smem, j.smem);
    for (auto &s : w->shared)
        poison_shared(w, s.p, s.size);
    dynamic_smem = w->smem;
    w->seq++;
    race_block_starts(w);
    w->live = w->n, w->atbar = 0, w->phase = 0, w->failed = false;
    for (int i = 0; i < (w->n + 31) / 32; i++) {
        Warp &wp = w->warps[i];
        int lanes = std::min(32, w->n - 32 * i);
        wp.alive = wp.runnable = lanes == 32 ? ~0u : (1u << lanes) - 1;
        wp.coll = wp.step = 0;
        wp.mixed = false;
        wp.seen.clear();
    }
    for (int i = 0; i < w->n; i++) {
        Thread &t = w->threads[i];
        t.state = FRESH, t.fiber = nullptr, t.file = nullptr, t.line = 0;
    }
    wake_all(w, FRESH);
    for (;;) { // back here when no thread can run
        switch_to(&w->sched, pick(w));
        if (w->failed || w->live == 0)
            break;
        if (w->atbar == w->live)
            release_barrier(w);
        else
            report(w, "deadlock", "no thread can run: " + who_waits(w));
    }
    if (!w->failed)
        return true;
    w->head = w->tail = 0; // abandon the block: fibers stopped inside it start afresh
    w->free.clear();
    for (int i = 0; i < w->made; i++) {
        Fiber *f = &w->fibers[i];
        if (f->t) {
            race_abandoned(w, f); // a thread left inside its failed block
            make_fiber(f), f->t = nullptr;
        }
        w->free.push_back(f);
    }
    return false;
}

// Fibers, stacks and dynamic shared memory for this launch's block shape.
static void prepare(Worker *w, Job &j)
{
    w->job = &j;
    w->n = (int)(j.block.x * j.block.y * j.block.z);
    if (!w->stacks) {
        size_t size = (kStack + kGuard) * kMaxThreads * kIdentities;
        w->stacks = (char *)mmap(nullptr, size, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (w->stacks == MAP_FAILED)
            fprintf(stderr, "cuda-cpu: cannot map fiber stacks\n"), abort();
        pthread_attr_t attr; // the scheduler's stack, for ASan
        void *addr;
        pthread_getattr_np(pthread_self(), &attr);
        pthread_attr_getstack(&attr, &addr, &w->sched.size);
        pthread_attr_destroy(&attr);
        w->sched.stack = (const char *)addr;
        w->sched.w = w;
        race_worker_made(w);
        for (int i = 0; i < kMaxThreads; i++)
            w->threads[i].w = w, w->threads[i].id = i;
    }
    for (; w->made < w->n * kIdentities;
         w->made++) { // a guard page below each stack turns an overflow into a crash
        Fiber *f = &w->fibers[w->made];
        f->w = w;
        // Stack tops 256 bytes apart modulo a page (fiber aligns its top to 256 bytes): aligned
        // alike, the tops of 256 stacks would compete for the same few cache sets at every switch.
        f->size = kStack - (w->made % 16) * 256;
        f->stack = w->stacks + (kStack + kGuard) * w->made + kGuard;
        mprotect((char *)f->stack - kGuard, kGuard, PROT_NONE);
        make_fiber(f);
        w->free.insert(w->free.begin(), f);
    }
    if (w->dims.x != j.block.x || w->dims.y != j.block.y || w->dims.z != j.block.z) {
        w->dims = j.block;
        for (int i = 0; i < w->n; i++)
            w->threads[i].tid = {i % j.block.x, i / j.block.x % j.block.y,
                                 i / j.block.x / j.block.y};
    }
    if (w->smem_size != j.smem) { // exactly the launch's size, so that ASan sees overflows
        free(w->smem);
        w->smem = j.smem ? (unsigned char *)malloc(j.smem) : nullptr;
        w->smem_size = j.smem;
    }
    blockDim = j.block;
    gridDim = j.grid;
}

// The block the k-th pick runs: index order, reverse order, or the seed's permutation, so
// that a kernel relying on an order of blocks, which CUDA does not promise, goes wrong.
static unsigned long long block_of(const Job &j, unsigned long long k)
{
    switch (j.order) {
    case REVERSE:
        return j.window.block(j.window.count - 1 - k);
    case RANDOM:
        return j.window.block(
            (unsigned long long)(((unsigned __int128)j.mult * k + j.add) % j.window.count));
    default:
        return j.window.block(k);
    }
}

// A thread's worker, kept for the life of the thread (fibers are reused) and released with it: a
// program may launch from many threads. Its fibers are dropped, not destroyed: destroying one
// would unwind the kernel frames left on its stack.
struct OwnWorker {
    Worker *w = new Worker;
    ~OwnWorker()
    {
        for (int i = 0; i < w->made; i++)
            new (&w->fibers[i].ctx) bctx::fiber();
        if (w->stacks) {
            size_t size = (kStack + kGuard) * kMaxThreads * kIdentities;
#ifdef __SANITIZE_ADDRESS__
            __asan_unpoison_memory_region(w->stacks, size);
#endif
            munmap(w->stacks, size);
        }
        free(w->smem);
        free(w->tokens);
        delete w;
    }
};

// The work kernels do, for tests of how much of it a kernel does (no clock): cucc --count-work
// compiles .cu files with -fsanitize-coverage=trace-pc, so g++ calls __sanitizer_cov_trace_pc
// at each basic block of their code, host and device alike; the calls count only while this
// thread runs blocks, whose only code compiled by cucc is the kernel's (the runtime is not
// instrumented). Each worker counts on its own and adds its count at the end of the launch.
static __thread unsigned long long *block_count; // the worker's count, while it runs blocks
static std::atomic<unsigned long long> basic_blocks, threads_launched;

extern "C" __attribute__((no_sanitize("address", "undefined"))) void __sanitizer_cov_trace_pc(void)
{
    if (block_count)
        ++*block_count;
}

static void work(Job &j)
{
    Unseen unseen;
    static thread_local OwnWorker own;
    Worker *w = own.w;
    unsigned long long count = 0;
    prepare(w, j);
    race_worker_starts(j);
    block_count = &count;
    for (unsigned long long k; !j.failed && (k = j.next++) < j.window.count;)
        if (!run_block(w, block_of(j, k)))
            j.failed = true;
    block_count = nullptr;
    basic_blocks += count;
}

// Helper threads for CUDA_CPU_WORKERS > 1; the launching thread is worker 0.
struct Pool {
    std::mutex m;
    std::condition_variable go, done;
    Job *job = nullptr;
    unsigned long long generation = 0;
    int active = 0, busy = 0;
    std::vector<std::thread> threads;
};
static Pool *pool = new Pool; // never destroyed: its threads wait on it until the process ends

static void helper(int index)
{
    unsigned long long seen = 0;
    for (;;) {
        std::unique_lock<std::mutex> lock(pool->m);
        pool->go.wait(lock, [&] { return pool->generation != seen; });
        seen = pool->generation;
        if (index >= pool->active)
            continue;
        Job *j = pool->job;
        lock.unlock();
        work(*j);
        lock.lock();
        if (--pool->busy == 0)
            pool->done.notify_all();
    }
}

static void run(Job &j, int nworkers)
{
    int helpers = (int)std::min<unsigned long long>(nworkers, j.window.count) - 1;
    if (helpers > 0) {
        std::lock_guard<std::mutex> lock(pool->m);
        while ((int)pool->threads.size() < helpers) {
            pool->threads.emplace_back(helper, (int)pool->threads.size());
            pool->threads.back().detach();
        }
        pool->job = &j;
        pool->active = pool->busy = helpers;
        pool->generation++;
        pool->go.notify_all();
    }
    work(j);
    if (helpers > 0) {
        std::unique_lock<std::mutex> lock(pool->m);
        pool->done.wait(lock, [] { return pool->busy == 0; });
    }
}

// RANDOM's permutation of the blocks: k -> (mult k + add) % n with mult coprime to n, both
// drawn from the seed (splitmix64).
static void permute_blocks(Job &j)
{
    auto next = [](unsigned long long &x) {
        unsigned long long z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    unsigned long long x = j.seed, n = j.window.count;
    j.mult = next(x) % n, j.add = next(x) % n;
    while (std::gcd(j.mult, n) != 1)
        j.mult = (j.mult + 1) % n;
}

// What the grader hears when it stops a test that ran past its time (SIGUSR1 first): the
// kernel that was running, so that a hang is reported with its name. Written by the launch,
// read by the handler (write(2) of a finished string only).
static char running_text[512];
static volatile sig_atomic_t running_len;

static void say_running(int)
{
    if (running_len > 0 && write(2, running_text, (size_t)running_len) < 0)
        running_len = 0;
}

static void running_begins(const Kernel &k)
{
    static bool handled;
    if (!handled) {
        struct sigaction sa = {};
        sa.sa_handler = say_running;
        sa.sa_flags = SA_RESTART;
        sigaction(SIGUSR1, &sa, nullptr);
        handled = true;
    }
    int n = snprintf(running_text, sizeof running_text,
                     "\ncuda-cpu: stopped in kernel %s (launched at %s:%d), which had not "
                     "ended\n",
                     k.name, k.file, k.line);
    running_len = n > 0 ? std::min(n, (int)sizeof running_text - 1) : 0;
}

void launch(const Kernel &k, dim3 g, dim3 b, size_t smem, cudaStream_t)
{
    if (cur) {
        fprintf(stderr,
                "cuda-cpu: kernel %s launched from device code (%s:%d): dynamic parallelism is not "
                "supported\n",
                k.name, k.file, k.line);
        fail(cudaErrorNotSupported);
        return;
    }
    // What a GPU rejects, with CUDA 13's code for all of it (measured on an H100: CUDA 12 said
    // cudaErrorInvalidConfiguration for the shapes).
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !threads || g.x > INT32_MAX || g.y > grid_yz_limit() ||
        g.z > grid_yz_limit() || b.x > 1024 || b.y > 1024 || b.z > 64 || threads > 1024 ||
        smem > smem_optin) {
        fail(cudaErrorInvalidValue);
        return;
    }
    Job j;
    j.k = k, j.grid = g, j.block = b, j.smem = smem;
    j.nblocks = (unsigned long long)g.x * g.y * g.z;
    const char *s = getenv("CUDA_CPU_SCHEDULE"), *window = getenv("CUDA_CPU_WINDOW");
    std::string why;
    if (!window_of(window, j.nblocks, threads, j.window, why)) {
        fprintf(stderr, "cuda-cpu: CUDA_CPU_WINDOW=%s: %s\n", window, why.c_str());
        fail(cudaErrorInvalidValue);
        return;
    }
    threads_launched += j.window.count * threads;
    j.strict = strict_mode();
    j.order = FORWARD, j.seed = 0;
    if (!s || !*s || !strcmp(s, "forward")) {
    } else if (!strcmp(s, "reverse")) {
        j.order = REVERSE;
    } else if (!strncmp(s, "random", 6) && (!s[6] || s[6] == ':')) {
        j.order = RANDOM, j.seed = s[6] ? strtoull(s + 7, nullptr, 10) : 1;
        permute_blocks(j);
    } else {
        fprintf(stderr,
                "cuda-cpu: CUDA_CPU_SCHEDULE=%s: expected forward, reverse or random:SEED\n", s);
        fail(cudaErrorInvalidValue);
        return;
    }
    race_launch_starts(j);
    running_begins(k);
    {
        Unseen unseen; // the scheduler's work on this thread (worker 0)
        run(j, workers());
    }
    running_len = 0;
    race_launch_ends(j);
    if (j.races)
        async_error = fail(cudaErrorLaunchFailure);
    else if (j.failed)
        async_error = fail(j.error);
}

// ---- what device code calls
int barrier(BarrierOp op, int pred, const char *file, int line)
{
    Unseen unseen;
    Thread *t = cur;
    if (!t)
        return pred != 0; // host code: a block of one
    t->op = op, t->val = pred != 0, t->file = file, t->line = line;
    block_on(t, BAR);
    t->w->atbar++;
    if (warp_of(t).coll | warp_of(t).step)
        check_warp(t->w, warp_of(t), t->id >> 5);
    race_barrier(t, true);
    wait(t);
    race_barrier(t, false);
    return (int)t->res;
}

// A collective whose mask names lanes that have exited or do not exist (past the block's
// last thread): undefined in CUDA; here the lanes that are there go on without them.
static void missing_lanes(Thread *t, unsigned lanes)
{
    int warp = t->id >> 5, there = std::min(32, t->w->n - 32 * warp);
    std::vector<int> gone, absent;
    for (int l = 0; l < 32; l++)
        if (lanes >> l & 1)
            (l < there ? gone : absent).push_back(l);
    std::string s = std::string(wait_name(*t)) + " at " + t->file + ":" + std::to_string(t->line) +
                    " in warp " + std::to_string(warp) + ": its mask names lanes ";
    if (!gone.empty())
        s += ranges(gone) + ", which have returned";
    if (!absent.empty())
        s += std::string(gone.empty() ? "" : ", and ") + ranges(absent) +
             ", which do not exist (the block has " + std::to_string(t->w->n) + " threads)";
    undefined(t->w, "collective with lanes that are not there", s);
}

unsigned long long warp_op(WarpOp op, unsigned mask, unsigned long long v, int arg, int width,
                           const char *file, int line)
{
    Unseen unseen;
    Thread *t = cur;
    if (!t)
        return op == BALLOT || op == ALL || op == ANY || op == MATCH_ANY ? v != 0 || op == MATCH_ANY
                                                                         : v;
    t->op = op, t->mask = mask, t->val = v, t->arg = arg, t->width = width, t->file = file,
    t->line = line;
    block_on(t, WARP);
    Warp &wp = warp_of(t);
    if (mask & ~wp.alive)
        missing_lanes(t, mask & ~wp.alive);
    if (!wp.coll)
        wp.mask = mask;
    wp.mixed |= wp.mask != mask;
    wp.coll |= bit_of(t);
    race_collective(t, true); // before check_warp, which may complete the collective
    check_warp(t->w, wp, t->id >> 5, t);
    wait(t);
    race_collective(t, false);
    return t->res;
}

// Strict mode: two lanes touching the same volatile word, one of them writing, with no
// collective or barrier between them, race once lanes run independently (Volta and later).
static bool races(Thread *t, const volatile void *p, bool write)
{
    Warp &wp = warp_of(t);
    unsigned lane = t->id & 31, W = 64, MANY = 128;
    auto it = wp.seen.emplace(p, lane | (write ? W : 0)).first;
    unsigned e = it->second;
    if ((e & 31) == lane && !(e & MANY))
        return it->second |= write ? W : 0, false;
    if (!write && !(e & W))
        return it->second |= MANY, false;
    report(t->w, "race (CUDA_CPU_STRICT)",
           "lanes " + std::to_string(e & 31) + " and " + std::to_string(lane) + " of warp " +
               std::to_string(t->id >> 5) + " access the same word through a volatile pointer (" +
               t->file + ":" + std::to_string(t->line) +
               ") with no __syncwarp between; since Volta a warp's lanes do not run in lockstep");
    return true;
}

unsigned lockstep(const volatile void *p, bool write, const char *file, int line)
{
    Unseen unseen;
    Thread *t = cur;
    if (!t)
        return 1;
    t->op = p ? ACCESS : ACTIVEMASK, t->file = file, t->line = line;
    if (p && t->w->job->strict && races(t, p, write))
        wait(t); // never back: the block failed
    block_on(t, STEP);
    warp_of(t).step |= bit_of(t);
    check_warp(t->w, warp_of(t), t->id >> 5);
    wait(t);
    return (unsigned)t->res;
}

Poison::Poison(const volatile void *p, size_t size, const char *name)
{
    void *q = const_cast<void *>(p);
    if (cur)
        cur->w->shared.push_back({q, size, name});
    memset(q, kPoison, size);
}

void yield()
{
    Unseen unseen;
    Thread *t = cur;
    if (!t)
        return;
    Worker *w = t->w;
    w->queue[w->tail++ % kMaxThreads] = t;
    wait(t);
}

// ---------------------------------------------------------------------------------------------
// Memory: device memory is host memory, aligned as cudaMalloc aligns it.
static std::mutex mem_mutex;
static std::map<const void *, size_t> device_allocs;
// Memory that a copy may take as either side, as with unified addressing: managed, and pinned
// (page-locked) host memory; and the __device__ variables whose address the program asked for.
static std::map<const void *, size_t> managed_allocs, pinned_allocs, symbols;

enum Side { HOST, DEVICE, EITHER };
static bool within(const std::map<const void *, size_t> &m, const void *p)
{
    auto it = m.upper_bound(p);
    return it != m.begin() &&
           (const char *)p < (const char *)std::prev(it)->first + std::prev(it)->second;
}
static Side side_of(const void *p)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (within(managed_allocs, p) || within(pinned_allocs, p))
        return EITHER;
    return within(device_allocs, p) || within(symbols, p) || sparse_within(p) ? DEVICE : HOST;
}

void device_symbol(const void *p, size_t size)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    symbols[p] = size;
}

static __thread Site call_site;
Site take_site()
{
    Site s = call_site;
    call_site = {nullptr, 0};
    return s;
}

// A copy whose kind contradicts its pointers is undefined in CUDA (GPUs with unified addressing
// usually follow the pointers): a warning once per call site, or under CUDA_CPU_STRICT=1 an
// error each time, cudaErrorInvalidValue, the copy not done.
static cudaError_t check_kind(Site at, const char *api, Side dst, Side src, size_t count,
                              cudaMemcpyKind kind)
{
    if (!count || (unsigned)kind >= cudaMemcpyDefault)
        return cudaSuccess;
    bool bad_dst = dst != EITHER && (dst == DEVICE) != (kind == cudaMemcpyHostToDevice ||
                                                        kind == cudaMemcpyDeviceToDevice);
    bool bad_src = src != EITHER && (src == DEVICE) != (kind == cudaMemcpyDeviceToHost ||
                                                        kind == cudaMemcpyDeviceToDevice);
    if (!bad_dst && !bad_src)
        return cudaSuccess;
    static const char *kinds[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                  "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"};
    auto memory = [](Side s) { return s == DEVICE ? "device memory" : "host memory"; };
    std::string why =
        std::string(api) +
        (at.file ? " at " + std::string(at.file) + ":" + std::to_string(at.line) : "") + ": " +
        kinds[kind] + ", but " + (bad_src ? std::string("the source is ") + memory(src) : "") +
        (bad_src && bad_dst ? " and " : "") +
        (bad_dst ? std::string("the destination is ") + memory(dst) : "") +
        "; CUDA leaves such a copy undefined (cudaMemcpyDefault follows the pointers)";
    if (strict_mode()) {
        fprintf(stderr, "cuda-cpu: %s (an error under CUDA_CPU_STRICT=1)\n", why.c_str());
        return fail(cudaErrorInvalidValue);
    }
    static std::mutex m;
    static std::set<std::pair<const void *, int>> warned;
    std::lock_guard<std::mutex> lock(m);
    if (warned.insert({at.file ? (const void *)at.file : api, at.line}).second)
        fprintf(stderr, "cuda-cpu: warning: %s\n", why.c_str());
    return cudaSuccess;
}

// height rows of width bytes, each pitch bytes after the one before (1D: one row).
cudaError_t copy(Site at, const char *api, void *dst, size_t dpitch, const void *src, size_t spitch,
                 size_t width, size_t height, cudaMemcpyKind kind)
{
    if (dst && src) {
        cudaError_t e = check_kind(at, api, side_of(dst), side_of(src), width * height, kind);
        if (e)
            return e;
    }
    if ((unsigned)kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch)
        return fail(cudaErrorInvalidPitchValue);
    if (!width || !height)
        return cudaSuccess;
    if (!dst || !src)
        return fail(cudaErrorInvalidValue);
    for (size_t r = 0; r < height; r++)
        memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return cudaSuccess;
}

cudaError_t symbol_copy(void *dst, const void *src, size_t count, size_t offset, size_t size,
                        cudaMemcpyKind kind, cudaMemcpyKind want)
{
    Site at = take_site();
    if (kind != want && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (offset > size || count > size - offset)
        return fail(cudaErrorInvalidValue);
    bool to = want == cudaMemcpyHostToDevice;
    cudaError_t e = check_kind(at, to ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol",
                               to ? DEVICE : side_of(dst), to ? side_of(src) : DEVICE, count, kind);
    if (e)
        return e;
    memcpy(to ? (char *)dst + offset : dst, to ? src : (const char *)src + offset, count);
    return cudaSuccess;
}
} // namespace cucc

extern "C" void cuda_cpu_call_site(const char *file, int line)
{
    cucc::call_site = {file, line};
}

using namespace cucc;
static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
struct CUstream_st {
    int flags;
};
struct CUevent_st {
    unsigned flags;
    double ms; // when recorded; negative before
};

extern "C" {
unsigned long long cuda_cpu_basic_blocks(void)
{
    return basic_blocks;
}
unsigned long long cuda_cpu_threads_launched(void)
{
    return threads_launched;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    if (async_error == e)
        async_error = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void)
{
    return last_error;
}

static const struct {
    cudaError_t e;
    const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor",
     "invalid channel descriptor"},
    {cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting",
     "linear filtering not supported for non-float type"},
    {cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting",
     "read as normalized float not supported for 32-bit non float type"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
const char *cudaGetErrorString(cudaError_t e)
{
    for (auto &x : errors)
        if (x.e == e)
            return x.text;
    return "unrecognized error code";
}
const char *cudaGetErrorName(cudaError_t e)
{
    for (auto &x : errors)
        if (x.e == e)
            return x.name;
    return "cudaErrorUnknown";
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (!prop)
        return fail(cudaErrorInvalidValue);
    if (device != 0)
        return fail(cudaErrorInvalidDevice);
    *prop = properties();
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return fail(cudaErrorInvalidValue);
    if (device != 0)
        return fail(cudaErrorInvalidDevice);
    cudaDeviceProp p = properties();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case cudaDevAttrMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case cudaDevAttrMaxBlockDimY:
        *value = p.maxThreadsDim[1];
        break;
    case cudaDevAttrMaxBlockDimZ:
        *value = p.maxThreadsDim[2];
        break;
    case cudaDevAttrMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case cudaDevAttrMaxGridDimY:
        *value = p.maxGridSize[1];
        break;
    case cudaDevAttrMaxGridDimZ:
        *value = p.maxGridSize[2];
        break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = (int)p.sharedMemPerBlock;
        break;
    case cudaDevAttrTotalConstantMemory:
        *value = (int)p.totalConstMem;
        break;
    case cudaDevAttrWarpSize:
        *value = p.warpSize;
        break;
    case cudaDevAttrMaxRegistersPerBlock:
        *value = p.regsPerBlock;
        break;
    case cudaDevAttrClockRate:
        *value = 1000000;
        break; // nominal, like the memory figures
    case cudaDevAttrMultiProcessorCount:
        *value = p.multiProcessorCount;
        break;
    case cudaDevAttrMemoryClockRate:
        *value = kMemoryClockKHz;
        break;
    case cudaDevAttrGlobalMemoryBusWidth:
        *value = p.memoryBusWidth;
        break;
    case cudaDevAttrL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
        *value = p.maxThreadsPerMultiProcessor;
        break;
    case cudaDevAttrComputeCapabilityMajor:
        *value = p.major;
        break;
    case cudaDevAttrComputeCapabilityMinor:
        *value = p.minor;
        break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
        *value = (int)p.sharedMemPerMultiprocessor;
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = (int)p.sharedMemPerBlockOptin;
        break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
        *value = p.maxBlocksPerMultiProcessor;
        break;
    case cudaDevAttrMaxPitch:
        *value = (int)p.memPitch;
        break;
    case cudaDevAttrTextureAlignment:
        *value = (int)p.textureAlignment;
        break;
    case cudaDevAttrTexturePitchAlignment:
        *value = (int)p.texturePitchAlignment;
        break;
    case cudaDevAttrMaxTexture1DWidth:
        *value = p.maxTexture1D;
        break;
    case cudaDevAttrMaxTexture1DLinearWidth:
        *value = 1 << 28;
        break;
    case cudaDevAttrMaxTexture2DWidth:
        *value = p.maxTexture2D[0];
        break;
    case cudaDevAttrMaxTexture2DHeight:
        *value = p.maxTexture2D[1];
        break;
    case cudaDevAttrComputeMode:
        *value = cudaComputeModeDefault;
        break;
    case cudaDevAttrIntegrated:
        *value = p.integrated;
        break;
    case cudaDevAttrCanMapHostMemory:
        *value = p.canMapHostMemory;
        break;
    case cudaDevAttrUnifiedAddressing:
        *value = p.unifiedAddressing;
        break;
    case cudaDevAttrManagedMemory:
        *value = p.managedMemory;
        break;
    case cudaDevAttrPageableMemoryAccess:
        *value = p.pageableMemoryAccess;
        break;
    case cudaDevAttrConcurrentManagedAccess:
        *value = p.concurrentManagedAccess;
        break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
        *value = p.regsPerMultiprocessor;
        break;
    case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrAsyncEngineCount:
    case cudaDevAttrCooperativeLaunch:
        *value = 0;
        break;
    default:
        return fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void)
{
    return sync_point();
}
cudaError_t cudaDeviceReset(void)
{
    last_error = async_error = cudaSuccess;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v)
{
    return v ? (*v = CUDART_VERSION, cudaSuccess) : fail(cudaErrorInvalidValue);
}
cudaError_t cudaRuntimeGetVersion(int *v)
{
    return cudaDriverGetVersion(v);
}
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!free_bytes || !total_bytes)
        return fail(cudaErrorInvalidValue);
    *total_bytes = properties().totalGlobalMem;
    *free_bytes = (size_t)sysconf(_SC_AVPHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    return cudaSuccess;
}

// The bytes of cudaMalloc and cudaMallocHost live, under mem_mutex: past this machine's
// memory an allocation is out of memory, as a GPU's is past its own (and before malloc,
// whose failure a sanitizer reports as an error of its own, or the kernel's OOM killer).
static size_t allocated;

static bool reserve(size_t size)
{
    size_t memory = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (size > memory || allocated > memory - size)
        return false;
    allocated += size;
    return true;
}
static void release(size_t size)
{
    std::lock_guard<std::mutex> lock(mem_mutex);
    allocated -= size;
}

cudaError_t cudaMalloc(void **ptr, size_t size)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (!size)
        return cudaSuccess;
    if (!reserve(size))
        return fail(cudaErrorMemoryAllocation);
    if (posix_memalign(ptr, 256, size))
        return release(size), *ptr = nullptr, fail(cudaErrorMemoryAllocation);
    memset(*ptr, kPoison, size);
    std::lock_guard<std::mutex> lock(mem_mutex);
    device_allocs[*ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int)
{
    cudaError_t e = cudaMalloc(ptr, size);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (!e && *ptr)
        managed_allocs[*ptr] = size;
    return e;
}
cudaError_t cudaFree(void *ptr)
{
    if (!ptr || sparse_free(ptr))
        return cudaSuccess;
    size_t size;
    {
        std::lock_guard<std::mutex> lock(mem_mutex);
        auto it = device_allocs.find(ptr);
        if (it == device_allocs.end())
            return fail(cudaErrorInvalidValue);
        size = it->second;
        device_allocs.erase(it);
        managed_allocs.erase(ptr);
    }
    memset(ptr, kPoison, size); // a use after free reads poison (ASan reports it outright)
    free(ptr);
    release(size);
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (size && !reserve(size))
        return fail(cudaErrorMemoryAllocation);
    *ptr = size ? malloc(size) : nullptr;
    if (size && !*ptr)
        return release(size), fail(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> lock(mem_mutex);
    if (*ptr)
        pinned_allocs[*ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int)
{
    return cudaMallocHost(ptr, size);
}
cudaError_t cudaFreeHost(void *ptr)
{
    size_t size = 0;
    {
        std::lock_guard<std::mutex> lock(mem_mutex);
        auto it = pinned_allocs.find(ptr);
        if (it != pinned_allocs.end())
            size = it->second, pinned_allocs.erase(it);
    }
    free(ptr);
    release(size);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t)
{
    return copy(take_site(), "cudaMemcpyAsync", dst, count, src, count, count, 1, kind);
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    cudaError_t e = copy(take_site(), "cudaMemcpy", dst, count, src, count, count, 1, kind);
    return e ? e : sync_point();
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind)
{
    cudaError_t e =
        copy(take_site(), "cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind);
    return e ? e : sync_point();
}
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t)
{
    if (!count)
        return cudaSuccess;
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    memset(ptr, value, count);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *ptr, int value, size_t count)
{
    return cudaMemsetAsync(ptr, value, count, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream)
        return fail(cudaErrorInvalidValue);
    *stream = new CUstream_st{(int)flags};
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, 0);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t)
{
    return sync_point();
}
cudaError_t cudaStreamQuery(cudaStream_t)
{
    return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int)
{
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return fail(cudaErrorInvalidValue);
    *event = new CUevent_st{flags, -1};
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
    delete event;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    event->ms = now_ms();
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!event)
        return fail(cudaErrorInvalidResourceHandle);
    return sync_point();
}
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return fail(cudaErrorInvalidValue);
    if (!start || !end || start->ms < 0 || end->ms < 0 ||
        ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value)
{
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > kSmemOptin)
            return fail(cudaErrorInvalidValue);
        smem_optin = std::max(smem_optin, (size_t)value);
    }
    return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func)
{
    if (!attr)
        return fail(cudaErrorInvalidValue);
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction);
    memset(attr, 0, sizeof *attr);
    attr->maxThreadsPerBlock = 1024;
    attr->maxDynamicSharedSizeBytes = (int)smem_optin;
    attr->ptxVersion = attr->binaryVersion = 70;
    return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int block_size, size_t dynamic_smem)
{
    if (!blocks || block_size <= 0 || block_size > 1024)
        return fail(cudaErrorInvalidValue);
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction);
    int n = std::min(2048 / ((block_size + 31) / 32 * 32), 32);
    if (dynamic_smem)
        n = std::min(n, (int)(kSmemOptin / dynamic_smem));
    *blocks = n;
    return cudaSuccess;
}
}

// ---------------------------------------------------------------------------------------------
// More of the runtime API, for CUDA programs beyond the labs (NVIDIA's cuda-samples).
static unsigned device_flags;

extern "C" {
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t)
{
    return copy(take_site(), "cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind);
}
// Rows start at multiples of 512 bytes, as on current GPUs (an H100's texture alignment).
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!ptr || !pitch)
        return fail(cudaErrorInvalidValue);
    *pitch = (width + 511) / 512 * 512;
    return cudaMalloc(ptr, *pitch * height);
}
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch)
        return fail(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++)
        memset((char *)ptr + r * pitch, value, width);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int)
{
    if (!ptr || !size)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mem_mutex);
    pinned_allocs[ptr] = size;
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void *ptr)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(mem_mutex);
    pinned_allocs.erase(ptr);
    return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int)
{
    if (!device || !host)
        return fail(cudaErrorInvalidValue);
    *device = host;
    return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    if (flags & ~(cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax))
        return fail(cudaErrorInvalidValue);
    device_flags = flags;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return fail(cudaErrorInvalidValue);
    *flags = device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags)
{
    if (!callback || flags)
        return fail(cudaErrorInvalidValue);
    callback(stream, async_error, user_data);
    return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t fn, void *user_data)
{
    if (!fn)
        return fail(cudaErrorInvalidValue);
    fn(user_data);
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}
cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

// nvcc's fast intrinsics, which glibc declares in math.h but does not export: the exact functions.
float __expf(float x) noexcept
{
    return expf(x);
}
float __exp10f(float x) noexcept
{
    return exp10f(x);
}
float __logf(float x) noexcept
{
    return logf(x);
}
float __log2f(float x) noexcept
{
    return log2f(x);
}
float __log10f(float x) noexcept
{
    return log10f(x);
}
float __powf(float x, float y) noexcept
{
    return powf(x, y);
}
float __sinf(float x) noexcept
{
    return sinf(x);
}
float __cosf(float x) noexcept
{
    return cosf(x);
}
float __tanf(float x) noexcept
{
    return tanf(x);
}
void __sincosf(float x, float *s, float *c) noexcept
{
    sincosf(x, s, c);
}
}

// A failed assert() in a kernel fails the launch with cudaErrorAssert, after CUDA's line (one per
// launch: the block stops there); in host code it aborts, as glibc's does.
extern "C" void __assert_fail(const char *expr, const char *file, unsigned int line,
                              const char *func) noexcept
{
    Thread *t = cur;
    if (!t) {
        fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name,
                file, line, func, expr);
        abort();
    }
    Unseen unseen; // wait() expects one
    Worker *w = t->w;
    w->failed = true;
    if (!w->job->failed.exchange(true)) {
        w->job->error = cudaErrorAssert;
        fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                file, line, func, blockIdx.x, blockIdx.y, blockIdx.z, t->tid.x, t->tid.y, t->tid.z,
                expr);
    }
    wait(t); // never back: the block failed
    __builtin_unreachable();
}
