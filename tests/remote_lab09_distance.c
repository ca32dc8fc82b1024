/* lab09's host API across the grader's wall (common/judge/remote.h): in the judge, each
 * call is a request to the worker; in the worker, the request is served by the lab's code. */
#include "distance.h"
#include "remote.h"

#ifdef REMOTE_JUDGE
size_t distance_scratch_bytes(enum distance_variant v, unsigned width, unsigned height,
                              unsigned dmax)
{
    return (size_t)remote_call("distance_scratch_bytes", "iuuu", v, width, height, dmax);
}

unsigned distance_band(unsigned dmax)
{
    return (unsigned)remote_call("distance_band", "u", dmax);
}

int distance(enum distance_variant v, struct gpu_buf mask, unsigned width, unsigned height,
             unsigned dmax, struct gpu_buf scratch, struct gpu_buf out)
{
    return (int)remote_call("distance", "ibuuubb", v, mask, width, height, dmax, scratch, out);
}

int distance_set_profile(const float *table)
{
    return (int)remote_call("distance_set_profile", "r", table,
                            table ? DISTANCE_LUT * sizeof(float) : (size_t)0);
}

#ifdef BACKEND_CUDA
size_t distance_npp_scratch_bytes(unsigned width, unsigned height)
{
    return (size_t)remote_call("distance_npp_scratch_bytes", "uu", width, height);
}

int distance_npp(struct gpu_buf mask, unsigned width, unsigned height, struct gpu_buf scratch,
                 struct gpu_buf out16)
{
    return (int)remote_call("distance_npp", "buubb", mask, width, height, scratch, out16);
}
#endif
#else
static long long call_distance_scratch_bytes(struct remote_arg *a)
{
    return (long long)distance_scratch_bytes((enum distance_variant)a[0].i, (unsigned)a[1].i,
                                             (unsigned)a[2].i, (unsigned)a[3].i);
}

static long long call_distance_band(struct remote_arg *a)
{
    return distance_band((unsigned)a[0].i);
}

static long long call_distance(struct remote_arg *a)
{
    return distance((enum distance_variant)a[0].i, a[1].buf, (unsigned)a[2].i, (unsigned)a[3].i,
                    (unsigned)a[4].i, a[5].buf, a[6].buf);
}

/* The table must be whole: a shorter array would be read past its end. */
static long long call_distance_set_profile(struct remote_arg *a)
{
    if (a[0].p && a[0].bytes != DISTANCE_LUT * sizeof(float))
        return LAB_EINVAL;
    return distance_set_profile((const float *)a[0].p);
}

#ifdef BACKEND_CUDA
static long long call_distance_npp_scratch_bytes(struct remote_arg *a)
{
    return (long long)distance_npp_scratch_bytes((unsigned)a[0].i, (unsigned)a[1].i);
}

static long long call_distance_npp(struct remote_arg *a)
{
    return distance_npp(a[0].buf, (unsigned)a[1].i, (unsigned)a[2].i, a[3].buf, a[4].buf);
}
#endif

const struct remote_op remote_lab_ops[] = {
    {"distance_scratch_bytes", "iuuu", call_distance_scratch_bytes},
    {"distance_band", "u", call_distance_band},
    {"distance", "ibuuubb", call_distance},
    {"distance_set_profile", "r", call_distance_set_profile},
#ifdef BACKEND_CUDA
    {"distance_npp_scratch_bytes", "uu", call_distance_npp_scratch_bytes},
    {"distance_npp", "buubb", call_distance_npp},
#endif
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
