/* lab01: c = a + b for float vectors. The table of variants, the host API that main.c and
 * the tests call (launch.cu), and what vector_add.cu gives launch.cu. */
#ifndef VECTOR_ADD_H
#define VECTOR_ADD_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ways to map threads onto elements, in the handout's order. A row: the enum constant,
 * the name (tests, --variant, bench rows, points), its launch facts, what it teaches.
 * The one fact: float4, 1 when it moves float4s (so the vectors must be 16-byte aligned). */
// clang-format off
#define VECTOR_ADD_TABLE(X)                                                    /* float4 */ \
    X(ADD_ONE_BLOCK, "one_block",                                                 (0), \
      "one block whose threads stride over the vector: one SM works, the rest idle")      \
    X(ADD_THREAD_PER_ELEMENT, "thread_per_element",                               (0), \
      "one thread per element, as many blocks as n needs")                                \
    X(ADD_GRID_STRIDE, "grid_stride",                                             (0), \
      "a grid that fills the GPU once, each thread stepping by the whole grid")           \
    X(ADD_GRID_2D, "grid_2d",                                                     (0), \
      "the vectors as a matrix of 1024-float rows, a 2D grid of 32 x 8 blocks")           \
    X(ADD_GRID_STRIDE_FLOAT4, "grid_stride_float4",                               (1), \
      "the grid-stride loop moving 16 bytes per load and store")
// clang-format on

enum vector_add_variant { VECTOR_ADD_TABLE(LAB_ENUM) ADD_VARIANTS };
static const struct lab_variant vector_add_variants[] = {VECTOR_ADD_TABLE(LAB_VARIANT)};
struct vector_add_facts {
    unsigned float4;
};
static const struct vector_add_facts vector_add_facts[] = {VECTOR_ADD_TABLE(LAB_FACTS)};

/* c[i] = a[i] + b[i] for i < n on device buffers. Returns LAB_OK, LAB_EINVAL for a bad
 * variant, a NULL buffer, n beyond a buffer's size, a float4 variant on vectors that are
 * not 16-byte aligned, or a grid beyond the GPU's limits, or LAB_ECUDA. Asynchronous. */
int vector_add(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b, struct gpu_buf c,
               size_t n);

/* The whole round trip from host arrays: allocate, copy in, add, copy out, free.
 * Returns LAB_OK, LAB_EINVAL (NULL pointer with n > 0) or LAB_ECUDA. */
int vector_add_host(const float *a, const float *b, float *c, size_t n);

/* One launch of variant v, as vector_add makes it, timed with two CUDA events on the default
 * stream: *ms, the GPU's time from before the launch to after it. Waits for the launch.
 * Returns LAB_OK (n = 0: nothing to launch, *ms = 0); LAB_EINVAL as vector_add does, and for
 * a NULL ms; or the launch's error (LAB_EINVAL, LAB_ECUDA), with no event left behind. */
int vector_add_timed(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b,
                     struct gpu_buf c, size_t n, float *ms);

/* reference.c: the CPU loop everything is checked against. */
void vector_add_cpu(const float *a, const float *b, float *c, size_t n);

#ifdef __cplusplus
}

/* vector_add.cu, for launch.cu: the launch of variant v on valid arguments, and the round
 * trip, which leaves in d[] what it allocated for the caller to free. */
int vector_add_launch(enum vector_add_variant v, const float *a, const float *b, float *c,
                      size_t n);
int vector_add_round_trip(const float *a, const float *b, float *c, size_t n, float *d[3]);
/* vector_add.cu, for launch.cu: one launch of variant v on valid arguments (n > 0), timed. */
int vector_add_timed_launch(enum vector_add_variant v, const float *a, const float *b, float *c,
                            size_t n, float *ms);
#endif
#endif
