/* The CPU backend's atomics (Add, Sub, Min, Max, Exch, CAS, And, Or, Xor, Inc, Dec with
   CUDA's types, plus _block and _system) and __threadfence*.
   A part of cuda_runtime.h, which includes it: include that. */
#ifndef CUDA_CPU_ATOMICS_H
#define CUDA_CPU_ATOMICS_H
#pragma GCC system_header
#ifndef CUDA_CPU_RUNTIME_H
#error "include <cuda_runtime.h>, not this part of it"
#endif

/* The race checker's view of an atomic (cucc --racecheck): TSan sees only those that
   cucc::atomic_seen says it must (cuda_runtime.h says which). */
#ifdef __SANITIZE_THREAD__
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
#endif
