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
    # the shared total added with a plain +=: lost updates inside the block (race checker only)
    "shared_atomic_plain_add": wrong([("        atomicAdd(&block_sum, in[i]);",
                                       "        block_sum += in[i];")],
                                     ["shared_atomic", "atomic_odd_block_sizes"], race=True,
                                     line="block_sum += in[i];"),
    # no barrier after the shared atomics: thread 0 sends block_sum before the others added
    "shared_atomic_missing_barrier": wrong([
        ("        atomicAdd(&block_sum, in[i]);\n    __syncthreads();\n",
         "        atomicAdd(&block_sum, in[i]);\n")], ["shared_atomic"]),
    # the global atomic without its bounds check: the last block reads past the input
    "global_atomic_no_bounds": wrong([("    if (i < n)\n        atomicAdd(out, in[i]);",
                                       "    atomicAdd(out, in[i]);")],
                                     ["global_atomic"], line="    atomicAdd(out, in[i]);"),
    # only the first term's bound checked: the second load runs past the end of the input
    "second_load_unchecked": wrong([
        ("tree of kernel 3. */\n    sdata[tid] = (i < n ? in[i] : 0) + "
         "(i + blockDim.x < n ? in[i + blockDim.x] : 0);",
         "tree of kernel 3. */\n    sdata[tid] = i < n ? in[i] + in[i + blockDim.x] : 0;")],
        ["first_add_during_load"], line="sdata[tid] = i < n ? in[i] + in[i + blockDim.x] : 0;"),
    # Harris's volatile last warp without __syncwarp: a race since Volta (strict mode)
    "unroll_volatile_no_syncwarp": wrong([
        ("    v += sdata[tid + s];\n    __syncwarp(mask);\n    sdata[tid] = v;\n"
         "    __syncwarp(mask);\n",
         "    volatile int *vs = sdata;\n    vs[tid] += vs[tid + s];\n    v = vs[tid];\n")],
        ["unroll_last_warp", "complete_unroll", "cascaded"], line="volatile int *vs = sdata;"),
    # the last warp with neither volatile nor __syncwarp: lanes read stale or finished sums
    "unroll_no_syncwarp": wrong([
        ("    v += sdata[tid + s];\n    __syncwarp(mask);\n    sdata[tid] = v;\n"
         "    __syncwarp(mask);\n", "    v += sdata[tid + s];\n    sdata[tid] = v;\n")],
        ["unroll_last_warp", "complete_unroll", "cascaded"]),
    # the grid-stride loop steps one block per block instead of two: elements added twice
    "cascaded_stride": wrong([("i < n; i += 2 * BLOCK * gridDim.x) {",
                               "i < n; i += BLOCK * gridDim.x) {")], ["cascaded"]),
    # the warp shuffle starts at offset 32, past the warp: each lane adds its own value again
    "shuffle_offset_32": wrong([
        ("    for (unsigned s = WARP / 2; s > 0; s >>= 1)\n        v += __shfl",
         "    for (unsigned s = WARP; s > 0; s >>= 1)\n        v += __shfl")], ["warp_shuffle"]),
    # warp 0 reads all 32 warp sums, also those of warps the block does not have
    "warp_sums_unbounded": wrong([
        ("v = warp_reduce_shuffle(lane < blockDim.x / WARP ? warp_sums[lane] : 0);",
         "v = warp_reduce_shuffle(warp_sums[lane]);")], ["warp_shuffle"]),
    # no barrier between storing the warp sums and warp 0 reading them
    "warp_sums_missing_barrier": wrong([("        warp_sums[warp] = v;\n    __syncthreads();\n",
                                         "        warp_sums[warp] = v;\n")], ["warp_shuffle"]),
    # the int4 loops only: the last n % 4 ints dropped
    "int4_dropped_tail": wrong([
        ("    for (unsigned j = n / 4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; j < n; "
         "j += stride)\n        sum += in[j];\n", "")], ["vector_load", "single_pass"]),
}

RIGHT = {
    # the halving written with >> 1 and /= 2
    "halving_loop": right([
        ("a barrier after each step. */\n    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {",
         "a barrier after each step. */\n    for (unsigned s = blockDim.x >> 1; s >= 1; s /= 2) {")],
        ["sequential"]),
    # the divergent tree's test as a bit mask, as Harris's slides have it
    "divergent_bitmask": right([("        if (tid % (2 * s) == 0)",
                                 "        if ((tid & (2 * s - 1)) == 0)")],
                               ["interleaved_divergent"]),
    # a butterfly with __shfl_xor_sync: every lane ends with the warp's sum, lane 0 included
    "shuffle_xor": right([("        v += __shfl_down_sync(0xffffffffu, v, s);",
                           "        v += __shfl_xor_sync(0xffffffffu, v, s);")],
                         ["warp_shuffle", "vector_load", "single_pass"]),
}
