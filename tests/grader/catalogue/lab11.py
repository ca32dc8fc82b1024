"""lab11 scan: barriers between the sweeps, double buffering, shared buffers reused, the
exclusive shift, tails, the warp transpose's syncs, the look-back's one-word publish, window
and ticket; the threshold's strides, grid and uint4s; compaction's places, scatter (its rounds
and its staged indices: compact.cu) and count; the float scan's tail and the type it adds in,
and an order of adds of its own."""
from catalogue import right, wrong

FILE = "scan.cu"
COMPACT = "compact.cu"  # kernel 10, which scan.cu includes

LOOKBACK = ["decoupled_lookback", "lookback_concurrent"]
BLOCK_SCAN = ["warp_shuffle", "three_phase", "decoupled_lookback"]
TILED = ["three_phase", "decoupled_lookback"]

WRONG = {
    # Hillis and Steele in one buffer: a thread reads src[t - d] after its neighbour has added
    # into it in the same step (the double buffer left out)
    "hillis_steele_in_place": wrong([
        ("            dst[t] = t >= d ? src[t] + src[t - d] : src[t];\n            __syncthreads();\n"
         "            int *swap = src;\n            src = dst;\n            dst = swap;\n",
         "            if (t >= d)\n                src[t] += src[t - d];\n            __syncthreads();\n")],
        ["hillis_steele"], race=True, line="                src[t] += src[t - d];"),
    # GPU Gems' one-block exclusive shift (thread 0 loads 0) kept in the tile loop: every tile
    # after the first loses the element before it
    "exclusive_shift_per_tile": wrong([
        ("        const size_t j = exclusive ? i - 1 : i;\n        src[t] = j < n ? in[j] : 0;\n",
         "        if (exclusive)\n            src[t] = t > 0 && i - 1 < n ? in[i - 1] : 0;\n"
         "        else\n            src[t] = i < n ? in[i] : 0;\n")],
        ["hillis_steele"]),
    # no barrier at the end of a tile: the next tile's loads overwrite buf while slower
    # threads still read src[blockDim.x - 1]
    "hillis_steele_tile_barrier": wrong([
        ("        carry += src[blockDim.x - 1];\n        __syncthreads();\n",
         "        carry += src[blockDim.x - 1];\n")],
        ["hillis_steele"], race=True, line="        carry += src[blockDim.x - 1];"),
    # no barrier between reading the tile's total and clearing its slot for the down-sweep
    "blelloch_missing_barrier": wrong([
        ("        total = temp[slot<PADDED>(m - 1)];\n        __syncthreads();\n",
         "        total = temp[slot<PADDED>(m - 1)];\n")],
        ["blelloch", "blelloch_padded"], race=True,
        line="            temp[slot<PADDED>(m - 1)] = 0;"),
    # the down-sweep's barrier moved into the branch that only threads t < d take
    "blelloch_barrier_in_branch": wrong([
        ("            __syncthreads();\n            if (t < d) {\n                unsigned left",
         "            if (t < d) {\n                __syncthreads();\n                unsigned left")],
        ["blelloch", "blelloch_padded"], line="            if (t < d) {\n                __syncthreads();"),
    # GPU Gems 3's padding for 16 banks: slots run past the shared memory sized for 32
    "padding_for_16_banks": wrong([("        s += k / BANKS;", "        s += k / 16;")],
                                  ["blelloch_padded"], line="        temp[slot<PADDED>(half + t)] = b;"),
    # __shfl_up_sync's value added in every lane: lanes below d add their own x again
    "shuffle_all_lanes_add": wrong([
        ("        T y = __shfl_up_sync(FULL_MASK, x, d);\n        if (lane >= d)\n            x += y;",
         "        x += __shfl_up_sync(FULL_MASK, x, d);")], BLOCK_SCAN),
    # no barrier between the warps' stores of their sums and warp 0's scan of them
    "warp_sums_missing_barrier": wrong([
        ("        warp_sums[warp] = inclusive;\n    __syncthreads();\n",
         "        warp_sums[warp] = inclusive;\n")],
        BLOCK_SCAN),
    # no barrier after the reads of warp_sums: the next call's stores overwrite them
    "warp_sums_reused": wrong([
        ("    *total = warp_sums[warps - 1];\n    __syncthreads();\n",
         "    *total = warp_sums[warps - 1];\n")],
        ["warp_shuffle"], race=True, line="        before += warp_sums[warp - 1];"),
    # the tile loop stops before the last, partial tile
    "tail_tile_dropped": wrong([("    for (size_t base = 0; base < n; base += blockDim.x) {\n"
                                 "        const size_t i = base + threadIdx.x;",
                                 "    for (size_t base = 0; base + blockDim.x <= n; base += blockDim.x) {\n"
                                 "        const size_t i = base + threadIdx.x;")],
                               ["warp_shuffle"]),
    # the tile's sum taken from thread 0's own last item instead of the block's total
    "tile_sum_of_thread_0": wrong([("        tile_sums[blockIdx.x] = total;",
                                    "        tile_sums[blockIdx.x] = v[SCAN_ITEMS - 1];")],
                                  ["three_phase"]),
    # the state and the sum published as two writes, the sum stored first and the state by an
    # atomic after it, as with two words without a fence: a block may see the new state and
    # the old sum (right here; the race checker sees the sum's store with nothing ordering
    # it before the other block's read of the word)
    "lookback_publish_in_two_writes": wrong([
        ("    atomicExch(word, tile_word(value, state));",
         "    ((int *)word)[1] = to_word(value);\n    atomicExch((unsigned *)word, state);")],
        LOOKBACK, race=True, line="    ((int *)word)[1] = to_word(value);"),
    # the word published by a plain store: a race with the blocks that read it, which the
    # compiler may delay, split or drop (the aggregate's store, overwritten by the prefix's)
    "lookback_publish_plain_store": wrong([
        ("    atomicExch(word, tile_word(value, state));", "    *word = tile_word(value, state);")],
        LOOKBACK, race=True, line="    *word = tile_word(value, state);"),
    # the window's lanes past the nearest prefix add their sums too: the tiles before that
    # prefix, already in it, are counted twice
    "lookback_past_nearest_prefix": wrong([("        if (counted >> lane & 1)\n",
                                            "        if (p >= 0)\n")], LOOKBACK + ["compact"]),
    # the tile numbered by blockIdx.x: a block may wait for one that has not started (the
    # reverse order: the last block first, spinning forever; the test's time limit stops it)
    "lookback_block_index": wrong([("        tile = atomicAdd(ticket, 1u);", "        tile = blockIdx.x;")],
                                  ["decoupled_lookback"]),
    # the row's pixels strided by the block instead of the warp: most of each row is skipped
    "warp_row_stride": wrong([("        for (size_t x = lane; x < width; x += WARP) {",
                               "        for (size_t x = lane; x < width; x += blockDim.x) {")],
                             ["threshold_warp_row"]),
    # a row of threads per row of pixels, as if gridDim.y had no limit: rows past the folded
    # grid are never written
    "pixel_grid_not_strided": wrong([
        ("    for (size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y; y < height;\n"
         "         y += (size_t)gridDim.y * blockDim.y)\n        if (x < width) {",
         "    const size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;\n"
         "    if (y < height)\n        if (x < width) {")],
        ["threshold_pixel"]),
    # the uint4s from the row's start, as if every row began on a 16-byte boundary
    "simd_words_unaligned": wrong([
        ("        uint4 q = ((const uint4 *)(s + head))[k];", "        uint4 q = ((const uint4 *)s)[k];"),
        ("        ((uint4 *)(d + head))[k] = q;", "        ((uint4 *)d)[k] = q;")],
        ["threshold_simd"], line="        uint4 q = ((const uint4 *)s)[k];"),
    # the bytes after the last whole uint4 left out
    "simd_tail_dropped": wrong([("    for (size_t x = head + 16 * quads + lane; x < width; x += WARP)\n"
                                 "        d[x] = s[x] > thr ? s[x] : thr;\n", "")],
                               ["threshold_simd"]),
    # the warp transpose without its __syncwarp: a lane reads its blocked items before the
    # lanes that load them have stored them
    "stage_no_syncwarp": wrong([("            group_of(x + GROUP * k);\n    __syncwarp();\n",
                                 "            group_of(x + GROUP * k);\n")], TILED),
    # the scatter's __syncwarp left out: lanes store indices the others have not staged yet
    "compact_scatter_no_syncwarp": wrong([
        ("            }\n        __syncwarp();\n        const unsigned staged",
         "            }\n        const unsigned staged")],
        ["compact"], file=COMPACT),
    # the mask's transpose without its __syncwarp: a lane reads its groups' bits before the
    # lanes that loaded them have stored them
    "compact_mask_no_syncwarp": wrong([
        ("            stage[k * WARP + lane] = (unsigned short)m;\n        }\n    __syncwarp();\n",
         "            stage[k * WARP + lane] = (unsigned short)m;\n        }\n")],
        ["compact"], file=COMPACT),
    # a round's cursor not carried: each round walks a copy of the lane's mask from its first
    # bit, so a lane whose pixels span two rounds stages its first ones again in the second
    "compact_round_restarts_mask": wrong([
        ("        for (unsigned w = 0; w < CP_WORDS; w++)\n"
         "            for (; mask[w] && place < round + CP_STAGE; mask[w] &= mask[w] - 1, place++) {\n"
         "                const unsigned s = place - round;\n"
         "                stage[s + s / BANKS] = pixel + 32 * w + __ffs(mask[w]) - 1;\n",
         "        for (unsigned w = 0; w < CP_WORDS; w++)\n"
         "            for (unsigned m = mask[w]; m && place < round + CP_STAGE; m &= m - 1, place++) {\n"
         "                const unsigned s = place - round;\n"
         "                stage[s + s / BANKS] = pixel + 32 * w + __ffs(m) - 1;\n")],
        ["compact"], file=COMPACT),
    # __ffs taken as counting from 0: every staged index one pixel too far
    "compact_staged_index_off_by_one": wrong([
        ("                stage[s + s / BANKS] = pixel + 32 * w + __ffs(mask[w]) - 1;",
         "                stage[s + s / BANKS] = pixel + 32 * w + __ffs(mask[w]);")],
        ["compact"], file=COMPACT),
    # the round's stores from out[j], not out[round + j]: every round after the first
    # overwrites the first's places, and the places past the first round's are never written
    "compact_round_offset_dropped": wrong([("        unsigned *o = out + round + lane;",
                                            "        unsigned *o = out + lane;")],
                                          ["compact"], file=COMPACT),
    # the kept pixels' places from an inclusive scan: every index one slot too far
    "compact_inclusive_places": wrong([
        ("    const int place = block_exclusive_scan((int)kept, &total);",
         "    const int place = block_exclusive_scan((int)kept, &total) + (int)kept;")],
        ["compact"], file=COMPACT),
    # the count of the mask's first word only: a lane's pixels past its first 32 neither
    # counted nor given places
    "compact_count_first_word": wrong([
        ("    for (unsigned w = 0; w < CP_WORDS; w++)\n        kept += __popc(mask[w]);",
         "    kept = __popc(mask[0]);")],
        ["compact"], file=COMPACT),
    # the count written by the block with the last index, not by the last tile in the chain
    "compact_count_by_block_index": wrong([("            if (tile == gridDim.x - 1)",
                                            "            if (blockIdx.x == gridDim.x - 1)")],
                                          ["compact"], file=COMPACT),
    # a warp's part of the tile loaded only when it is whole, as if n were a multiple of it:
    # the tail's floats read as 0, every output written and the last ones short of their terms
    "float_tail_dropped": wrong([("        x[k] = i < n ? in[i] : 0;",
                                  "        x[k] = first + WARP * ITEMS <= n ? in[i] : 0;")],
                                ["lookback_float"]),
    # the look-back's sum kept in an int, as kernel 6 had it: each window's floats truncated
    # (kernel 6 itself still right)
    "float_lookback_sum_in_int": wrong([("    T sum = 0;\n    /* SOLUTION BEGIN: for window",
                                         "    int sum = 0;\n    /* SOLUTION BEGIN: for window")],
                                       ["lookback_float"]),
}

