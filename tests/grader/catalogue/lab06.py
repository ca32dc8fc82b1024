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
    "block_order": wrong([("        partials[blockIdx.x] = sum;\n        __threadfence();\n"
                           "        last = atomicAdd(done, 1u) == gridDim.x - 1;",
                           "        partials[blockIdx.x] = sum;\n        __threadfence();\n"
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
    # minmax: warp 0 takes block_reduce_shuffle's 0, not the identities, for the warps the
    # block does not have: the min of positive ints comes out 0, the max of negative ones 0
    "minmax_identity_zero": wrong([
        ("        m.lo = has ? warp_lo[lane] : INT_MAX;\n        m.hi = has ? warp_hi[lane] : INT_MIN;",
         "        m.lo = has ? warp_lo[lane] : 0;\n        m.hi = has ? warp_hi[lane] : 0;")],
        ["minmax"]),
    # minmax: the last block's fold of the partials starts from kernel 10's 0
    "minmax_total_from_zero": wrong([("        struct minmax total = {INT_MAX, INT_MIN};",
                                      "        struct minmax total = {0, 0};")],
                                    ["minmax", "minmax_extremes_placed"]),
    # minmax: the int4 loops only: the last n % 4 ints never folded
    "minmax_dropped_tail": wrong([
        ("    for (unsigned j = n / 4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; j < n; "
         "j += stride) {\n        m.lo = min(m.lo, in[j]);\n        m.hi = max(m.hi, in[j]);\n    }\n",
         "")], ["minmax"]),
    # minmax: no barrier between the warps' stores and warp 0's reads of warp_lo and warp_hi
    "minmax_missing_barrier": wrong([
        ("        warp_hi[warp] = m.hi;\n    }\n    __syncthreads();\n",
         "        warp_hi[warp] = m.hi;\n    }\n")], ["minmax"]),
    # minmax: the max shuffled from the lane's min (a copy of the line above, half edited)
    "minmax_hi_from_lo": wrong([
        ("        m.hi = max(m.hi, __shfl_down_sync(0xffffffffu, m.hi, s));",
         "        m.hi = max(m.hi, __shfl_down_sync(0xffffffffu, m.lo, s));")], ["minmax"]),
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
    # minmax's butterfly: every lane ends with the warp's min and max
    "minmax_shuffle_xor": right([
        ("        m.lo = min(m.lo, __shfl_down_sync(0xffffffffu, m.lo, s));\n"
         "        m.hi = max(m.hi, __shfl_down_sync(0xffffffffu, m.hi, s));",
         "        m.lo = min(m.lo, __shfl_xor_sync(0xffffffffu, m.lo, s));\n"
         "        m.hi = max(m.hi, __shfl_xor_sync(0xffffffffu, m.hi, s));")],
        ["minmax", "minmax_repeated", "minmax_extremes_placed"]),
    # minmax's int4 folded one int at a time with comparisons, not min() and max()
    "minmax_fold_loop": right([
        ("    m.lo = min(min(m.lo, a.x), min(min(a.y, a.z), a.w));\n"
         "    m.hi = max(max(m.hi, a.x), max(max(a.y, a.z), a.w));\n",
         "    const int e[4] = {a.x, a.y, a.z, a.w};\n"
         "    for (int k = 0; k < 4; k++) {\n"
         "        m.lo = e[k] < m.lo ? e[k] : m.lo;\n"
         "        m.hi = e[k] > m.hi ? e[k] : m.hi;\n"
         "    }\n")],
        ["minmax", "minmax_repeated", "minmax_extremes_placed"]),
}
