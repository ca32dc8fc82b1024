/* CUDA's warp matrix functions (nvcuda::wmma, <mma.h>) for the CPU backend: TF32 inputs in
   m16n16k8 fragments with a float accumulator, the shape and types of the Ampere and Hopper
   tensor cores' FP32 path. What a kernel sees is CUDA's API: fragment, fill_fragment,
   load_matrix_sync, mma_sync, store_matrix_sync, __float_to_tf32, num_elements and x[].

   How a warp's fragment lives here: CUDA leaves the mapping of elements to lanes unspecified,
   so the backend picks the simplest one that keeps the warp's semantics. An A or B fragment
   holds the whole 16 x 8 or 8 x 16 tile in every lane (each lane reads all of it); an
   accumulator is spread as on a GPU, 8 of its 256 elements a lane (lane l: row l / 2, columns
   8 (l % 2) to 8 (l % 2) + 7), so that store_matrix_sync writes each element once, from one
   lane, and a lane that reads what another lane stored needs a __syncwarp first, which the
   race checker sees. Element-wise work on x[] that treats every element alike (conversion,
   scaling) means what it means on a GPU.

   Each call is a warp collective at the caller's line: the warp's lanes meet there (a partial
   warp is reported as a mask naming absent lanes is), they must pass the same pointer, ldm and
   layout, and the pointer must be 32-byte aligned and ldm a multiple of 4 floats (16 bytes),
   as CUDA requires; a call that breaks a rule fails the launch as a failed assert() does, at
   the caller's line. The meeting orders no memory, as on a GPU.

   Rounding: __float_to_tf32 rounds to nearest, ties away from zero (PTX cvt.rna.tf32.f32), to
   10 fraction bits. mma_sync uses the TF32 bits of its inputs alone (the low 13 bits of each
   float dropped, as the hardware ignores them), forms each product exactly (11-bit by 11-bit
   significands fit a float) and adds them to the accumulator in float, k = 0..7 in order,
   rounding to nearest. A GPU's tensor core orders and rounds its additions its own way (on
   Volta to Hopper they truncate: Fasi, Higham, Mikaitis and Pranesh, PeerJ CS 2021), so results
   agree with a GPU's to within the bound of an FP32 sum, not bit for bit. */
#ifndef CUDA_CPU_MMA_H
#define CUDA_CPU_MMA_H
#pragma GCC system_header
#include <assert.h>
#include <cuda_runtime.h>

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
}
enum layout_t { mem_row_major, mem_col_major };

static inline float __float_to_tf32(float in)
{
    uint32_t b;
    memcpy(&b, &in, sizeof b);
    if ((b & 0x7f800000u) != 0x7f800000u) /* not an infinity or a NaN */
        b = (b + 0x1000u) & ~0x1fffu;     /* half a TF32 ulp, then cut: ties away from zero */
    memcpy(&in, &b, sizeof b);
    return in;
}

template <class T, int size>
struct __frag_base {
    enum { num_elements = size, num_storage_elements = size };
    typedef T element_type;
    typedef float storage_element_type;
    float x[size];
};

template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
    static_assert(sizeof(T) == 0, "the CPU backend's wmma has TF32 m16n16k8 fragments with a "
                                  "float accumulator only");
};
/* A: 16 x 8, kept as a[row][k]; B: 8 x 16, kept as b[k][col]; whatever the layout in memory. */
template <class Layout>
class fragment<matrix_a, 16, 16, 8, precision::tf32, Layout>
    : public __frag_base<precision::tf32, 16 * 8> {
};
template <class Layout>
class fragment<matrix_b, 16, 16, 8, precision::tf32, Layout>
    : public __frag_base<precision::tf32, 8 * 16> {
};
template <>
class fragment<accumulator, 16, 16, 8, float> : public __frag_base<float, 16 * 16 / 32> {
};

