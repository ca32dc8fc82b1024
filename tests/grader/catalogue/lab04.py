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
    # no barrier between the products' stores and the tree: it reads slots not yet written
    "missing_barrier": wrong([("    __syncthreads();\n    for (unsigned s = blockDim.x / 2;",
                               "    for (unsigned s = blockDim.x / 2;")],
                             ["host_finish", "two_kernels", "atomic_add", "last_block"]),
    # the block's sum stored at partials[threadIdx.x] (thread 0's: always partials[0])
    "swapped_index": wrong([("        partials[blockIdx.x] = sum;", "        partials[threadIdx.x] = sum;")],
                           ["host_finish", "two_kernels"]),
    # a bounds check one too far: a read past the end of a and b (AddressSanitizer names it)
    "past_the_end": wrong([("    if (i < n)\n        p = a[i] * b[i];",
                            "    if (i <= n)\n        p = a[i] * b[i];")],
                          ["host_finish", "atomic_add"],
                          line="    if (i <= n)\n        p = a[i] * b[i];"),
    # the float4s' loop forgets the last n % 4 floats
    "tail_dropped": wrong([
        ("    if (blockIdx.x == 0 && threadIdx.x < n % 4) {\n        size_t j = 4 * n4 + threadIdx.x;\n"
         "        sum += (T)((const float *)a)[j] * ((const float *)b)[j];\n    }\n", "")],
        ["shuffle_vec4", "double_acc"]),
    # a grid-stride loop that steps by the block: every block adds the rest of the vectors too
    "wrong_stride": wrong([("    size_t n4 = n / 4, stride = (size_t)blockDim.x * gridDim.x;",
                            "    size_t n4 = n / 4, stride = blockDim.x;")],
                          ["shuffle_vec4", "double_acc"]),
    # the last block done without the writer's fence: its sum may not be visible when the
    # count says it is (right here; the race checker sees the read of the unpublished sum)
    "missing_fence": wrong([("        *partial = sum;\n        __threadfence();\n",
                             "        *partial = sum;\n")],
                           ["last_block"], race=True, line="        *partial = sum;"),
    # shuffles up instead of down: the warp's sum ends in lane 31, lane 0 keeps its own value
    "shuffle_up": wrong([("        x += __shfl_down_sync(0xffffffffu, x, offset);",
                          "        x += __shfl_up_sync(0xffffffffu, x, offset);")],
                        ["shuffle_vec4", "double_acc"]),
    # warp 0's lanes past the warps' count skip the full-mask shuffles instead of adding 0 (a
    # deadlock here, named at the shuffle that waits for them)
    "shuffle_mask": wrong([
        ("    if (warp == 0)\n        x = warp_sum(lane < blockDim.x / WARP ? warp_sums[lane] : (T)0);",
         "    if (warp == 0 && lane < blockDim.x / WARP)\n        x = warp_sum(warp_sums[lane]);")],
        ["shuffle_vec4", "double_acc"], line="        x += __shfl_down_sync(0xffffffffu, x, offset);"),
    # step 7's three planted bugs, one at a time (the student's copy has all three): the tree
    # whose step writes slots that other threads of the same step still read (a WAR: wrong
    # under the reverse order, so the strict run fails it before the race checker can)
    "find_the_bug_race": wrong([
        ("        float pair = 0.0f;\n        if (threadIdx.x < half)\n"
         "            pair = slots[2 * threadIdx.x] + slots[2 * threadIdx.x + 1];\n"
         "        __syncthreads();\n        if (threadIdx.x < half)\n"
         "            slots[threadIdx.x] = pair;\n",
         "        if (threadIdx.x < half)\n"
         "            slots[threadIdx.x] = slots[2 * threadIdx.x] + slots[2 * threadIdx.x + 1];\n")],
        ["find_the_bug"]),
    # the writer's fence missing before the count (right here; the race checker sees the last
    # block read a sum that was never published)
    "find_the_bug_fence": wrong([("        __threadfence();\n        /* GIVEN END */",
                                  "        /* GIVEN END */")],
                                ["find_the_bug"], race=True,
                                line="        sums[blockIdx.x] = total;"),
    # the second pair's bound one too far: a[n] and b[n] read where n % 512 is 256 to 511
    "find_the_bug_off_by_one": wrong([("    if (second < n)\n", "    if (second <= n)\n")],
                                     ["find_the_bug"],
                                     line="    if (second <= n)\n        mine += a[second] * b[second];"),
}

RIGHT = {
    # interleaved addressing: strides 1, 2, 4, ..., the sum of each pair in its left slot
    "interleaved_tree": right([
        ("    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {\n        if (threadIdx.x < s)\n",
         "    for (unsigned s = 1; s < blockDim.x; s *= 2) {\n        if (threadIdx.x % (2 * s) == 0)\n")],
        ["host_finish", "two_kernels", "atomic_add", "last_block"]),
    # a butterfly: __shfl_xor_sync leaves the warp's sum in every lane, lane 0 included
    "shuffle_xor": right([("        x += __shfl_down_sync(0xffffffffu, x, offset);",
                           "        x += __shfl_xor_sync(0xffffffffu, x, offset);")],
                         ["shuffle_vec4", "double_acc"]),
    # warp_sums sized to the block's warps, not a warp's lanes (warp 0 reads only those)
    "warp_sums_per_warp": right([("    __shared__ float warp_sums[WARP];",
                                  "    __shared__ float warp_sums[DOT_THREADS / WARP];")],
                                ["shuffle_vec4"]),
}
