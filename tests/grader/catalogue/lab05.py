"""lab05 histogram: atomics, privatised bins, per-warp copies, wide loads."""
from catalogue import right, wrong

FILE = "histogram.cu"

# the count of kernel 2 and the zeroing of kernel 3, as old texts
COUNT2 = "        atomicAdd(&hist[in[i]], 1u);\n    __syncthreads();\n    block_merge(hist, 1, out);"
ZERO3 = ("    block_zero(warp_hists, copies * HIST_BINS);\n    __syncthreads();\n"
         "    for (size_t i = grid_start(); i < n; i += grid_stride())\n        atomicAdd(&mine")

WRONG = {
    # the wide loads' tail forgotten: the last n % 16 bytes (after the head) uncounted
    "tail_dropped": wrong([
        ("        count_word(mine, q.w);\n    }\n"
         "    count_bytes(mine, in, head + (size_t)vectors * 16, n);\n",
         "        count_word(mine, q.w);\n    }\n")], ["wide_loads"]),
    # the grid-stride index in unsigned: near 2^32, i + stride wraps and counts again
    "index_unsigned": wrong([
        ("    for (size_t i = grid_start(); i < n; i += grid_stride())\n        atomicAdd(&hist[",
         "    for (unsigned i = grid_start(); i < n; i += grid_stride())\n        atomicAdd(&hist[")],
        ["near_2_32.shared_privatized"]),
    # the textbook hist[x]++ on the block's shared bins: its threads lose each other's counts
    "shared_plain_increment": wrong([(COUNT2, COUNT2.replace("atomicAdd(&hist[in[i]], 1u);",
                                                             "hist[in[i]]++;"))],
                                    ["shared_privatized"], race=True, line="        hist[in[i]]++;"),
    # no barrier between the block's counting and its merge: bins read while others count
    "no_merge_barrier": wrong([(COUNT2, COUNT2.replace("    __syncthreads();\n", ""))],
                              ["shared_privatized"], race=True,
                              line="    for (size_t i = grid_start(); i < n; i += grid_stride())\n"
                                   "        atomicAdd(&hist[in[i]], 1u);"),
    # the merge into out with a plain +=: the blocks merging at once lose each other's counts
    "merge_plain_add": wrong([("            atomicAdd(&out[b], sum);", "            out[b] += sum;")],
                             ["shared_privatized"], race=True, line="            out[b] += sum;"),
    # the global bins counted with out[x]++ (the race kernel's bug): lost counts on a GPU
    "global_plain_increment": wrong([("        atomicAdd(&out[in[i]], 1u);", "        out[in[i]]++;")],
                                    ["global_atomic"], race=True, line="        out[in[i]]++;"),
    # no barrier between zeroing the copies and counting into them: counts zeroed after
    "no_zero_barrier": wrong([(ZERO3, ZERO3.replace("    __syncthreads();\n", ""))], ["per_warp"]),
    # only the first warp's copy zeroed (kernel 2's count): the others start at 0xffffffff
    "zeroed_one_copy": wrong([(ZERO3, ZERO3.replace("copies * HIST_BINS", "HIST_BINS"))],
                             ["per_warp"]),
    # only the first warp's copy merged (kernel 2's call kept)
    "merged_one_copy": wrong([("    block_merge(warp_hists, copies, out);\n    /* SOLUTION END */",
                               "    block_merge(warp_hists, 1, out);\n    /* SOLUTION END */")],
                             ["per_warp"]),
    # the copies read as if interleaved (bin-major), not one after another
    "swapped_index": wrong([("            sum += hist[c * HIST_BINS + b];",
                             "            sum += hist[b * copies + c];")], ["per_warp"]),
    # a grid-stride loop that steps by the block: every block counts the rest of the input too
    "wrong_stride": wrong([
        ("    for (size_t i = grid_start(); i < n; i += grid_stride())\n        atomicAdd(&hist[",
         "    for (size_t i = grid_start(); i < n; i += blockDim.x)\n        atomicAdd(&hist[")],
        ["shared_privatized"]),
    # a bounds check one too far: the byte after the input counted
    "off_by_one": wrong([("    if (i < n)\n        atomicAdd(&out[in[i]], 1u);",
                          "    if (i <= n)\n        atomicAdd(&out[in[i]], 1u);")], ["global_atomic"]),
    # the head before the first 16-byte boundary forgotten: right on aligned inputs only
    "head_dropped": wrong([("    count_bytes(mine, in, 0, head);\n    for (size_t v", "    for (size_t v")],
                          ["wide_loads"]),
    # the thread's last run never flushed into the bins
    "last_run_lost": wrong([("    run_flush(mine, &r);\n", "")], ["register_runs"]),
}

RIGHT = {
    # every bin merged with an atomic, those that counted nothing too
    "merge_every_bin": right([("        if (sum)\n            atomicAdd(&out[b], sum);",
                               "        atomicAdd(&out[b], sum);")],
                             ["shared_privatized", "per_warp"]),
    # the four bytes of a word unrolled, the top one without a mask
    "count_word_unrolled": right([
        ("    for (unsigned k = 0; k < 4; k++)\n        atomicAdd(&hist[w >> 8 * k & 0xffu], 1u);",
         "    atomicAdd(&hist[w & 0xffu], 1u);\n    atomicAdd(&hist[w >> 8 & 0xffu], 1u);\n"
         "    atomicAdd(&hist[w >> 16 & 0xffu], 1u);\n    atomicAdd(&hist[w >> 24], 1u);")],
        ["wide_loads", "best"]),
    # the bounds check as an early return
    "early_return": right([("    if (i < n)\n        atomicAdd(&out[in[i]], 1u);",
                            "    if (i >= n)\n        return;\n    atomicAdd(&out[in[i]], 1u);")],
                          ["global_atomic"]),
}
