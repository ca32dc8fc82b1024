/* Cooperative groups kernels for tests/test_cpu_backend_threads.c, in a header: cucc rewrites the
 * launches and extern __shared__ of the headers a .cu includes, as nvcc compiles them. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

/* Per thread: 6 ints of the block, then 18 for each tile of 4, 16 and 32, then 4 for the tile
 * of 64. The test computes the same from the thread's value cg_value(). */
enum { CG_BLOCK = 6, CG_TILE = 18, CG_BIG = 4, CG_OUT = CG_BLOCK + 3 * CG_TILE + CG_BIG };

struct pair16 {
    long long a, b;
};

template <unsigned N, class Tile>
__device__ void tile_ops(const Tile &tile, int v, int *o, int *s)
{
    unsigned r = tile.thread_rank();
    o[0] = (int)r;
    o[1] = (int)tile.num_threads();
    o[2] = (int)tile.meta_group_rank();
    o[3] = (int)tile.meta_group_size();
    o[4] = tile.shfl(v, (int)((r + 1) % N));
    o[5] = tile.shfl_down(v, 1);
    o[6] = tile.shfl_up(v, 2);
    o[7] = tile.shfl_xor(v, N / 2 + 1);
    o[8] = tile.any(v > 40);
    o[9] = tile.all(v > -40);
    o[10] = (int)tile.ballot(v % 3 == 0);
    o[11] = cg::reduce(tile, v, cg::plus<int>());
    o[12] = cg::reduce(tile, v, cg::less<int>());
    o[13] = cg::reduce(tile, v, cg::greater<int>());
    o[14] = (int)cg::reduce(tile, (unsigned)v | 0x10u, cg::bit_and<unsigned>());
    o[15] = (int)cg::reduce(tile, 1u << (r * 7 % 31), cg::bit_or<unsigned>());
    unsigned x = (unsigned)v * 2654435761u;
    pair16 p = {(long long)x << 20, -(long long)v}; /* 16 bytes: shuffled in two parts */
    p = tile.shfl(p, (int)(N - 1 - r));
    o[16] = (int)cg::reduce(tile, x, cg::bit_xor<unsigned>()) ^ (int)(p.a >> 20) ^ (int)p.b;
    s[r] = v; /* tile.sync orders the tile's shared memory */
    tile.sync();
    o[17] = s[(r + N - 1) % N];
    tile.sync();
}

__device__ int cg_value(unsigned block, unsigned rank)
{
    return (int)((rank * 37 + block * 11) % 101) - 50;
}

__global__ void cg_kernel(int *out)
{
    extern __shared__ int cg_smem[];
    __shared__ cg::block_tile_memory<128> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    unsigned rank = cta.thread_rank();
    int v = cg_value(blockIdx.x, rank), *o = out + (blockIdx.x * cta.size() + rank) * CG_OUT;
    dim3 t = cta.thread_index(), d = cta.dim_threads();
    o[0] = (int)rank;
    o[1] = (int)cta.size();
    o[2] = (int)cta.group_index().x;
    o[3] = (int)(t.x + 100 * t.y + 10000 * t.z);
    o[4] = (int)(d.x + 100 * d.y + 10000 * d.z);
    cg_smem[rank] = v;
    cta.sync();
    o[5] = cg_smem[cta.size() - 1 - rank];
    cg::sync(cta);
    o += CG_BLOCK;
    tile_ops<4>(cg::tiled_partition<4>(cta), v, o, cg_smem + rank / 4 * 4);
    tile_ops<16>(cg::tiled_partition<16>(cta), v, o + CG_TILE, cg_smem + rank / 16 * 16);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
    tile_ops<32>(warp, v, o + 2 * CG_TILE, cg_smem + rank / 32 * 32);
    cg::thread_block_tile<64> big = cg::tiled_partition<64>(cta);
    o += 3 * CG_TILE;
    o[0] = (int)big.thread_rank();
    o[1] = (int)big.meta_group_rank();
    o[2] = (int)big.meta_group_size();
    o[3] = cg::reduce(big, v, cg::plus<int>());
}

/* Blocks of 16 x 4 x 2 threads: no partial warp, no partial tile. */
static void run_cg(int *out, int blocks)
{
    cg_kernel<<<blocks, dim3(16, 4, 2), 128 * sizeof(int)>>>(out);
}
