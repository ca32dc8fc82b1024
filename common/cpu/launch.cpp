// Launches of the CPU backend: each is checked as a GPU checks it, its schedule read
// (CUDA_CPU_SCHEDULE, CUDA_CPU_WINDOW) and its blocks handed to the workers, the launching
// thread and CUDA_CPU_WORKERS-1 helpers, which run them (scheduler.cpp), when the launch's
// stream runs it (streams.cpp: the host does not wait for a launch). Also
// the kernels' attributes (dynamic shared memory, occupancy), which launches are held to.
#include "runtime.h"
#include "cuda_cpu.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

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

namespace cucc {
static size_t smem_optin = kSmemPerBlock; // raised by cudaFuncSetAttribute, for every kernel
// The threads launched, for tests of how much work a kernel does (cuda_cpu.h).
static std::atomic<unsigned long long> threads_launched;
static std::atomic<long long> last_launch_smem{-1}; // cuda_cpu_last_launch_smem

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

// A launch's blocks on the workers, when its stream runs it.
static void run_launch(const Kernel &k, dim3 g, dim3 b, size_t smem, const Window &window,
                       Order order, unsigned long long seed)
{
    Job j;
    j.k = k, j.grid = g, j.block = b, j.smem = smem, j.window = window;
    j.nblocks = (unsigned long long)g.x * g.y * g.z;
    j.strict = strict_mode();
    j.order = order, j.seed = seed;
    if (order == RANDOM)
        permute_blocks(j);
    race_launch_starts(j);
    running_begins(k);
    {
        Unseen unseen; // the scheduler's work on this thread (worker 0)
        run(j, workers());
    }
    running_len = 0;
    race_launch_ends(j);
    if (j.races)
        launch_failed(cudaErrorLaunchFailure);
    else if (j.failed)
        launch_failed(j.error);
}

void launch(Kernel k, dim3 g, dim3 b, size_t smem, cudaStream_t stream)
{
    if (running()) {
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
    Window window;
    unsigned long long nblocks = (unsigned long long)g.x * g.y * g.z;
    const char *s = getenv("CUDA_CPU_SCHEDULE"), *w = getenv("CUDA_CPU_WINDOW");
    std::string why;
    if (!window_of(w, nblocks, threads, window, why)) {
        fprintf(stderr, "cuda-cpu: CUDA_CPU_WINDOW=%s: %s\n", w, why.c_str());
        fail(cudaErrorInvalidValue);
        return;
    }
    Order order = FORWARD;
    unsigned long long seed = 0;
    if (!s || !*s || !strcmp(s, "forward")) {
    } else if (!strcmp(s, "reverse")) {
        order = REVERSE;
    } else if (!strncmp(s, "random", 6) && (!s[6] || s[6] == ':')) {
        order = RANDOM, seed = s[6] ? strtoull(s + 7, nullptr, 10) : 1;
    } else {
        fprintf(stderr,
                "cuda-cpu: CUDA_CPU_SCHEDULE=%s: expected forward, reverse or random:SEED\n", s);
        fail(cudaErrorInvalidValue);
        return;
    }
    threads_launched += window.count * threads;
    last_launch_smem = (long long)smem;
    // Checked now, as a GPU checks a launch; run when a synchronising call needs it.
    Work run = [k = std::move(k), g, b, smem, window, order, seed] {
        run_launch(k, g, b, smem, window, order, seed);
    };
    submit(stream, std::move(run), false);
}
} // namespace cucc

using namespace cucc;
extern "C" {
unsigned long long cuda_cpu_threads_launched(void)
{
    return threads_launched;
}

long long cuda_cpu_last_launch_smem(void)
{
    return last_launch_smem;
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
    // More dynamic shared memory than a launch may ask for (48 KiB unless cudaFuncSetAttribute
    // raised it): no block fits, as a GPU answers. The kernel's static shared memory is not
    // known here (each worker's own, made as its blocks run), so it does not count.
    if (dynamic_smem > smem_optin)
        n = 0;
    else if (dynamic_smem)
        n = std::min(n, (int)(kSmemOptin / dynamic_smem));
    *blocks = n;
    return cudaSuccess;
}
}
