/* lab04: the dot product of two float vectors on the device. The table of variants, the
 * host API that rows.c and the tests call (launch.cu), and what dot.cu gives launch.cu. */
#ifndef DOT_H
#define DOT_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the handout's order: how the blocks' sums become one number. A row: the
 * enum constant, the name (tests, --variant, bench rows, points), its launch facts, what
 * it teaches. The facts:
 *   grid   1: a grid that fills the GPU once and strides over any n; 0: a thread per element
 *          (two for find_the_bug)
 *   vec4   1: 16-byte loads, so a and b must be 16-byte aligned
 *   fixed  1: the same bits on every run (the order of the additions is fixed)
 *   acc    the bytes of the accumulator: 4 float, 8 double */
// clang-format off
#define DOT_TABLE(X)                                     /* grid vec4 fixed acc */ \
    X(DOT_HOST_FINISH, "host_finish",                     (0,   0,   1,    4), \
      "1: a tree in shared memory per block, the blocks' sums added on the host")   \
    X(DOT_TWO_KERNELS, "two_kernels",                     (0,   0,   1,    4), \
      "2: a second launch adds the blocks' sums: the launch as the global barrier")  \
    X(DOT_ATOMIC_ADD, "atomic_add",                       (0,   0,   0,    4), \
      "3: each block adds its sum to the result with a float atomicAdd")             \
    X(DOT_LAST_BLOCK, "last_block",                       (0,   0,   1,    4), \
      "4: one launch, the last block done adds the sums in a fixed order")          \
    X(DOT_SHUFFLE_VEC4, "shuffle_vec4",                   (1,   1,   1,    4), \
      "5: 16-byte loads, a grid-stride loop and warp shuffles: the fast one")        \
    X(DOT_DOUBLE_ACC, "double_acc",                       (1,   1,   1,    8), \
      "6: variant 5 adding in double: exact products, the accurate one")            \
    X(DOT_FIND_THE_BUG, "find_the_bug",                   (0,   0,   1,    4), \
      "7: given complete, with three bugs to find: two pairs a thread, the last block")
// clang-format on

enum dot_variant { DOT_TABLE(LAB_ENUM) DOT_VARIANTS };
static const struct lab_variant dot_variants[] = {DOT_TABLE(LAB_VARIANT)};
struct dot_facts {
    unsigned grid_stride, vec4, fixed_order, acc_bytes;
};
static const struct dot_facts dot_facts[] = {DOT_TABLE(LAB_FACTS)};

enum { DOT_THREADS = 256 }; /* the block size of every kernel: a power of two, for the tree */

/* Bytes of device scratch that dot needs for n elements: the blocks' sums, and the counter
 * of the one-launch variants. */
size_t dot_scratch_bytes(enum dot_variant v, size_t n);

/* *out = a[0] b[0] + ... + a[n - 1] b[n - 1] in float on device buffers, with variant v;
 * n = 0 gives 0. Returns LAB_OK, LAB_EINVAL (bad variant, n beyond a or b, n >= 2^32, a
 * NULL or too small out or scratch, a or b not 16-byte aligned for the vec4 variants) or
 * LAB_ECUDA. Asynchronous like a launch, but for host_finish, which waits for its kernel. */
int dot(enum dot_variant v, struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf scratch,
        struct gpu_buf out);

/* The most roundings any one product goes through on its way into v's result for n
 * elements on this device (its own, then each addition on its path: the depth of the order
 * of summation that the launcher's grid gives v); the tests' error bound (see test_lab04). */
unsigned dot_rounding_depth(enum dot_variant v, size_t n);

/* library.cu, CUDA builds only: cublasSdot on the same buffers, the result left on the
 * device (n up to INT_MAX). */
int dot_cublas(struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf out);

/* reference.c: the CPU loop in float, as a C programmer writes it (the bench's CPU row),
 * and the exact value, near enough: in long double, where each product of two floats is
 * exact and 2^28 additions lose less than 2^-35 of the sum of |a_i b_i|. */
float dot_cpu(const float *a, const float *b, size_t n);
long double dot_exact(const float *a, const float *b, size_t n);
/* sum of |a_i b_i| in long double: what the error bounds scale with. */
long double dot_abs(const float *a, const float *b, size_t n);
/* How far from exact a result may be when no product goes through more than depth roundings
 * (dot_rounding_depth) in an accumulator of acc_bytes (4 float, 8 double then rounded to
 * float): the bound the tests and the bench check every variant against (reference.c says
 * where it comes from). Infinite when the depth is too large for any bound. */
long double dot_error_bound(unsigned depth, unsigned acc_bytes, size_t n, long double exact,
                            long double abs_sum);

#ifdef __cplusplus
}

/* dot.cu's kernels, for launch.cu. Each block writes the sum of its share to partials
 * [blockIdx.x] (1, 2), or adds it to *out (3), or the last block done writes *out (4-7). */
__global__ void dot_block_sums(const float *a, const float *b, float *partials, unsigned n);
__global__ void dot_sum_partials(const float *partials, float *out, unsigned count);
__global__ void dot_atomic_add(const float *a, const float *b, float *out, unsigned n);
__global__ void dot_last_block(const float *a, const float *b, float *partials, unsigned *done,
                               float *out, unsigned n);
__global__ void dot_shuffle_vec4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                                 float *partials, unsigned *done, float *out, unsigned n);
__global__ void dot_double_acc(const float4 *__restrict__ a, const float4 *__restrict__ b,
                               double *partials, unsigned *done, float *out, unsigned n);
__global__ void dot_find_the_bug(const float *a, const float *b, float *sums, unsigned *count,
                                 float *out, unsigned n);
#endif
#endif
