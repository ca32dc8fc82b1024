/* lab03's host API across the grader's wall (common/judge/remote.h): in the judge, each
 * call is a request to the worker; in the worker, the request is served by the lab's code.
 * A function of the lab's header that the tests call gets a line on each side; the scene
 * goes as an array the call reads (the spheres are in a device buffer; the reference and
 * the checks stay in the judge). */
#include "remote.h"
#include "raytracer.h"

#ifdef REMOTE_JUDGE
int raytracer(enum raytracer_variant v, struct gpu_buf pixels, struct gpu_buf spheres,
              const struct rt_scene *scene)
{
    return (int)remote_call("raytracer", "ibbr", v, pixels, spheres, scene,
                            scene ? sizeof *scene : 0);
}
#else
static long long call_raytracer(struct remote_arg *a)
{
    const struct rt_scene *scene = a[3].p;
    if (scene && a[3].bytes != sizeof *scene)
        return LAB_EINVAL;
    return raytracer((enum raytracer_variant)a[0].i, a[1].buf, a[2].buf, scene);
}

const struct remote_op remote_lab_ops[] = {
    {"raytracer", "ibbr", call_raytracer},
};
const size_t remote_lab_nops = sizeof remote_lab_ops / sizeof remote_lab_ops[0];
#endif
