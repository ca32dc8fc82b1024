// The CPU backend's scheduler: a worker runs the blocks of a launch one at a time, each thread of
// a block a fiber (boost::context::fiber), switching fibers at barriers, warp collectives and
// volatile accesses; and what device code calls to get there: __syncthreads, the warp
// collectives, volatile steps, yield, a failed assert. They share this file because the switch
// must be inlined into each of those entry points (switch_to, wait: README, Speed). The launch
// that hands blocks to the workers is launch.cpp; what a block that goes wrong reports,
// diagnose.cpp; the race checker's part, racecheck.cpp, through the hooks of runtime.h.
#include "runtime.h"
#include "cuda_cpu.h"
#include <assert.h>
#include <boost/context/fiber.hpp>
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <algorithm>
#include <atomic>
#include <string>
#include <vector>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

__thread uint3 threadIdx, blockIdx;
__thread dim3 blockDim, gridDim;

namespace cucc {
__thread unsigned char *dynamic_smem;

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
            f->w->job->k.invoke(f->w->job->k.call.get());
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
        t.copies.clear(), t.done = 0, t.groups = 0;
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
        void *p = nullptr; // aligned as cudaMalloc's: a kernel may align its extern __shared__
        if (j.smem && posix_memalign(&p, 256, j.smem)) {
            fprintf(stderr, "cuda-cpu: no memory for %zu bytes of shared memory\n", j.smem);
            abort();
        }
        w->smem = (unsigned char *)p;
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
static std::atomic<unsigned long long> basic_blocks;

extern "C" __attribute__((no_sanitize("address", "undefined"))) void __sanitizer_cov_trace_pc(void)
{
    if (block_count)
        ++*block_count;
}

void work(Job &j)
{
    Unseen unseen;
    static thread_local OwnWorker own;
    Worker *w = own.w;
    unsigned long long count = 0;
    prepare(w, j);
    race_worker_starts(w, j);
    block_count = &count;
    for (unsigned long long k; !j.failed && (k = j.next++) < j.window.count;)
        if (!run_block(w, block_of(j, k)))
            j.failed = true;
    block_count = nullptr;
    basic_blocks += count;
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
} // namespace cucc

using namespace cucc;
extern "C" unsigned long long cuda_cpu_basic_blocks(void)
{
    return basic_blocks;
}

// cuda_pipeline_primitives.h's copies: queued in the thread's open group, written when it waits.
void cucc::async_start(const AsyncCopy &c)
{
    Unseen unseen;
    Thread *t = cur;
    if (!t)
        fprintf(stderr, "cuda-cpu: __pipeline_memcpy_async outside a kernel\n"), abort();
    t->copies.push_back(c);
    t->copies.back().group = t->groups;
}

void cucc::async_commit()
{
    if (cur)
        cur->groups++;
}

bool cucc::async_next(size_t prior, AsyncCopy *c)
{
    Unseen unseen;
    Thread *t = cur;
    if (!t || t->done == t->copies.size() || t->copies[t->done].group + prior >= t->groups)
        return false;
    *c = t->copies[t->done++];
    if (t->done == t->copies.size())
        t->copies.clear(), t->done = 0;
    return true;
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
