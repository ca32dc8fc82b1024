/* CUDA's asynchronous copies from global to shared memory (<cuda_pipeline_primitives.h>: on
   compute capability 8.0 and later the cp.async instruction) for the CPU backend:
   __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior.

   What a GPU does: __pipeline_memcpy_async starts a copy of 4, 8 or 16 bytes, the last zfill of
   them zeros instead of the source's, and returns at once; __pipeline_commit closes the thread's
   copies since the last commit into a group; __pipeline_wait_prior(N) waits until all but the N
   latest groups have landed. A copy is the thread's own: other threads see it only after a
   barrier that follows the wait.

   What the backend does, so that a kernel that relies on more than that goes wrong here too: a
   copy reads its source when it starts (a bad source is reported at that line) and writes shared
   memory only when its thread waits for its group (at the wait's line, where the race checker
   sees the write); until then shared memory keeps what it had. A copy whose group is never waited
   for is never written, and a thread's copies are forgotten when its block starts. Sizes other
   than 4, 8 and 16, a zfill past the size, and a destination or source not aligned to the size
   fail the launch as a failed assert() does, at the caller's line (a GPU's behaviour is
   undefined). */
#ifndef CUDA_CPU_PIPELINE_PRIMITIVES_H
#define CUDA_CPU_PIPELINE_PRIMITIVES_H
#pragma GCC system_header
#include <assert.h>
#include <cuda_runtime.h>

namespace cucc {
/* A started copy: its bytes, read, and where they go. */
struct AsyncCopy {
    void *dst;
    unsigned char data[16];
    size_t bytes;
    unsigned long long group; /* the commits its thread had made when it started */
};
/* The running thread's copies (scheduler.cpp): async_start queues one in the open group,
   async_commit closes the group, async_next takes out the oldest copy of a group that the
   thread's latest `prior` groups do not include (false when there is none). */
void async_start(const AsyncCopy &c);
void async_commit();
bool async_next(size_t prior, AsyncCopy *c);

/* A copy's bytes, by loads and stores of this file that the sanitizers see at the kernel's line
   (a call of memcpy would be the library's, which the race checker cannot place). */
static inline void async_bytes(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 16:
        memcpy(dst, src, 16); /* of a constant size: inlined */
        return;
    case 8:
        memcpy(dst, src, 8);
        return;
    case 4:
        memcpy(dst, src, 4);
        return;
    }
    for (size_t i = 0; i < n; i++) { /* what a zfill leaves: byte by byte */
        ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
        __asm__ volatile("" ::: "memory"); /* not a call of memcpy either */
    }
}
} // namespace cucc

static inline void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                           const void *__restrict__ src_global,
                                           size_t size_and_align, size_t zfill = 0,
                                           const char *file_ = __builtin_FILE(),
                                           int line_ = __builtin_LINE())
{
    size_t n = size_and_align;
    const char *f = "__pipeline_memcpy_async";
    if (n != 4 && n != 8 && n != 16)
        __assert_fail("size_and_align is 4, 8 or 16", file_, (unsigned)line_, f);
    if (zfill > n)
        __assert_fail("zfill <= size_and_align", file_, (unsigned)line_, f);
    if ((uintptr_t)dst_shared % n || (uintptr_t)src_global % n)
        __assert_fail("dst_shared and src_global aligned to size_and_align", file_, (unsigned)line_,
                      f);
    cucc::AsyncCopy c = {dst_shared, {0}, n, 0};
    cucc::async_bytes(c.data, src_global, n - zfill);
    cucc::async_start(c);
}

static inline void __pipeline_commit()
{
    cucc::async_commit();
}

static inline void __pipeline_wait_prior(size_t prior)
{
    cucc::AsyncCopy c;
    while (cucc::async_next(prior < 8 ? prior : 8, &c))
        cucc::async_bytes(c.dst, c.data, c.bytes);
}
#endif
