/* lab01: c = a + b for float vectors, the host API that main.c and the tests call. */
#ifndef VECTOR_ADD_H
#define VECTOR_ADD_H

#include <stddef.h>
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ways to map threads onto elements that this lab compares. */
enum vector_add_variant {
    ADD_ONE_BLOCK,          /* a single block whose threads stride over the vector */
    ADD_THREAD_PER_ELEMENT, /* one thread per element, as many blocks as needed */
    ADD_GRID_STRIDE,        /* a grid sized to the GPU, each thread loops by the grid */
    ADD_GRID_2D,            /* blocks on a 2D grid, for more blocks than one dimension allows */
    ADD_GRID_STRIDE_FLOAT4, /* grid-stride loop moving 16 bytes per load and store */
    ADD_VARIANTS
};

static const char *const vector_add_names[] = {
    "one_block", "thread_per_element", "grid_stride", "grid_2d", "grid_stride_float4", NULL};

/* c[i] = a[i] + b[i] for i < n on device buffers. Returns LAB_OK, LAB_EINVAL for a bad
 * variant, a NULL buffer or n beyond a buffer's size, or LAB_ECUDA. Asynchronous. */
int vector_add(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b, struct gpu_buf c,
               size_t n);

/* The whole round trip from host arrays: allocate, copy in, add, copy out, free.
 * Returns LAB_OK, LAB_EINVAL (NULL pointer with n > 0) or LAB_ECUDA. */
int vector_add_host(const float *a, const float *b, float *c, size_t n);

/* reference.c: the CPU loop everything is checked against. */
void vector_add_cpu(const float *a, const float *b, float *c, size_t n);

#ifdef __cplusplus
}
#endif
#endif
