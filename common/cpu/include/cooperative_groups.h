/* Cooperative groups for the CPU backend: the thread block and its tiles, over the backend's own
   barrier and warp collectives, so that its checks (barrier divergence, deadlocks, each with its
   line) apply to them. Every call takes its caller's file and line, as __syncthreads does. */
#ifndef CUDA_CPU_COOPERATIVE_GROUPS_H
#define CUDA_CPU_COOPERATIVE_GROUPS_H
#pragma GCC system_header
#include "cuda_runtime.h"

namespace cooperative_groups {
#define CUDA_CPU_AT const char *file_ = __builtin_FILE(), int line_ = __builtin_LINE()

namespace details {
static inline unsigned block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static inline unsigned block_size()
{
    return blockDim.x * blockDim.y * blockDim.z;
}
/* The lanes of the tile of `size` threads (a power of two up to 32) that holds this thread. */
static inline unsigned tile_mask(unsigned size)
{
    unsigned lanes = size >= 32 ? ~0u : (1u << size) - 1;
    return size >= 32 ? lanes : lanes << (block_rank() % 32 & ~(size - 1));
}
static inline unsigned tile_base(unsigned size)
{
    return size >= 32 ? 0 : block_rank() % 32 & ~(size - 1);
}
} // namespace details

/* Any group: what is common to the block and its tiles. */
class thread_group {
  protected:
    unsigned size_, rank_, mask_; // mask_: the warp's lanes of a tile; 0 for the whole block
    thread_group(unsigned size, unsigned rank, unsigned mask)
        : size_(size), rank_(rank), mask_(mask)
    {
    }

  public:
    void sync(CUDA_CPU_AT) const
    {
        if (mask_)
            cucc::warp_op(cucc::SYNCWARP, mask_, 0, 0, 32, file_, line_);
        else
            cucc::barrier(cucc::SYNCTHREADS, 1, file_, line_);
    }
    unsigned size() const { return size_; }
    unsigned long long num_threads() const { return size_; }
    unsigned thread_rank() const { return rank_; }
    bool is_valid() const { return size_ != 0; }
};

/* Scratch for tiles of more than 32 threads (ignored here: the backend has its own). */
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
    unsigned long long scratch[MaxBlockSize / 32];
};

class thread_block : public thread_group {
  public:
    thread_block() : thread_group(details::block_size(), details::block_rank(), 0) {}
    static void sync(CUDA_CPU_AT) { cucc::barrier(cucc::SYNCTHREADS, 1, file_, line_); }
    static unsigned size() { return details::block_size(); }
    static unsigned num_threads() { return details::block_size(); }
    static unsigned thread_rank() { return details::block_rank(); }
    static dim3 group_index() { return blockIdx; }
    static dim3 thread_index() { return threadIdx; }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};

static inline thread_block this_thread_block()
{
    return thread_block();
}
template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize> &)
{
    return thread_block();
}

/* A tile of Size threads (a power of two). Up to 32 it is part of a warp and has the warp's
   collectives, with the tile's lanes as their mask and its size as their width. Larger tiles
   sync the whole block (every tile must reach the same sync) and have cg::reduce only. */
template <unsigned Size, class Parent = void>
class thread_block_tile;

template <unsigned Size>
class thread_block_tile<Size, void> : public thread_group {
    static_assert(Size && !(Size & (Size - 1)) && Size <= 1024,
                  "a tile's size is a power of two, 1 to 1024");
    unsigned meta_rank_, meta_size_;

  protected:
    static unsigned mask() { return details::tile_mask(Size); }
    template <class T>
    static T shuffle(cucc::WarpOp op, T v, int arg, const char *file, int line)
    {
        static_assert(Size <= 32, "shuffles need a tile of at most 32 threads");
        return cucc::shuffle(op, mask(), v, arg, (int)Size, file, line);
    }
    unsigned long long vote(cucc::WarpOp op, unsigned long long v, const char *file, int line) const
    {
        static_assert(Size <= 32, "votes need a tile of at most 32 threads");
        return cucc::warp_op(op, mask(), v, 0, 32, file, line) >> details::tile_base(Size);
    }

  public:
    thread_block_tile(unsigned meta_rank, unsigned meta_size)
        : thread_group(Size, details::block_rank() % Size, Size <= 32 ? mask() : 0),
          meta_rank_(meta_rank), meta_size_(meta_size)
    {
    }
    static unsigned size() { return Size; }
    static unsigned num_threads() { return Size; }
    static unsigned thread_rank() { return details::block_rank() % Size; }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    static void sync(CUDA_CPU_AT)
    {
        if (Size <= 32)
            cucc::warp_op(cucc::SYNCWARP, mask(), 0, 0, 32, file_, line_);
        else
            cucc::barrier(cucc::SYNCTHREADS, 1, file_, line_);
    }
    template <class T>
    T shfl(T v, int src_rank, CUDA_CPU_AT) const
    {
        return shuffle(cucc::SHFL, v, src_rank, file_, line_);
    }
    template <class T>
    T shfl_down(T v, unsigned delta, CUDA_CPU_AT) const
    {
        return shuffle(cucc::SHFL_DOWN, v, (int)delta, file_, line_);
    }
    template <class T>
    T shfl_up(T v, unsigned delta, CUDA_CPU_AT) const
    {
        return shuffle(cucc::SHFL_UP, v, (int)delta, file_, line_);
    }
    template <class T>
    T shfl_xor(T v, unsigned lane_mask, CUDA_CPU_AT) const
    {
        return shuffle(cucc::SHFL_XOR, v, (int)lane_mask, file_, line_);
    }
    /* As CUDA's: a ballot of the tile's lanes, so that all() of a partial tile is false. */
    int any(int pred, CUDA_CPU_AT) const
    {
        return vote(cucc::BALLOT, pred != 0, file_, line_) != 0;
    }
    int all(int pred, CUDA_CPU_AT) const
    {
        return vote(cucc::BALLOT, pred != 0, file_, line_) == mask() >> details::tile_base(Size);
    }
    unsigned ballot(int pred, CUDA_CPU_AT) const
    {
        return (unsigned)vote(cucc::BALLOT, pred != 0, file_, line_);
    }
    template <class T>
    unsigned match_any(T v, CUDA_CPU_AT) const
    {
        return (unsigned)vote(cucc::MATCH_ANY, cucc::bits(v), file_, line_);
    }
};

template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
  public:
    explicit thread_block_tile(const Parent &parent)
        : thread_block_tile<Size, void>(parent.thread_rank() / Size,
                                        (parent.size() + Size - 1) / Size)
    {
    }
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent &parent)
{
    return thread_block_tile<Size, Parent>(parent);
}

/* A tile whose size is known at run time (a power of two): sync, size and rank. */
class dynamic_tile : public thread_group {
  public:
    dynamic_tile(unsigned rank, unsigned size)
        : thread_group(size, rank % size, size <= 32 ? details::tile_mask(size) : 0)
    {
    }
};
static inline thread_group tiled_partition(const thread_group &parent, unsigned size)
{
    return dynamic_tile(parent.thread_rank(), size);
}

template <class Group>
void sync(const Group &g, CUDA_CPU_AT)
{
    g.sync(file_, line_);
}
#undef CUDA_CPU_AT
} // namespace cooperative_groups
#endif
