/* The CPU backend's barriers (__syncthreads...) and warp collectives (__syncwarp, shuffles,
   votes, __match_any_sync, __activemask): calls of the scheduler (scheduler.cpp), each with
   its caller's file and line for diagnostics.
   A part of cuda_runtime.h, which includes it: include that. */
#ifndef CUDA_CPU_COLLECTIVES_H
#define CUDA_CPU_COLLECTIVES_H
#pragma GCC system_header
#ifndef CUDA_CPU_RUNTIME_H
#error "include <cuda_runtime.h>, not this part of it"
#endif

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
#endif
