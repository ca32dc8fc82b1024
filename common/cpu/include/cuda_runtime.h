/* CUDA C++ for the CPU backend: what g++ needs to read a .cu file once cucc has rewritten its
   launches, dynamic shared arrays and volatile pointers. runtime.cpp runs the kernels. */
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
   the arguments are copied once (as CUDA copies them), then passed by value to every thread. */
struct Kernel {
    const char *name, *file;
    int line;
    const void *fn, *args;
    void (*invoke)(const void *fn, const void *args);
};
void launch(const Kernel &k, dim3 grid, dim3 block, size_t smem, cudaStream_t stream);

template <class F, class Tuple, size_t... I>
void apply(const F &f, const Tuple &t, std::index_sequence<I...>)
{
    f(std::get<I>(t)...);
}
template <class F, class Tuple>
void invoke(const void *fn, const void *args)
{
    apply(*static_cast<const F *>(fn), *static_cast<const Tuple *>(args),
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
            std::tuple<typename std::decay<A>::type...> args(std::forward<A>(a)...);
            launch({name, file, line, &f, &args, invoke<F, decltype(args)>}, cfg.grid, cfg.block,
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

/* Barriers and warp collectives: the caller's file and line name the place in diagnostics. */
#define CUDA_CPU_AT const char *file_ = __builtin_FILE(), int line_ = __builtin_LINE()
static inline void __syncthreads(CUDA_CPU_AT)
{
    cucc::barrier(cucc::SYNCTHREADS, 1, file_, line_);
}
static inline int __syncthreads_count(int p, CUDA_CPU_AT)
{
    return cucc::barrier(cucc::SYNCTHREADS_COUNT, p, file_, line_);
}
static inline int __syncthreads_and(int p, CUDA_CPU_AT)
{
    return cucc::barrier(cucc::SYNCTHREADS_AND, p, file_, line_);
}
static inline int __syncthreads_or(int p, CUDA_CPU_AT)
{
    return cucc::barrier(cucc::SYNCTHREADS_OR, p, file_, line_);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, CUDA_CPU_AT)
{
    cucc::warp_op(cucc::SYNCWARP, mask, 0, 0, 32, file_, line_);
}
namespace cucc {
/* A shuffle moves 8 bytes: larger types (double2, float4, structs) go in 8-byte parts. */
template <class T>
T shuffle(WarpOp op, unsigned mask, T v, int arg, int width, const char *file, int line)
{
    static_assert(std::is_trivially_copyable<T>::value, "shuffles move trivially copyable types");
    unsigned long long part[(sizeof(T) + 7) / 8] = {};
    memcpy(part, &v, sizeof v);
    for (auto &p : part)
        p = warp_op(op, mask, p, arg, width, file, line);
    memcpy(&v, part, sizeof v);
    return v;
}
} // namespace cucc
#define CUDA_CPU_SHFL(name, op, A)                                              \
    template <class T>                                                          \
    T name(unsigned mask, T v, A arg, int width = warpSize, CUDA_CPU_AT)        \
    {                                                                           \
        return cucc::shuffle(cucc::op, mask, v, (int)arg, width, file_, line_); \
    }
CUDA_CPU_SHFL(__shfl_sync, SHFL, int)
CUDA_CPU_SHFL(__shfl_up_sync, SHFL_UP, unsigned)
CUDA_CPU_SHFL(__shfl_down_sync, SHFL_DOWN, unsigned)
CUDA_CPU_SHFL(__shfl_xor_sync, SHFL_XOR, int)
#undef CUDA_CPU_SHFL
static inline unsigned __ballot_sync(unsigned mask, int p, CUDA_CPU_AT)
{
    return (unsigned)cucc::warp_op(cucc::BALLOT, mask, p != 0, 0, 32, file_, line_);
}
static inline int __all_sync(unsigned mask, int p, CUDA_CPU_AT)
{
    return (int)cucc::warp_op(cucc::ALL, mask, p != 0, 0, 32, file_, line_);
}
static inline int __any_sync(unsigned mask, int p, CUDA_CPU_AT)
{
    return (int)cucc::warp_op(cucc::ANY, mask, p != 0, 0, 32, file_, line_);
}
template <class T>
unsigned __match_any_sync(unsigned mask, T v, CUDA_CPU_AT)
{
    return (unsigned)cucc::warp_op(cucc::MATCH_ANY, mask, cucc::bits(v), 0, 32, file_, line_);
}
/* The lanes that reach this same __activemask() together (the converged ones, as on a GPU). */
static inline unsigned __activemask(CUDA_CPU_AT)
{
    return cucc::lockstep(nullptr, false, file_, line_);
}
#undef CUDA_CPU_AT

/* What cucc-rewrite puts after a function's `__shared__ T name[..];`: the variable is
   registered with the worker, and poisoned before each block. */
#ifdef __SANITIZE_THREAD__
#define CUCC_SHARED(name) ::cucc::shared_variable(&name, sizeof name, #name)
extern "C" void __tsan_ignore_thread_begin(void);
extern "C" void __tsan_ignore_thread_end(void);
namespace cucc {
struct atomic_access { // for the atomic's scope; an atomicCAS is never seen (its loop's guess)
    bool unseen;
    atomic_access(const volatile void *p, bool cas) : unseen(!atomic_seen(p) || cas)
    {
        if (unseen)
            __tsan_ignore_thread_begin();
    }
    ~atomic_access()
    {
        if (unseen)
            __tsan_ignore_thread_end();
    }
};
} // namespace cucc
#define CUDA_CPU_ATOMIC_HOOK(p) ::cucc::atomic_access cucc_atomic(p, false)
#define CUDA_CPU_CAS_HOOK(p) ::cucc::atomic_access cucc_atomic(p, true)
#else
#define CUCC_SHARED(name) \
    static thread_local ::cucc::Poison cucc_poison_##name(&name, sizeof name, #name)
#define CUDA_CPU_ATOMIC_HOOK(p) ((void)0)
#define CUDA_CPU_CAS_HOOK(p) ((void)0)
#endif

/* Atomics: real ones, as blocks may run on several workers (CUDA_CPU_WORKERS). CAS and Exch
   also let the other threads run, so that a spin lock inside a block makes progress. */
namespace cucc {
template <class T, class F>
T atomic_update(T *p, F f)
{
    T old, next;
    CUDA_CPU_ATOMIC_HOOK(p);
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    do
        next = f(old);
    while (!__atomic_compare_exchange(p, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
} // namespace cucc
#define CUDA_CPU_ATOMIC(name, T, expr)                                 \
    static inline T name(T *p, T v)                                    \
    {                                                                  \
        return cucc::atomic_update(p, [v](T o) -> T { return expr; }); \
    }
#define CUDA_CPU_ATOMIC_INT(T)                                                              \
    static inline T atomicAdd(T *p, T v)                                                    \
    {                                                                                       \
        CUDA_CPU_ATOMIC_HOOK(p);                                                            \
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                                  \
    }                                                                                       \
    static inline T atomicAnd(T *p, T v)                                                    \
    {                                                                                       \
        CUDA_CPU_ATOMIC_HOOK(p);                                                            \
        return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);                                  \
    }                                                                                       \
    static inline T atomicOr(T *p, T v)                                                     \
    {                                                                                       \
        CUDA_CPU_ATOMIC_HOOK(p);                                                            \
        return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);                                   \
    }                                                                                       \
    static inline T atomicXor(T *p, T v)                                                    \
    {                                                                                       \
        CUDA_CPU_ATOMIC_HOOK(p);                                                            \
        return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);                                  \
    }                                                                                       \
    static inline T atomicExch(T *p, T v)                                                   \
    {                                                                                       \
        CUDA_CPU_ATOMIC_HOOK(p);                                                            \
        T o = __atomic_exchange_n(p, v, __ATOMIC_RELAXED);                                  \
        cucc::yield();                                                                      \
        return o;                                                                           \
    }                                                                                       \
    static inline T atomicCAS(T *p, T cmp, T v)                                             \
    {                                                                                       \
        CUDA_CPU_CAS_HOOK(p);                                                               \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        cucc::yield();                                                                      \
        return cmp;                                                                         \
    }                                                                                       \
    CUDA_CPU_ATOMIC(atomicMin, T, o < v ? o : v)                                            \
    CUDA_CPU_ATOMIC(atomicMax, T, o > v ? o : v)
CUDA_CPU_ATOMIC_INT(int)
CUDA_CPU_ATOMIC_INT(unsigned int)
CUDA_CPU_ATOMIC_INT(unsigned long long)
CUDA_CPU_ATOMIC(atomicMin, long long, o < v ? o : v)
CUDA_CPU_ATOMIC(atomicMax, long long, o > v ? o : v)
static inline int atomicSub(int *p, int v)
{
    CUDA_CPU_ATOMIC_HOOK(p);
    return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
}
static inline unsigned atomicSub(unsigned *p, unsigned v)
{
    CUDA_CPU_ATOMIC_HOOK(p);
    return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
}
CUDA_CPU_ATOMIC(atomicInc, unsigned, o >= v ? 0 : o + 1)
CUDA_CPU_ATOMIC(atomicDec, unsigned, o == 0 || o > v ? v : o - 1)
CUDA_CPU_ATOMIC(atomicAdd, float, o + v)
CUDA_CPU_ATOMIC(atomicAdd, double, o + v)
static inline float atomicExch(float *p, float v)
{
    float o;
    CUDA_CPU_ATOMIC_HOOK(p);
    __atomic_exchange(p, &v, &o, __ATOMIC_RELAXED);
    cucc::yield();
    return o;
}
#undef CUDA_CPU_ATOMIC_INT
#undef CUDA_CPU_ATOMIC
#define CUDA_CPU_SCOPED(name)  \
    template <class... A>      \
    auto name##_block(A... a)  \
    {                          \
        return name(a...);     \
    }                          \
    template <class... A>      \
    auto name##_system(A... a) \
    {                          \
        return name(a...);     \
    }
CUDA_CPU_SCOPED(atomicAdd);
CUDA_CPU_SCOPED(atomicSub);
CUDA_CPU_SCOPED(atomicExch);
CUDA_CPU_SCOPED(atomicMin);
CUDA_CPU_SCOPED(atomicMax);
CUDA_CPU_SCOPED(atomicInc);
CUDA_CPU_SCOPED(atomicDec);
CUDA_CPU_SCOPED(atomicCAS);
CUDA_CPU_SCOPED(atomicAnd);
CUDA_CPU_SCOPED(atomicOr);
CUDA_CPU_SCOPED(atomicXor);
#undef CUDA_CPU_SCOPED
static inline void __threadfence()
{
#ifdef __SANITIZE_THREAD__
    cucc::fence(); /* TSan has no fences: the runtime says what this one orders */
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
static inline void __threadfence_block()
{
    __threadfence();
}
static inline void __threadfence_system()
{
    __threadfence();
}

/* Math and intrinsics: the fast approximations are the exact functions here (glibc already
   has __expf, __logf, __sinf, __cosf, __powf, ...). */
#define CUDA_CPU_MINMAX(T)        \
    static inline T min(T a, T b) \
    {                             \
        return a < b ? a : b;     \
    }                             \
    static inline T max(T a, T b) \
    {                             \
        return a > b ? a : b;     \
    }
CUDA_CPU_MINMAX(int);
CUDA_CPU_MINMAX(unsigned int);
CUDA_CPU_MINMAX(long);
CUDA_CPU_MINMAX(unsigned long);
CUDA_CPU_MINMAX(long long);
CUDA_CPU_MINMAX(unsigned long long);
CUDA_CPU_MINMAX(float);
CUDA_CPU_MINMAX(double);
#undef CUDA_CPU_MINMAX
static inline unsigned min(int a, unsigned b)
{
    return min((unsigned)a, b);
}
static inline unsigned min(unsigned a, int b)
{
    return min(a, (unsigned)b);
}
static inline unsigned max(int a, unsigned b)
{
    return max((unsigned)a, b);
}
static inline unsigned max(unsigned a, int b)
{
    return max(a, (unsigned)b);
}
static inline double min(float a, double b)
{
    return min((double)a, b);
}
static inline double min(double a, float b)
{
    return min(a, (double)b);
}
static inline double max(float a, double b)
{
    return max((double)a, b);
}
static inline double max(double a, float b)
{
    return max(a, (double)b);
}
#define CUDA_CPU_MINMAX(name, T, op) \
    static inline T name(T a, T b)   \
    {                                \
        return a op b ? a : b;       \
    }
CUDA_CPU_MINMAX(umin, unsigned int, <)
CUDA_CPU_MINMAX(umax, unsigned int, >)
CUDA_CPU_MINMAX(llmin, long long, <)
CUDA_CPU_MINMAX(llmax, long long, >)
CUDA_CPU_MINMAX(ullmin, unsigned long long, <)
CUDA_CPU_MINMAX(ullmax, unsigned long long, >)
#undef CUDA_CPU_MINMAX
static inline float rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
static inline double rsqrt(double x)
{
    return 1.0 / sqrt(x);
}
static inline float __fdividef(float a, float b)
{
    return a / b;
}
static inline float fdividef(float a, float b)
{
    return a / b;
}
static inline float __saturatef(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
static inline float __fadd_rn(float a, float b)
{
    return a + b;
}
static inline float __fsub_rn(float a, float b)
{
    return a - b;
}
static inline float __fmul_rn(float a, float b)
{
    return a * b;
}
static inline float __fdiv_rn(float a, float b)
{
    return a / b;
}
static inline float __frcp_rn(float a)
{
    return 1.0f / a;
}
static inline float __fsqrt_rn(float a)
{
    return sqrtf(a);
}
static inline float __fmaf_rn(float a, float b, float c)
{
    return fmaf(a, b, c);
}
static inline double __dadd_rn(double a, double b)
{
    return a + b;
}
static inline double __dmul_rn(double a, double b)
{
    return a * b;
}
static inline double __fma_rn(double a, double b, double c)
{
    return fma(a, b, c);
}
static inline int __float_as_int(float x)
{
    return cucc::unbits<int>(cucc::bits(x));
}
static inline unsigned __float_as_uint(float x)
{
    return cucc::unbits<unsigned>(cucc::bits(x));
}
static inline float __int_as_float(int x)
{
    return cucc::unbits<float>(cucc::bits(x));
}
static inline float __uint_as_float(unsigned x)
{
    return cucc::unbits<float>(cucc::bits(x));
}
static inline long long __double_as_longlong(double x)
{
    return cucc::unbits<long long>(cucc::bits(x));
}
static inline double __longlong_as_double(long long x)
{
    return cucc::unbits<double>(cucc::bits(x));
}
static inline int __float2int_rn(float x)
{
    return (int)nearbyintf(x);
}
static inline int __float2int_rz(float x)
{
    return (int)x;
}
static inline int __float2int_rd(float x)
{
    return (int)floorf(x);
}
static inline int __float2int_ru(float x)
{
    return (int)ceilf(x);
}
static inline unsigned __float2uint_rn(float x)
{
    return (unsigned)nearbyintf(x);
}
static inline float __int2float_rn(int x)
{
    return (float)x;
}
static inline float __uint2float_rn(unsigned x)
{
    return (float)x;
}
static inline int __double2int_rn(double x)
{
    return (int)nearbyint(x);
}
static inline int __popc(unsigned x)
{
    return __builtin_popcount(x);
}
static inline int __popcll(unsigned long long x)
{
    return __builtin_popcountll(x);
}
static inline int __clz(int x)
{
    return x ? __builtin_clz((unsigned)x) : 32;
}
static inline int __clzll(long long x)
{
    return x ? __builtin_clzll((unsigned long long)x) : 64;
}
static inline int __ffs(int x)
{
    return __builtin_ffs(x);
}
static inline int __ffsll(long long x)
{
    return __builtin_ffsll(x);
}
static inline unsigned __brev(unsigned x)
{
    x = (x >> 16) | (x << 16);
    x = ((x & 0xff00ff00u) >> 8) | ((x & 0x00ff00ffu) << 8);
    x = ((x & 0xf0f0f0f0u) >> 4) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x & 0xccccccccu) >> 2) | ((x & 0x33333333u) << 2);
    return ((x & 0xaaaaaaaau) >> 1) | ((x & 0x55555555u) << 1);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline int __mul24(int a, int b)
{
    return (int)((long long)(a << 8 >> 8) * (b << 8 >> 8));
}
static inline unsigned __umul24(unsigned a, unsigned b)
{
    return (a & 0xffffffu) * (b & 0xffffffu);
}
static inline int __mulhi(int a, int b)
{
    return (int)(((long long)a * b) >> 32);
}
static inline unsigned __umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline long long __mul64hi(long long a, long long b)
{
    return (long long)(((__int128)a * b) >> 64);
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
template <class T>
static inline T __ldg(const T *p)
{
    return *p;
}
static inline long long clock64()
{
    return (long long)__builtin_ia32_rdtsc();
}
static inline void __nanosleep(unsigned ns)
{
    (void)ns;
    cucc::yield();
}
static inline void __trap()
{
    __builtin_trap();
}

/* Texture fetches, with a GPU's addressing, filtering and conversions (runtime.cpp). */
namespace cucc {
void texture_fetch(cudaTextureObject_t t, int dims, float x, float y, int index, void *out,
                   size_t size);
template <class T>
struct channels { /* what cudaCreateChannelDesc<T> describes */
    enum { n = 0, bits = 0 };
    static const cudaChannelFormatKind kind = cudaChannelFormatKindNone;
};
#define CUDA_CPU_CHANNELS(T, N, K)                   \
    template <>                                      \
    struct channels<T> {                             \
        enum { n = N, bits = 8 * sizeof(T) / N };    \
        static const cudaChannelFormatKind kind = K; \
    };
#define CUDA_CPU_CHANNEL_TYPES(T, V, K) \
    CUDA_CPU_CHANNELS(T, 1, K)          \
    CUDA_CPU_CHANNELS(V##1, 1, K)       \
    CUDA_CPU_CHANNELS(V##2, 2, K)       \
    CUDA_CPU_CHANNELS(V##4, 4, K)
CUDA_CPU_CHANNELS(char, 1,
                  (char)-1 < 0 ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(signed char, char, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned char, uchar, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(short, short, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned short, ushort, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(int, int, cudaChannelFormatKindSigned)
CUDA_CPU_CHANNEL_TYPES(unsigned int, uint, cudaChannelFormatKindUnsigned)
CUDA_CPU_CHANNEL_TYPES(float, float, cudaChannelFormatKindFloat)
#undef CUDA_CPU_CHANNEL_TYPES
#undef CUDA_CPU_CHANNELS
} // namespace cucc
template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc()
{
    typedef cucc::channels<T> c;
    return cudaCreateChannelDesc(c::bits, c::n > 1 ? c::bits : 0, c::n > 2 ? c::bits : 0,
                                 c::n > 3 ? c::bits : 0, c::kind);
}
template <class T>
T tex1Dfetch(cudaTextureObject_t t, int x)
{
    T v;
    cucc::texture_fetch(t, 0, 0, 0, x, &v, sizeof v);
    return v;
}
template <class T>
T tex1D(cudaTextureObject_t t, float x)
{
    T v;
    cucc::texture_fetch(t, 1, x, 0, 0, &v, sizeof v);
    return v;
}
template <class T>
T tex2D(cudaTextureObject_t t, float x, float y)
{
    T v;
    cucc::texture_fetch(t, 2, x, y, 0, &v, sizeof v);
    return v;
}
template <class T>
void tex1Dfetch(T *v, cudaTextureObject_t t, int x)
{
    *v = tex1Dfetch<T>(t, x);
}
template <class T>
void tex1D(T *v, cudaTextureObject_t t, float x)
{
    *v = tex1D<T>(t, x);
}
template <class T>
void tex2D(T *v, cudaTextureObject_t t, float x, float y)
{
    *v = tex2D<T>(t, x, y);
}

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
