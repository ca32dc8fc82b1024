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

const struct remote_op remote_lab_ops[] = {
    {"reduce_threads_ok", "iu", call_reduce_threads_ok},
    {"reduce_scratch_bytes", "izu", call_reduce_scratch_bytes},
    {"reduce_sum", "ibzubb", call_reduce_sum},
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
