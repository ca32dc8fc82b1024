/* lab09: distance. Yours: the kernels; launch.cu checks the arguments and launches
 * them. (The template of `make new-lab`: out = 2 x in, to be replaced by the lab's own.) */
#include "distance.h"

/* One thread per element: teaches the global index; costs a grid that grows with n. */
__global__ void distance_thread_per_element(const float *in, float *out, size_t n)
{
    /* SOLUTION BEGIN: i = blockIdx.x * blockDim.x + threadIdx.x (in size_t); when i < n,
     * out[i] = 2 * in[i]. */
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
    /* SOLUTION END */
}

/* Grid-stride loop: one launch shape for any n, a grid that fills the GPU once. */
__global__ void distance_grid_stride(const float *in, float *out, size_t n)
{
    /* SOLUTION BEGIN: start at the global index, step by gridDim.x * blockDim.x while
     * below n. */
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = 2.0f * in[i];
    /* SOLUTION END */
}
