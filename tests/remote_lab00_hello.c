/* lab00's host API across the grader's wall (common/judge/remote.h): in the judge, each
 * call is a request to the worker; in the worker, the request is served by the lab's code.
 * A function of the lab's header that the tests call gets a line on each side. */
#include "hello.h"
#include "remote.h"

#ifdef REMOTE_JUDGE
int hello_places(enum hello_variant v, struct hello_shape grid, struct hello_shape block,
                 struct gpu_buf out)
{
    return (int)remote_call("hello_places", "iuuuuuub", v, grid.x, grid.y, grid.z, block.x, block.y,
                            block.z, out);
}

int hello_print(struct hello_shape grid, struct hello_shape block)
{
    return (int)remote_call("hello_print", "uuuuuu", grid.x, grid.y, grid.z, block.x, block.y,
                            block.z);
}
#else
static struct hello_shape shape(struct remote_arg *a)
{
    struct hello_shape s = {(unsigned)a[0].i, (unsigned)a[1].i, (unsigned)a[2].i};
    return s;
}

static long long call_hello_places(struct remote_arg *a)
{
    return hello_places((enum hello_variant)a[0].i, shape(a + 1), shape(a + 4), a[7].buf);
}

static long long call_hello_print(struct remote_arg *a)
{
    return hello_print(shape(a), shape(a + 3));
}

const struct remote_op remote_lab_ops[] = {
    {"hello_places", "iuuuuuub", call_hello_places},
    {"hello_print", "uuuuuu", call_hello_print},
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
