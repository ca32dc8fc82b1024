/* What the CPU backend offers beyond CUDA's API, readable from C and C++: code that uses it
   builds on this backend only (test for CUDA_CPU_BACKEND, or BACKEND_CPU in the labs). */
#ifndef CUDA_CPU_H
#define CUDA_CPU_H

#include "cuda_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The work that kernels have done since the process started, summed over every launch and
   worker, for tests of how much of it a kernel does (no clock measures that here): the basic
   blocks executed by kernel threads in code that cucc compiled (the kernels and what they
   inline; not the runtime's barriers and collectives), and the threads launched. */
unsigned long long cuda_cpu_basic_blocks(void);
unsigned long long cuda_cpu_threads_launched(void);

/* What the runtime holds for the program, for tests that it waited for the work it gave and gave
   back what it made: the events created and not yet destroyed, and the pieces of device work
   (launches, copies, memsets, events' records, host functions) given and not yet run. */
unsigned long long cuda_cpu_events_alive(void);
unsigned long long cuda_cpu_work_pending(void);

/* The dynamic shared memory (the launch's third parameter) that the last launch the runtime
   took asked for, in bytes; -1 before any: for tests that a launch asks for what it must, which
   no answer shows (memory set aside and never touched). */
long long cuda_cpu_last_launch_smem(void);

/* cudaMalloc's twin for tests of sizes no CPU holds, past 2^32 elements: memory whose pages are
   mapped when first touched and read 0 until written, not poisoned, so that a buffer of 17 GB
   costs only the pages that the test and the blocks of its CUDA_CPU_WINDOW touch. cudaFree
   frees it. */
cudaError_t cuda_cpu_malloc_zeroed(void **ptr, size_t size);

#ifdef __cplusplus
}
#endif
#endif
