// What the CPU backend offers tests of sizes past 2^31 and 2^32 elements, which no CPU can run
// whole (window.cpp): the blocks of a launch that run (CUDA_CPU_WINDOW), and device memory whose
// pages cost nothing until touched (cuda_cpu_malloc_zeroed, in cuda_cpu.h). The runtime asks
// for a launch's window and hands sparse memory back here when it is freed.
#ifndef CUDA_CPU_WINDOW_H
#define CUDA_CPU_WINDOW_H

#include <string>
#include <utility>
#include <vector>

namespace cucc {

// The blocks of one launch that run: runs of linear block indices (x + gridDim.x (y +
// gridDim.y z)), sorted and apart, in the order of their indices; none: every block.
struct Window {
    std::vector<std::pair<unsigned long long, unsigned long long>> runs; // [first, last]
    std::vector<unsigned long long> before; // how many blocks the runs before each hold
    unsigned long long count = 0;           // how many blocks run
    unsigned long long block(unsigned long long k) const; // the k-th (k < count)
};

// The window of a grid of nblocks blocks of `threads` threads each under spec, the value of
// CUDA_CPU_WINDOW (null or empty: every block). False, with why, when spec is malformed.
bool window_of(const char *spec, unsigned long long nblocks, unsigned long long threads, Window &w,
               std::string &why);

// cudaFree's first question: true when p came from cuda_cpu_malloc_zeroed, now unmapped.
bool sparse_free(void *p);

// True when p lies in memory from cuda_cpu_malloc_zeroed: device memory, to the copies' check.
bool sparse_within(const void *p);

} // namespace cucc
#endif
