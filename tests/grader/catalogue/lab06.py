"""lab06 reduction: the seven kernels of the talk and beyond."""
from catalogue import right, wrong

FILE = "reduction.cu"

WRONG = {
    # no barrier between the tree's steps
    "missing_barrier": wrong([
        ("            sdata[index] += sdata[index + s];\n        __syncthreads();\n",
         "            sdata[index] += sdata[index + s];\n")],
        ["interleaved_strided"], race=True, line="sdata[index] += sdata[index + s];"),
    # the barrier moved into the branch that only some threads take
    "barrier_in_branch": wrong([
        ("    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n        if (tid < s)\n"
         "            sdata[tid] += sdata[tid + s];\n        __syncthreads();\n    }\n    /* SOLUTION END */\n"
         "    if (tid == 0)\n        out[blockIdx.x] = sdata[0];\n}\n\n/* 4.",
         "    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n        if (tid < s) {\n"
         "            sdata[tid] += sdata[tid + s];\n            __syncthreads();\n        }\n"
         "    }\n    /* SOLUTION END */\n    if (tid == 0)\n        out[blockIdx.x] = sdata[0];\n}\n\n/* 4.")],
        ["sequential"], line="            sdata[tid] += sdata[tid + s];\n            __syncthreads();"),
    # the total added with a plain +=: a lost update, right in the plain build
    "race_on_total": wrong([("        atomicAdd(out, in[i]);", "        *out += in[i];")],
                           ["global_atomic", "atomic_odd_block_sizes"], race=True,
                           line="*out += in[i];"),
    # the writer's fence left out: the last block may read a stale partial
    "missing_fence": wrong([("        partials[blockIdx.x] = sum;\n        __threadfence();\n",
                             "        partials[blockIdx.x] = sum;\n")],
                           ["single_pass", "single_pass_repeated"], race=True,
                           line="partials[blockIdx.x] = sum;"),
    # "the last block" taken to be the one with the last index, not the last to finish
    "block_order": wrong([("        last = atomicAdd(done, 1u) == gridDim.x - 1;",
                           "        atomicAdd(done, 1u);\n        last = blockIdx.x == gridDim.x - 1;")],
                         ["single_pass", "single_pass_repeated"]),
}

RIGHT = {
    # the halving written with >> 1 and /= 2
    "halving_loop": right([
        ("a barrier after each step. */\n    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {",
         "a barrier after each step. */\n    for (unsigned s = blockDim.x >> 1; s >= 1; s /= 2) {")],
        ["sequential"]),
}