RIGHT = {
    # a thread's items added last to first: another order of adds, of the same depth, so
    # within the same bound
    "float_items_reversed": right([
        ("    T sum = 0;\n    for (unsigned k = 0; k < ITEMS; k++)\n        sum += x[k];\n",
         "    T sum = 0;\n    for (unsigned k = ITEMS; k-- > 0;)\n        sum += x[k];\n")],
        ["lookback_float"]),
    # the exclusive scan as the inclusive less the element itself, with no shifted load
    "exclusive_by_subtraction": right([
        ("        const size_t j = exclusive ? i - 1 : i;\n        src[t] = j < n ? in[j] : 0;\n",
         "        const int x = i < n ? in[i] : 0;\n        src[t] = x;\n"),
        ("            out[i] = carry + src[t];", "            out[i] = carry + src[t] - (exclusive ? x : 0);")],
        ["hillis_steele"]),
    # the words polled with an atomic that changes nothing, atomicOr of 0, instead of a volatile
    # load: the same word, at the price of a round trip to the L2's atomic unit
    "lookback_poll_by_atomic": right([
        ("            word = p >= 0 ? vtiles[p] : (unsigned long long)SCAN_FLAG_NONE;",
         "            word = p >= 0 ? atomicOr(&tiles[p], 0ull) : (unsigned long long)SCAN_FLAG_NONE;")],
        LOOKBACK),
    # each word's count by clearing its lowest set bit until none is left, not __popc
    "compact_count_by_bits": right([
        ("        kept += __popc(mask[w]);",
         "        for (unsigned m = mask[w]; m; m &= m - 1)\n            kept++;")],
        ["compact"], file=COMPACT),
    # the round's stores indexed from the round, lane j storing out[round + j], where the
    # solution walks a pointer
    "compact_store_by_index": right([
        ("        unsigned *o = out + round + lane;\n"
         "        for (unsigned j = lane; j < staged; j += WARP, o += WARP)\n"
         "            *o = stage[j + j / BANKS];",
         "        for (unsigned j = lane; j < staged; j += WARP)\n"
         "            out[round + j] = stage[j + j / BANKS];")],
        ["compact"], file=COMPACT),
    # the threshold's maximum with its arguments the other way round
    "simd_max_swapped": right([("        q.x = __vmaxu4(q.x, thr4);", "        q.x = __vmaxu4(thr4, q.x);")],
                              ["threshold_simd"]),
    # the stage without its padding: bank conflicts, the same answer
    "stage_unpadded": right([("    return ITEMS / GROUP % 2 ? s : s + s / 8;", "    return s;")], TILED),
    # tile 0 adds no offset, so its block leaves at once
    "offsets_skip_first_tile": right([
        ("    const int offset = offsets[blockIdx.x];\n",
         "    if (blockIdx.x == 0)\n        return;\n    const int offset = offsets[blockIdx.x];\n")],
        ["three_phase"]),
}
