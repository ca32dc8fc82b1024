"""lab04 dot product: block trees, partial sums, atomics, the last block."""
from catalogue import right, wrong

FILE = "dot.cu"

WRONG = {
    # the seed's "optimised" tree: the barrier inside the branch, which the threads at or above
    # s never reach (the strict mode's error names the line)
    "barrier_in_branch": wrong([
        ("        if (threadIdx.x < s)\n            cache[threadIdx.x] += cache[threadIdx.x + s];\n"
         "        __syncthreads();\n",
         "        if (threadIdx.x < s) {\n            cache[threadIdx.x] += cache[threadIdx.x + s];\n"
         "            __syncthreads();\n        }\n")],
        ["host_finish", "two_kernels", "atomic_add", "last_block"],
        line="            cache[threadIdx.x] += cache[threadIdx.x + s];\n            __syncthreads();"),
    # the blocks' sums added with a plain +=: a lost update, right in the plain build
    "race_on_total": wrong([("        atomicAdd(out, sum);", "        *out += sum;")],
                           ["atomic_add"], race=True, line="*out += sum;"),
    # the last block adds all the sums but its own last one
    "lost_block": wrong([
        ("    for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x)",
         "    for (unsigned k = threadIdx.x; k + 1 < gridDim.x; k += blockDim.x)")],
        ["shuffle_vec4", "double_acc"]),
}

RIGHT = {}
