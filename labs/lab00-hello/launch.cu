/* lab00's host API: the arguments checked, then the launches and the device query of
 * hello.cu. */
#include "check.h"
#include "hello.h"

enum { PRINT_MAX = 4096 };

static dim3 as_dim3(struct hello_shape s)
{
    return dim3(s.x, s.y, s.z);
}

static int empty(struct hello_shape s)
{
    return !s.x || !s.y || !s.z;
}

/* Whether a shape uses at most dims of x, y, z. */
static int within(struct hello_shape s, unsigned dims)
{
    return (dims >= 2 || s.y == 1) && (dims >= 3 || s.z == 1);
}

extern "C" int hello_places(enum hello_variant v, struct hello_shape grid, struct hello_shape block,
                            struct gpu_buf out)
{
    unsigned long long threads = hello_threads(grid, block);
    if ((unsigned)v >= HELLO_VARIANTS || empty(grid) || empty(block) || !out.ptr)
        return LAB_EINVAL;
    if (!within(grid, hello_facts[v].dims) || !within(block, hello_facts[v].dims))
        return LAB_EINVAL;
    /* Each place's global id is an unsigned: 2^32 threads at most (the grid may hold more). */
    if (threads > 0xffffffffull || threads > out.bytes / sizeof(struct thread_place))
        return LAB_EINVAL;
    return hello_places_launch(v, as_dim3(grid), as_dim3(block), (struct thread_place *)out.ptr);
}

extern "C" int hello_print(struct hello_shape grid, struct hello_shape block)
{
    if (empty(grid) || empty(block) || hello_threads(grid, block) > PRINT_MAX)
        return LAB_EINVAL;
    int status = hello_print_launch(as_dim3(grid), as_dim3(block));
    if (status != LAB_OK)
        return status;
    CUDA_TRY(cudaDeviceSynchronize()); /* device printf's lines reach stdout when the host waits */
    return LAB_OK;
}

extern "C" int hello_query(int device, struct device_facts *out)
{
    int status;
    if (!out)
        return LAB_EINVAL;
    status = hello_query_device(device, out);
    if (status == LAB_ECUDA)
        cudaGetLastError(); /* reported already: not an error for the next launch's check */
    return status;
}