namespace cpu {
#define CUDA_CPU_MMA_AT const char *file_ = __builtin_FILE(), int line_ = __builtin_LINE()
typedef fragment<accumulator, 16, 16, 8, float> acc_t;

/* This thread's lane, and the lanes of its warp that the block has. */
static inline unsigned lane()
{
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
}
static inline unsigned warp_lanes()
{
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned left = threads - tid / 32 * 32;
    return left >= 32 ? 0xffffffffu : (1u << left) - 1;
}
[[noreturn]] static inline void fail(const char *why, const char *file, int line, const char *f)
{
    __assert_fail(why, file, (unsigned)line, f);
}
/* The warp meets at the caller's line; a memory operand must be the same in every lane. */
static inline void meet(const void *p, unsigned ldm, int layout, const char *f, const char *file,
                        int line)
{
    unsigned long long key = (unsigned long long)(uintptr_t)p ^ ((unsigned long long)ldm << 40) ^
                             ((unsigned long long)layout << 62);
    if (cucc::warp_op(cucc::MATCH_ANY, 0xffffffffu, key, 0, 32, file, line) != warp_lanes())
        fail("every lane of the warp takes part, with the same pointer, ldm and layout", file, line,
             f);
    if ((uintptr_t)p % 32)
        fail("the pointer is 32-byte aligned", file, line, f);
    if (ldm % 4)
        fail("ldm is a multiple of 4 floats (16 bytes)", file, line, f);
}
/* Element (r, c) of a matrix at p, ldm elements between rows (row-major) or columns. */
template <class F>
static inline F &at(F *p, unsigned ldm, bool row_major, unsigned r, unsigned c)
{
    return row_major ? p[(size_t)r * ldm + c] : p[(size_t)c * ldm + r];
}
/* What the tensor core reads of a float: its TF32 bits. */
static inline float tf32_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    b &= ~0x1fffu;
    memcpy(&v, &b, sizeof b);
    return v;
}
} // namespace cpu

template <class T, int size>
static inline void fill_fragment(__frag_base<T, size> &f, float v)
{
    for (int i = 0; i < size; i++)
        f.x[i] = v;
}

template <class Layout>
static inline void load_matrix_sync(fragment<matrix_a, 16, 16, 8, precision::tf32, Layout> &a,
                                    const float *p, unsigned ldm, CUDA_CPU_MMA_AT)
{
    constexpr bool row = std::is_same<Layout, row_major>::value;
    static_assert(row || std::is_same<Layout, col_major>::value, "row_major or col_major");
    cpu::meet(p, ldm, row, "load_matrix_sync", file_, line_);
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 8; k++)
            a.x[r * 8 + k] = cpu::at(p, ldm, row, r, k);
}

template <class Layout>
static inline void load_matrix_sync(fragment<matrix_b, 16, 16, 8, precision::tf32, Layout> &b,
                                    const float *p, unsigned ldm, CUDA_CPU_MMA_AT)
{
    constexpr bool row = std::is_same<Layout, row_major>::value;
    static_assert(row || std::is_same<Layout, col_major>::value, "row_major or col_major");
    cpu::meet(p, ldm, row, "load_matrix_sync", file_, line_);
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 16; c++)
            b.x[k * 16 + c] = cpu::at(p, ldm, row, k, c);
}

/* The lane's 8 elements: row lane / 2, columns 8 (lane % 2) + i. */
static inline void load_matrix_sync(cpu::acc_t &c, const float *p, unsigned ldm, layout_t layout,
                                    CUDA_CPU_MMA_AT)
{
    unsigned l = cpu::lane();
    cpu::meet(p, ldm, layout, "load_matrix_sync", file_, line_);
    for (int i = 0; i < 8; i++)
        c.x[i] = cpu::at(p, ldm, layout == mem_row_major, l / 2, l % 2 * 8 + i);
}

static inline void store_matrix_sync(float *p, const cpu::acc_t &c, unsigned ldm, layout_t layout,
                                     CUDA_CPU_MMA_AT)
{
    unsigned l = cpu::lane();
    cpu::meet(p, ldm, layout, "store_matrix_sync", file_, line_);
    for (int i = 0; i < 8; i++)
        cpu::at(p, ldm, layout == mem_row_major, l / 2, l % 2 * 8 + i) = c.x[i];
}

/* d = a b + c (d may be c): the lane's 8 elements of d. */
template <class LA, class LB>
static inline void mma_sync(cpu::acc_t &d,
                            const fragment<matrix_a, 16, 16, 8, precision::tf32, LA> &a,
                            const fragment<matrix_b, 16, 16, 8, precision::tf32, LB> &b,
                            const cpu::acc_t &c, CUDA_CPU_MMA_AT)
{
    unsigned l = cpu::lane(), r = l / 2;
    cpu::meet(nullptr, 0, 0, "mma_sync", file_, line_);
    for (int i = 0; i < 8; i++) {
        unsigned col = l % 2 * 8 + i;
        float sum = c.x[i];
        for (int k = 0; k < 8; k++)
            sum += cpu::tf32_bits(a.x[r * 8 + k]) * cpu::tf32_bits(b.x[k * 16 + col]);
        d.x[i] = sum;
    }
}
#undef CUDA_CPU_MMA_AT

} // namespace wmma
} // namespace nvcuda
#endif
