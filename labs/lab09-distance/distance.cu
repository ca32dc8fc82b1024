/* lab09: distance. Yours: the kernels; launch.cu checks the arguments and launches
 * them. (The template of `make new-lab`: out = 2 x in, to be replaced by the lab's own.) */
#include "distance.h"

/* One thread per element: teaches the global index; costs a grid that grows with n. */
__global__ void distance_thread_per_element(const float *in, float *out, size_t n)
{
    /* TODO: i = blockIdx.x * blockDim.x + threadIdx.x (in size_t); when i < n,
     * out[i] = 2 * in[i]. */
}

/* Grid-stride loop: one launch shape for any n, a grid that fills the GPU once. */
__global__ void distance_grid_stride(const float *in, float *out, size_t n)
{
    /* TODO: start at the global index, step by gridDim.x * blockDim.x while
     * below n. */
}
