"""lab03 ray tracer: constant memory, read-only loads, shared tiles."""
from catalogue import right, wrong

FILE = "raytracer.cu"

# raytracer_to_constant's copy, the textbook call, and stage_tile's copy between its barriers
COPY = ("    err = cudaMemcpyToSymbolAsync(c_spheres, spheres, n * sizeof *spheres, 0,\n"
        "                                  cudaMemcpyDeviceToDevice);")
TEXTBOOK = "    err = cudaMemcpyToSymbol(c_spheres, spheres, n * sizeof *spheres);"
STAGE = ("    __syncthreads();\n    for (unsigned k = threadIdx.x; k < count; k += blockDim.x)\n"
         "        tile[k] = spheres[base + k];\n    __syncthreads();\n")
# kernel 3's loop over the lights, to its first shadow test
LIGHTS3 = ("    for (unsigned l = 0; l < sc.nlights; l++) {\n"
           "        float dist = rt_toward(sc.lights[l], p, dir), c = rt_cosine(n, dir);\n"
           "        unsigned k = 0;\n        int blocked = !(c > 0.0f);\n"
           "        for (; k + 4 <= sc.nspheres && !blocked; k += 4)\n"
           "            blocked = rt_blocks(c_spheres[k], p, dir, dist) |")
LDG_B = "b = __ldg((const float4 *)s + 1);"

WRONG = {
    # the textbook copy, whose kind defaults to cudaMemcpyHostToDevice, from a device buffer
    "copy_kind_host": wrong([(COPY, TEXTBOOK)], ["constant", "constant_rotated"], line=TEXTBOOK),
    # no barrier before the copy: threads still testing the last tile see the next one
    "stage_missing_barrier": wrong([(STAGE, STAGE.replace("    __syncthreads();\n", "", 1))],
                                   ["shared_tiles"]),
    # the shadow passes skipped when the light is behind: stage_tile's barriers in a branch
    "barrier_in_branch": wrong([
        ("        blocked = !(c > 0.0f);\n        for (unsigned base = 0;",
         "        blocked = !(c > 0.0f);\n        if (!blocked)\n        for (unsigned base = 0;")],
        ["shared_tiles"], line="below count; __syncthreads(). */\n    __syncthreads();"),
    # the copy's bound one too far: a sphere past the tile, and past the buffer
    "stage_off_by_one": wrong([(STAGE, STAGE.replace("k < count", "k <= count"))],
                              ["shared_tiles"], line="k <= count; k += blockDim.x)\n        tile[k]"),
    # the shadow loop four spheres at a time without its tail: the last n % 4 cast no shadow
    "shadow_tail_dropped": wrong([
        ("        for (; k < sc.nspheres && !blocked; k++)\n"
         "            blocked = rt_blocks(spheres[k], p, dir, dist);\n", "")], ["global_plain"]),
    # the four-at-a-time loop runs while k < n: up to three spheres past the last tested
    "unrolled_past_end": wrong([
        (LIGHTS3, LIGHTS3.replace("k + 4 <= sc.nspheres", "k < sc.nspheres"))], ["constant"]),
    # the second half from the next sphere: (s + 1) steps a whole sphere, not 16 bytes
    "ldg_wrong_stride": wrong([(LDG_B, "b = __ldg((const float4 *)(s + 1));")],
                              ["global_readonly"], line="b = __ldg((const float4 *)(s + 1));"),
    # the tie broken by the step k, not the sphere s: coincident spheres go to the lane's first
    "tie_by_step": wrong([("        if (rt_closer(t, s, best_t, best)) {",
                           "        if (rt_closer(t, k, best_t, best)) {")], ["constant_rotated"]),
    # every light of the array, not the scene's nlights
    "all_lights": wrong([(LIGHTS3, LIGHTS3.replace("l < sc.nlights", "l < RT_MAX_LIGHTS"))],
                        ["constant"]),
}

RIGHT = {
    # the symbol's address, then an ordinary device-to-device copy
    "symbol_address": right([
        (COPY, "    void *dst;\n    err = cudaGetSymbolAddress(&dst, c_spheres);\n"
               "    if (err == cudaSuccess)\n"
               "        err = cudaMemcpyAsync(dst, spheres, n * sizeof *spheres,\n"
               "                              cudaMemcpyDeviceToDevice);")],
        ["constant", "constant_rotated"]),
    # eight scalar __ldg loads instead of two float4 ones
    "ldg_scalars": right([
        ("    float4 a = __ldg((const float4 *)s), " + LDG_B + "\n"
         "    out.x = a.x;\n    out.y = a.y;\n    out.z = a.z;\n    out.r = a.w;\n"
         "    out.red = b.x;\n    out.green = b.y;\n    out.blue = b.z;\n    out.pad = b.w;\n",
         "    out.x = __ldg(&s->x);\n    out.y = __ldg(&s->y);\n    out.z = __ldg(&s->z);\n"
         "    out.r = __ldg(&s->r);\n    out.red = __ldg(&s->red);\n"
         "    out.green = __ldg(&s->green);\n    out.blue = __ldg(&s->blue);\n"
         "    out.pad = __ldg(&s->pad);\n")],
        ["global_readonly"]),
    # the shadow loop one sphere at a time: slower, the same shadows
    "shadow_one_at_a_time": right([
        ("        for (; k + 4 <= sc.nspheres && !blocked; k += 4)\n            blocked =\n"
         "                rt_blocks(spheres[k], p, dir, dist) | rt_blocks(spheres[k + 1], p, dir,"
         " dist) |\n                rt_blocks(spheres[k + 2], p, dir, dist) | rt_blocks(spheres[k "
         "+ 3], p, dir, dist);\n", "")], ["global_plain"]),
}
