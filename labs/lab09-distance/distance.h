/* lab09: distance. The table of variants, the host API that main.c and the tests call
 * (launch.cu), and the kernels of distance.cu that launch.cu launches. */
#ifndef DISTANCE_H
#define DISTANCE_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in the handout's order. A row: the enum constant, the name (tests,
 * --variant, bench rows, points), its launch facts, what it teaches. The one fact: grid,
 * 1 for a grid that fills the GPU once and strides, 0 for a thread per element. */
// clang-format off
#define DISTANCE_TABLE(X) /* grid */ \
    X(DISTANCE_THREAD_PER_ELEMENT, "thread_per_element", (0), \
      "one thread per element, as many blocks as n needs") \
    X(DISTANCE_GRID_STRIDE, "grid_stride", (1), \
      "a grid that fills the GPU once, each thread stepping by the whole grid")
// clang-format on

enum distance_variant { DISTANCE_TABLE(LAB_ENUM) DISTANCE_VARIANTS };
static const struct lab_variant distance_variants[] = {DISTANCE_TABLE(LAB_VARIANT)};
struct distance_facts {
    unsigned grid_stride;
};
static const struct distance_facts distance_facts[] = {DISTANCE_TABLE(LAB_FACTS)};

/* out[i] = 2 x in[i] for i < n on device buffers. Returns LAB_OK, LAB_EINVAL for a bad
 * variant, a NULL buffer or n beyond a buffer's size, or LAB_ECUDA. Asynchronous. */
int distance(enum distance_variant v, struct gpu_buf in, struct gpu_buf out, size_t n);

/* reference.c: the CPU loop everything is checked against. */
void distance_cpu(const float *in, float *out, size_t n);

#ifdef __cplusplus
}

__global__ void distance_thread_per_element(const float *in, float *out, size_t n);
__global__ void distance_grid_stride(const float *in, float *out, size_t n);
#endif
#endif
