/* CUDA C++ for the CPU backend: what g++ needs to read a .cu file once cucc has rewritten its
   launches, dynamic shared arrays and volatile pointers. The runtime (launch.cpp, scheduler.cpp
   and the others that runtime.h names) runs the kernels. The one header to include: it
   includes its parts, cuda_cpu/collectives.h, atomics.h, intrinsics.h and texture.h. */
#ifndef CUDA_CPU_RUNTIME_H
#define CUDA_CPU_RUNTIME_H
#pragma GCC system_header  /* no warnings from here: it is first on the include path */
#define __CUDA_RUNTIME_H__ /* CUDA's guard, which code such as helper_cuda.h tests */
#include "cuda_runtime_api.h"
#ifdef __cplusplus
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
/* A block runs on one worker thread at a time, so per-thread storage is per-block storage.
   Aligned as a GPU places shared variables: code stores words into byte arrays. */
#define __shared__ thread_local __attribute__((aligned(16)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

/* Vector types, aligned as CUDA aligns them (int4 loads need 16 bytes). */
#define CUDA_CPU_VEC(N, T, A2, A4)                     \
    struct N##1                                        \
    {                                                  \
        T x;                                           \
    };                                                 \
    struct __attribute__((aligned(A2))) N##2           \
    {                                                  \
        T x, y;                                        \
    };                                                 \
    struct N##3                                        \
    {                                                  \
        T x, y, z;                                     \
    };                                                 \
    struct __attribute__((aligned(A4))) N##4           \
    {                                                  \
        T x, y, z, w;                                  \
    };                                                 \
    static inline N##1 make_##N##1(T x)                \
    {                                                  \
        return {x};                                    \
    }                                                  \
    static inline N##2 make_##N##2(T x, T y)           \
    {                                                  \
        return {x, y};                                 \
    }                                                  \
    static inline N##3 make_##N##3(T x, T y, T z)      \
    {                                                  \
        return {x, y, z};                              \
    }                                                  \
    static inline N##4 make_##N##4(T x, T y, T z, T w) \
    {                                                  \
        return {x, y, z, w};                           \
    }
CUDA_CPU_VEC(char, signed char, 2, 4)
CUDA_CPU_VEC(uchar, unsigned char, 2, 4)
CUDA_CPU_VEC(short, short, 4, 8)
CUDA_CPU_VEC(ushort, unsigned short, 4, 8)
CUDA_CPU_VEC(int, int, 8, 16)
CUDA_CPU_VEC(uint, unsigned int, 8, 16)
CUDA_CPU_VEC(long, long, 16, 16)
CUDA_CPU_VEC(ulong, unsigned long, 16, 16)
CUDA_CPU_VEC(longlong, long long, 16, 16)
CUDA_CPU_VEC(ulonglong, unsigned long long, 16, 16)
CUDA_CPU_VEC(float, float, 8, 16)
CUDA_CPU_VEC(double, double, 16, 16)
#undef CUDA_CPU_VEC

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1) : x(x), y(y), z(z) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};

/* Set by the scheduler for the thread (fiber) it runs. */
extern __thread uint3 threadIdx, blockIdx;
extern __thread dim3 blockDim, gridDim;
constexpr int warpSize = 32;

