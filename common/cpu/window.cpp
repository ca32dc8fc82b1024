// Tests past 2^31 and 2^32 elements on a CPU (window.h). An index computed in 32 bits wraps
// only where it passes 2^31 (int) or 2^32 (unsigned), so a test needs the threads whose indices
// pass there, not the billions before them, and memory there, not gigabytes written to reach
// it. CUDA_CPU_WINDOW runs only the blocks that hold the threads a test names; sparse memory
// maps only the pages that those threads and the test touch.
#include "window.h"
#include "cuda_runtime.h"
#include "cuda_cpu.h"
#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>

namespace cucc {

unsigned long long Window::block(unsigned long long k) const
{
    if (runs.empty()) // every launch without a window: all its blocks
        return k;
    size_t i = std::upper_bound(before.begin(), before.end(), k) - before.begin() - 1;
    return runs[i].first + (k - before[i]);
}

// "A" or "A-B" (decimal, A <= B) at s; s is left after it.
static bool parse_range(const char *&s, unsigned long long &a, unsigned long long &b)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    a = b = strtoull(s, &end, 10);
    if (*end == '-') {
        if (end[1] < '0' || end[1] > '9')
            return false;
        b = strtoull(end + 1, &end, 10);
    }
    s = end;
    return errno == 0 && a <= b;
}

// A rank is a thread's place in the grid: its block's linear index times the block's threads,
// plus its linear index in the block; for a thread per element, the element. Each rank is
// taken modulo the grid's threads, so that a grid-stride loop's thread that walks past an
// element runs for it whatever the grid's size, and a launch of fewer threads than the ranks
// (a second, smaller kernel of the same call) still runs the blocks that hold them there.
bool window_of(const char *spec, unsigned long long nblocks, unsigned long long threads, Window &w,
               std::string &why)
{
    using Run = std::pair<unsigned long long, unsigned long long>;
    std::vector<Run> runs;
    w = Window();
    if (!spec || !*spec) { // nothing to allocate at each launch
        w.count = nblocks;
        return true;
    }
    unsigned __int128 size = (unsigned __int128)nblocks * threads;
    for (const char *s = spec;; s++) {
        unsigned long long a, b;
        if (!parse_range(s, a, b) || (*s && *s != ',')) {
            why = "expected ranks A-B or A, separated by commas";
            return false;
        }
        if (b - a >= size) {
            runs.push_back({0, nblocks - 1});
        } else {
            unsigned long long first = (unsigned long long)(a % size / threads);
            unsigned long long last = (unsigned long long)(b % size / threads);
            if (a % size <= b % size) {
                runs.push_back({first, last});
            } else { // the ranks wrap around the grid's end
                runs.push_back({first, nblocks - 1});
                runs.push_back({0, last});
            }
        }
        if (!*s)
            break;
    }
    std::sort(runs.begin(), runs.end());
    for (const Run &r : runs)
        if (!w.runs.empty() && r.first <= w.runs.back().second + 1)
            w.runs.back().second = std::max(w.runs.back().second, r.second);
        else
            w.runs.push_back(r);
    for (const Run &r : w.runs) {
        w.before.push_back(w.count);
        w.count += r.second - r.first + 1;
    }
    return true;
}

// Sparse memory: one private anonymous mapping with MAP_NORESERVE, so that its pages cost
// nothing until touched and read 0 until written; a guard on either side stops an index a
// little out of range (ASan's redzones guard only what ASan allocated). Keyed by the pointer
// handed out: the mapping's start and length.
static const size_t kGuard = 1 << 20;
static std::mutex sparse_mutex;
static std::map<void *, std::pair<char *, size_t>> sparse;

bool sparse_free(void *p)
{
    std::pair<char *, size_t> m;
    {
        std::lock_guard<std::mutex> lock(sparse_mutex);
        auto it = sparse.find(p);
        if (it == sparse.end())
            return false;
        m = it->second;
        sparse.erase(it);
    }
    munmap(m.first, m.second);
    return true;
}

bool sparse_within(const void *p)
{
    std::lock_guard<std::mutex> lock(sparse_mutex);
    auto it = sparse.upper_bound(const_cast<void *>(p));
    if (it == sparse.begin())
        return false;
    --it;
    size_t bytes = it->second.second - 2 * kGuard;
    return (const char *)p < (const char *)it->first + bytes;
}

} // namespace cucc

extern "C" cudaError_t cuda_cpu_malloc_zeroed(void **ptr, size_t size)
{
    using namespace cucc;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = (size + page - 1) / page * page;
    if (!ptr)
        return cudaErrorInvalidValue;
    *ptr = nullptr;
    if (!size)
        return cudaSuccess;
    if (bytes < size || bytes > SIZE_MAX - 2 * kGuard)
        return cudaErrorMemoryAllocation;
    size_t total = bytes + 2 * kGuard;
    char *m = (char *)mmap(nullptr, total, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return cudaErrorMemoryAllocation;
    if (mprotect(m, kGuard, PROT_NONE) || mprotect(m + kGuard + bytes, kGuard, PROT_NONE)) {
        munmap(m, total);
        return cudaErrorMemoryAllocation;
    }
    *ptr = m + kGuard;
    std::lock_guard<std::mutex> lock(sparse_mutex);
    sparse[*ptr] = {m, total};
    return cudaSuccess;
}
