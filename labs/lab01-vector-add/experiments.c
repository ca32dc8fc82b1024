/* lab01's experiment for `run` (host.h): one launch timed two ways. */
#include <stdio.h>
#include "host.h"
#include "timing.h"
#include "vector_add.h"

/* What `run` prints first: one launch of the float4 kernel timed twice, by the host's clock
 * around the launch call alone and by vector_add_timed's events (yours), after a launch that
 * loads the kernel. The launch returns long before the kernel ends: the gap is the lesson. */
void intro(struct lab_size s, uint64_t seed)
{
    size_t bytes = s.n * sizeof(float);
    struct gpu_buf a = gpu_alloc(bytes), b = gpu_alloc(bytes), c = gpu_alloc(bytes);
    double host_ms;
    float ms = 0;
    int status;
    (void)seed;
    status = vector_add(ADD_GRID_STRIDE_FLOAT4, a, b, c, s.n);
    gpu_sync();
    host_ms = timing_now_ms();
    if (status == LAB_OK)
        status = vector_add(ADD_GRID_STRIDE_FLOAT4, a, b, c, s.n);
    host_ms = timing_now_ms() - host_ms;
    gpu_sync();
    if (status == LAB_OK)
        status = vector_add_timed(ADD_GRID_STRIDE_FLOAT4, a, b, c, s.n, &ms);
    if (status == LAB_OK)
        printf("grid_stride_float4, n = %zu, one launch:\n"
               "  %8.3f ms on the host's clock around the launch call: it returns at once\n"
               "  %8.3f ms between two events around it, the stop waited for: the kernel\n\n",
               s.n, host_ms, ms);
    else
        printf("vector_add_timed: %s\n\n", lab_strerror(status));
    gpu_free(&a);
    gpu_free(&b);
    gpu_free(&c);
}