namespace cucc {
enum WarpOp { SYNCWARP, SHFL, SHFL_UP, SHFL_DOWN, SHFL_XOR, BALLOT, ALL, ANY, MATCH_ANY };
enum BarrierOp { SYNCTHREADS, SYNCTHREADS_COUNT, SYNCTHREADS_AND, SYNCTHREADS_OR };
unsigned long long warp_op(WarpOp op, unsigned mask, unsigned long long v, int arg, int width,
                           const char *file, int line);
int barrier(BarrierOp op, int pred, const char *file, int line);
unsigned lockstep(const volatile void *p, bool write, const char *file, int line);
void yield();
extern __thread unsigned char *dynamic_smem;
/* Registers a static __shared__ variable of the running worker, poisoned before each block. */
struct Poison {
    Poison(const volatile void *p, size_t size, const char *name);
};
/* The same for the race checker, called each time a thread passes the declaration: a static
   object's guard, written by one fiber and read by the others, would look like a race. */
void shared_variable(const volatile void *p, size_t size, const char *name);
/* The race checker's view of atomics and fences (cucc --racecheck), the PTX memory model's
   fence-fence synchronisation: an atomic after a __threadfence publishes what the thread
   wrote before it; a __threadfence after an atomic of the block takes in what was published
   through that word. Atomics alone order nothing. True: TSan sees the atomic's access, which
   is one of shared memory, where a plain access racing with it is a race of the block (no
   barrier between). The others it does not see: a check of the word before an atomic
   (`if (d < *o) atomicMin(o, d)`), a CAS loop's first read, are idioms on global memory. */
bool atomic_seen(const volatile void *p);
void fence();

template <class T>
unsigned long long bits(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp ops move 8 bytes at most");
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T>
T unbits(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* What cucc makes of `volatile T *`: every access is a step the warp's lanes take together,
   as warp-synchronous code expects (and CUDA_CPU_STRICT=1 reports as a race). */
template <class T>
struct vref {
    volatile T *p;
    const char *file;
    int line;
    T load() const
    {
        lockstep(p, false, file, line);
        return *p;
    }
    void store(T v) const
    {
        lockstep(p, true, file, line);
        *p = v;
    }
    operator T() const { return load(); }
    const vref &operator=(T v) const
    {
        store(v);
        return *this;
    }
    const vref &operator=(const vref &o) const
    {
        store(o.load());
        return *this;
    }
#define CUDA_CPU_OP(op)                   \
    const vref &operator op##=(T v) const \
    {                                     \
        store(load() op v);               \
        return *this;                     \
    }
    CUDA_CPU_OP(+);
    CUDA_CPU_OP(-);
    CUDA_CPU_OP(*);
    CUDA_CPU_OP(/);
    CUDA_CPU_OP(%);
    CUDA_CPU_OP(&);
    CUDA_CPU_OP(|);
    CUDA_CPU_OP(^);
    CUDA_CPU_OP(<<);
    CUDA_CPU_OP(>>);
#undef CUDA_CPU_OP
    T operator++(int) const
    {
        T v = load();
        store(v + 1);
        return v;
    }
    T operator--(int) const
    {
        T v = load();
        store(v - 1);
        return v;
    }
    const vref &operator++() const
    {
        return *this += 1;
    }
    const vref &operator--() const
    {
        return *this -= 1;
    }
};
template <class T>
struct vptr {
    volatile T *p;
    const char *file;
    int line;
    vptr() : p(nullptr), file(""), line(0) {}
    vptr(volatile T *q, const char *f = __builtin_FILE(), int l = __builtin_LINE())
        : p(q), file(f), line(l)
    {
    }
    template <class I>
    vref<T> operator[](I i) const
    {
        return {p + i, file, line};
    }
    vref<T> operator*() const { return {p, file, line}; }
    template <class I>
    vptr operator+(I i) const
    {
        return {p + i, file, line};
    }
    template <class I>
    vptr operator-(I i) const
    {
        return {p - i, file, line};
    }
    template <class I>
    vptr &operator+=(I i)
    {
        p += i;
        return *this;
    }
    template <class I>
    vptr &operator-=(I i)
    {
        p -= i;
        return *this;
    }
    vptr &operator++()
    {
        ++p;
        return *this;
    }
    vptr &operator--()
    {
        --p;
        return *this;
    }
    explicit operator bool() const { return p != nullptr; }
};

/* k<<<grid, block, smem, stream>>>(args) becomes Launch(grid, block, smem, stream).go(...)(args):
   the kernel and its arguments are copied once (as CUDA copies them: the launch may run after
   the caller's variables are gone), then the arguments are passed by value to every thread. */
struct Kernel {
    const char *name, *file;
    int line;
    std::shared_ptr<const void> call; /* a Bound: the kernel and its arguments */
    void (*invoke)(const void *call);
};
/* (k by value, its copy of the arguments moved in: the program's code keeps no reference that
   it would drop while the launch runs, which the race checker would see as a race) */
void launch(Kernel k, dim3 grid, dim3 block, size_t smem, cudaStream_t stream);

template <class Fn, class Tuple>
struct Bound {
    Fn fn;
    Tuple args;
};
template <class Fn, class Tuple, size_t... I>
void apply(const Bound<Fn, Tuple> &b, std::index_sequence<I...>)
{
    b.fn(std::get<I>(b.args)...);
}
template <class Fn, class Tuple>
void invoke(const void *call)
{
    apply(*static_cast<const Bound<Fn, Tuple> *>(call),
          std::make_index_sequence<std::tuple_size<Tuple>::value>());
}
struct Launch {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
    Launch(dim3 g, dim3 b, size_t smem = 0, cudaStream_t s = 0)
        : grid(g), block(b), smem(smem), stream(s)
    {
    }
    template <class F>
    struct Call {
        const Launch &cfg;
        const char *name, *file;
        int line;
        const F &f;
        template <class... A>
        void operator()(A &&...a) const
        {
            using Fn = typename std::decay<F>::type;
            using Args = std::tuple<typename std::decay<A>::type...>;
            auto call =
                std::make_shared<Bound<Fn, Args>>(Bound<Fn, Args>{f, Args(std::forward<A>(a)...)});
            launch({name, file, line, std::move(call), invoke<Fn, Args>}, cfg.grid, cfg.block,
                   cfg.smem, cfg.stream);
        }
    };
    template <class F>
    Call<F> go(const char *name, const char *file, int line, const F &f) const
    {
        return {*this, name, file, line, f};
    }
};
cudaError_t symbol_copy(void *dst, const void *src, size_t count, size_t offset, size_t size,
                        cudaMemcpyKind kind, cudaMemcpyKind want);
void device_symbol(const void *p, size_t size); /* its address: device memory for copies */
} // namespace cucc

/* What cucc-rewrite puts after a function's `__shared__ T name[..];`: the variable is
   registered with the worker, and poisoned before each block. */
#ifdef __SANITIZE_THREAD__
#define CUCC_SHARED(name) ::cucc::shared_variable(&name, sizeof name, #name)
#else
#define CUCC_SHARED(name) \
    static thread_local ::cucc::Poison cucc_poison_##name(&name, sizeof name, #name)
#endif

#include "cuda_cpu/collectives.h" /* barriers and warp collectives */
#include "cuda_cpu/atomics.h"     /* atomics and fences */
#include "cuda_cpu/intrinsics.h"  /* math and intrinsics */
#include "cuda_cpu/texture.h"     /* texture fetches */

/* The C++ forms of the runtime API. */
template <class T>
cudaError_t cudaMalloc(T **p, size_t n)
{
    return cudaMalloc((void **)p, n);
}
template <class T>
cudaError_t cudaMallocHost(T **p, size_t n)
{
    return cudaMallocHost((void **)p, n);
}
template <class T>
cudaError_t cudaHostAlloc(T **p, size_t n, unsigned flags)
{
    return cudaHostAlloc((void **)p, n, flags);
}
template <class T>
cudaError_t cudaMallocManaged(T **p, size_t n, unsigned flags = 1)
{
    return cudaMallocManaged((void **)p, n, flags);
}
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags)
{
    return cudaEventCreateWithFlags(e, flags);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return cucc::symbol_copy((char *)&symbol, src, count, offset, sizeof(T), kind,
                             cudaMemcpyHostToDevice);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return cucc::symbol_copy(dst, (const char *)&symbol, count, offset, sizeof(T), kind,
                             cudaMemcpyDeviceToHost);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                    size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = 0)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = 0)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void **p, const T &symbol)
{
    *p = (void *)&symbol;
    cucc::device_symbol(&symbol, sizeof(T));
    return cudaSuccess;
}
template <class T>
cudaError_t cudaFuncSetAttribute(T *f, cudaFuncAttribute a, int v)
{
    return cudaFuncSetAttribute((const void *)f, a, v);
}
template <class T>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, T *f)
{
    return cudaFuncGetAttributes(a, (const void *)f);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T f, int block, size_t smem)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, block, smem);
}
/* The largest block (the limit or a multiple of 32) that keeps the most threads resident, and
   the grid that fills every SM with it. */
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, T f, size_t smem = 0,
                                               int limit = 0)
{
    if (!min_grid || !block)
        return cudaErrorInvalidValue;
    int best = 0, blocks, sms;
    *block = 0;
    for (int b = limit > 0 && limit < 1024 ? limit : 1024; b > 0; b = (b - 1) / 32 * 32) {
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, b, smem);
        if (e)
            return e;
        if (blocks * b > best)
            best = blocks * b, *block = b;
    }
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    *min_grid = *block ? best / *block * sms : 0;
    return cudaSuccess;
}
template <class T>
cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)p, pitch, width, height);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T **device, void *host, unsigned flags)
{
    return cudaHostGetDevicePointer((void **)device, host, flags);
}
#define CUDA_CPU_RUNTIME_END /* the copies through macros that pass their call site */
#include "cuda_runtime_api.h"
#endif
#endif
