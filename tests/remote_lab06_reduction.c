/* lab06's host API across the grader's wall (common/judge/remote.h): in the judge, each
 * call is a request to the worker; in the worker, the request is served by the lab's code. */
#include "reduction.h"
#include "remote.h"

#ifdef REMOTE_JUDGE
int reduce_threads_ok(enum reduce_variant v, unsigned threads)
{
    return (int)remote_call("reduce_threads_ok", "iu", v, threads);
}

size_t reduce_scratch_bytes(enum reduce_variant v, size_t n, unsigned threads)
{
    return (size_t)remote_call("reduce_scratch_bytes", "izu", v, n, threads);
}

int reduce_sum(enum reduce_variant v, struct gpu_buf in, size_t n, unsigned threads,
               struct gpu_buf scratch, struct gpu_buf out)
{
    return (int)remote_call("reduce_sum", "ibzubb", v, in, n, threads, scratch, out);
}

#ifdef BACKEND_CUDA
int reduce_cub(struct gpu_buf in, size_t n, struct gpu_buf temp, size_t *temp_bytes,
               struct gpu_buf out)
{
    return (int)remote_call("reduce_cub", "bzbZb", in, n, temp, temp_bytes, out);
}
#endif
#else
static long long call_reduce_threads_ok(struct remote_arg *a)
{
    return reduce_threads_ok((enum reduce_variant)a[0].i, (unsigned)a[1].i);
}

static long long call_reduce_scratch_bytes(struct remote_arg *a)
{
    return (long long)reduce_scratch_bytes((enum reduce_variant)a[0].i, a[1].z, (unsigned)a[2].i);
}

static long long call_reduce_sum(struct remote_arg *a)
{
    return reduce_sum((enum reduce_variant)a[0].i, a[1].buf, a[2].z, (unsigned)a[3].i, a[4].buf,
                      a[5].buf);
}

#ifdef BACKEND_CUDA
static long long call_reduce_cub(struct remote_arg *a)
{
    return reduce_cub(a[0].buf, a[1].z, a[2].buf, (size_t *)a[3].p, a[4].buf);
}
#endif

const struct remote_op remote_lab_ops[] = {
    {"reduce_threads_ok", "iu", call_reduce_threads_ok},
    {"reduce_scratch_bytes", "izu", call_reduce_scratch_bytes},
    {"reduce_sum", "ibzubb", call_reduce_sum},
#ifdef BACKEND_CUDA
    {"reduce_cub", "bzbZb", call_reduce_cub},
#endif
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
