/* lab04's host API across the grader's wall (common/judge/remote.h): in the judge, each
 * call is a request to the worker; in the worker, the request is served by the lab's code. */
#include "dot.h"
#include "remote.h"

#ifdef REMOTE_JUDGE
size_t dot_scratch_bytes(enum dot_variant v, size_t n)
{
    return (size_t)remote_call("dot_scratch_bytes", "iz", v, n);
}

unsigned dot_rounding_depth(enum dot_variant v, size_t n)
{
    return (unsigned)remote_call("dot_rounding_depth", "iz", v, n);
}

int dot(enum dot_variant v, struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf scratch,
        struct gpu_buf out)
{
    return (int)remote_call("dot", "ibbzbb", v, a, b, n, scratch, out);
}

#ifdef BACKEND_CUDA
int dot_cublas(struct gpu_buf a, struct gpu_buf b, size_t n, struct gpu_buf out)
{
    return (int)remote_call("dot_cublas", "bbzb", a, b, n, out);
}
#endif
#else
static long long call_dot_scratch_bytes(struct remote_arg *a)
{
    return (long long)dot_scratch_bytes((enum dot_variant)a[0].i, a[1].z);
}

static long long call_dot_rounding_depth(struct remote_arg *a)
{
    return dot_rounding_depth((enum dot_variant)a[0].i, a[1].z);
}

static long long call_dot(struct remote_arg *a)
{
    return dot((enum dot_variant)a[0].i, a[1].buf, a[2].buf, a[3].z, a[4].buf, a[5].buf);
}

#ifdef BACKEND_CUDA
static long long call_dot_cublas(struct remote_arg *a)
{
    return dot_cublas(a[0].buf, a[1].buf, a[2].z, a[3].buf);
}
#endif

const struct remote_op remote_lab_ops[] = {
    {"dot_scratch_bytes", "iz", call_dot_scratch_bytes},
    {"dot_rounding_depth", "iz", call_dot_rounding_depth},
    {"dot", "ibbzbb", call_dot},
#ifdef BACKEND_CUDA
    {"dot_cublas", "bbzb", call_dot_cublas},
#endif
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
