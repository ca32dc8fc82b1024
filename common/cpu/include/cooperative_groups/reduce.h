/* cg::reduce for the CPU backend: over a tile's shuffles (a butterfly, so that every thread of
   the tile gets the same value), or for tiles of more than 32 threads, a warp's shuffles and the
   block's barrier. */
#ifndef CUDA_CPU_COOPERATIVE_GROUPS_REDUCE_H
#define CUDA_CPU_COOPERATIVE_GROUPS_REDUCE_H
#pragma GCC system_header
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned Size, class T, class Op>
T reduce(const thread_block_tile<Size, void> &g, T v, Op op, const char *file_ = __builtin_FILE(),
         int line_ = __builtin_LINE())
{
    if (Size <= 32) {
        for (unsigned o = Size / 2; o; o >>= 1)
            v = op(v, cucc::shuffle(cucc::SHFL_XOR, details::tile_mask(Size), v, (int)o,
                                    Size <= 32 ? (int)Size : 32, file_, line_));
        return v;
    }
    static_assert(Size <= 32 || sizeof(T) <= 8, "a tile of more than 32 threads reduces 8 bytes");
    static thread_local unsigned long long partial[32]; // a warp's sum each, as __shared__ is
    CUCC_SHARED(partial);                               // fresh for each block, as __shared__ is
    for (unsigned o = 16; o; o >>= 1)
        v = op(v, cucc::shuffle(cucc::SHFL_XOR, ~0u, v, (int)o, 32, file_, line_));
    unsigned warp = details::block_rank() / 32, first = warp / (Size / 32) * (Size / 32);
    if (details::block_rank() % 32 == 0)
        partial[warp] = cucc::bits(v);
    g.sync(file_, line_);
    T sum = cucc::unbits<T>(partial[first]);
    for (unsigned k = 1; k < Size / 32; k++)
        sum = op(sum, cucc::unbits<T>(partial[first + k]));
    g.sync(file_, line_);
    return sum;
}
} // namespace cooperative_groups
#endif
