/* lab01's host API: the arguments checked, then vector_add.cu's launch, timed launch or round
 * trip. */
#include <stdint.h>
#include "check.h"
#include "vector_add.h"

static int fits(struct gpu_buf buf, size_t n)
{
    return buf.ptr && n <= buf.bytes / sizeof(float);
}

static int aligned16(struct gpu_buf buf)
{
    return (uintptr_t)buf.ptr % 16 == 0;
}

/* vector_add's arguments: LAB_OK or LAB_EINVAL (n = 0 needs no buffers). */
static int check_args(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b,
                      struct gpu_buf c, size_t n)
{
    if ((unsigned)v >= ADD_VARIANTS)
        return LAB_EINVAL;
    if (n == 0)
        return LAB_OK;
    if (!fits(a, n) || !fits(b, n) || !fits(c, n))
        return LAB_EINVAL;
    if (vector_add_facts[v].float4 && !(aligned16(a) && aligned16(b) && aligned16(c)))
        return LAB_EINVAL;
    return LAB_OK;
}

extern "C" int vector_add(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b,
                          struct gpu_buf c, size_t n)
{
    int status = check_args(v, a, b, c, n);
    if (status != LAB_OK || n == 0)
        return status;
    return vector_add_launch(v, (const float *)a.ptr, (const float *)b.ptr, (float *)c.ptr, n);
}

extern "C" int vector_add_timed(enum vector_add_variant v, struct gpu_buf a, struct gpu_buf b,
                                struct gpu_buf c, size_t n, float *ms)
{
    int status = check_args(v, a, b, c, n);
    if (status != LAB_OK || !ms)
        return LAB_EINVAL;
    if (n == 0) {
        *ms = 0;
        return LAB_OK;
    }
    return vector_add_timed_launch(v, (const float *)a.ptr, (const float *)b.ptr, (float *)c.ptr, n,
                                   ms);
}

extern "C" int vector_add_host(const float *a, const float *b, float *c, size_t n)
{
    float *d[3] = {NULL, NULL, NULL};
    int status;
    if (n == 0)
        return LAB_OK;
    if (!a || !b || !c || n > SIZE_MAX / sizeof(float))
        return LAB_EINVAL;
    status = vector_add_round_trip(a, b, c, n, d);
    for (int i = 0; i < 3; i++) {
        cudaError_t err = cudaFree(d[i]);
        if (err != cudaSuccess && status == LAB_OK)
            status = cuda_report(err, "cudaFree", __FILE__, __LINE__);
    }
    return status;
}
