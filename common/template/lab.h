/* lab{{NN}}: {{title}}. The table of variants, the host API that main.c and the tests call
 * (launch.cu), and the kernels of {{id}}.cu that launch.cu launches. */
#ifndef {{ID}}_H
#define {{ID}}_H

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
#define {{ID}}_TABLE(X) /* grid */ \
    X({{ID}}_THREAD_PER_ELEMENT, "thread_per_element", (0), \
      "one thread per element, as many blocks as n needs") \
    X({{ID}}_GRID_STRIDE, "grid_stride", (1), \
      "a grid that fills the GPU once, each thread stepping by the whole grid")
// clang-format on

enum {{id}}_variant { {{ID}}_TABLE(LAB_ENUM) {{ID}}_VARIANTS };
static const struct lab_variant {{id}}_variants[] = { {{ID}}_TABLE(LAB_VARIANT) };
struct {{id}}_facts {
    unsigned grid_stride;
};
static const struct {{id}}_facts {{id}}_facts[] = { {{ID}}_TABLE(LAB_FACTS) };

/* out[i] = 2 x in[i] for i < n on device buffers. Returns LAB_OK, LAB_EINVAL for a bad
 * variant, a NULL buffer or n beyond a buffer's size, or LAB_ECUDA. Asynchronous. */
int {{id}}(enum {{id}}_variant v, struct gpu_buf in, struct gpu_buf out, size_t n);

/* reference.c: the CPU loop everything is checked against. */
void {{id}}_cpu(const float *in, float *out, size_t n);

#ifdef __cplusplus
}

__global__ void {{id}}_thread_per_element(const float *in, float *out, size_t n);
__global__ void {{id}}_grid_stride(const float *in, float *out, size_t n);
#endif
#endif
