"""lab14 detector: the prefix sum's shuffles and lane guard, the ballot's segment and the
decision per window, the window counts at the borders, the stage count, the segments' running
confidence, their warp's loop and the survivors taking the lanes of the fallen (the segment's
width, its window and confidence moved), and compacted's queue: its counters, its append and its
chunks."""
from catalogue import right, wrong

FILE = "detector.cu"

WARPS = ["warp_per_window", "warp_per_4_windows"]

WRONG = {
    # the shuffle offsets stepping by one instead of doubling: lanes add overlapping ranges
    "prefix_offset_plus_one": wrong([
        ("        for (unsigned off = 1; off < WARP; off *= 2) {\n"
         "            int y = __shfl_up_sync(FULL_MASK, x, off);",
         "        for (unsigned off = 1; off < WARP; off++) {\n"
         "            int y = __shfl_up_sync(FULL_MASK, x, off);")], ["warp_per_window"]),
    # no `lane >= off` guard: the lanes below the offset get their own value back and add it
    "prefix_no_lane_guard": wrong([
        ("            int y = __shfl_up_sync(FULL_MASK, x, off);\n            if (lane >= off)\n"
         "                x += y;",
         "            x += __shfl_up_sync(FULL_MASK, x, off);")], ["warp_per_window"]),
    # the same in the segments: a segment's first lanes double their answers
    "group_prefix_no_lane_guard": wrong([
        ("            int y = __shfl_up_sync(FULL_MASK, x, off, w);\n            if (j >= off)\n"
         "                x += y;",
         "            x += __shfl_up_sync(FULL_MASK, x, off, w);")], ["warp_per_4_windows"]),
    # the segment's bits of the ballot cut to the first chunks' byte: a window that holds 16 or
    # 32 lanes misses a rejection at its chunk's stages 8-31
    "ballot_wrong_mask": wrong([("& FULL_MASK >> (WARP - w);", "& 0xffu;")],
                               ["warp_per_4_windows"]),
    # the ballot's bits not shifted down to the segment's: windows 1-3 decided by window 0
    "ballot_not_shifted": wrong([("fell >> (lane - j) & FULL_MASK", "fell & FULL_MASK")],
                                ["warp_per_4_windows"]),
    # the warp exits on lane 0's decision (the chunk's first stage) instead of the window's
    "first_lane_decides": wrong([
        ("        unsigned out = __ballot_sync(FULL_MASK, x < reject);\n        if (out) {",
         "        unsigned out = __shfl_sync(FULL_MASK, x < reject, 0);\n        if (out) {")],
        ["warp_per_window"]),
    # the bottom row of windows left out (height - 16 rows of windows, one too few)
    "bottom_row_dropped": wrong([
        ("    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    if (w >= (size_t)across * down)",
         "    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    if (w >= (size_t)across * (down - 1))")], ["thread_per_window"]),
    # groups of 4 counted with a truncating division: the last windows of each row dropped
    # when the row's windows are no multiple of 4
    "right_group_dropped": wrong([("groups = (across + 3) / 4;", "groups = across / 4;")],
                                 ["warp_per_4_windows"]),
    # the rejecting stage not counted: t where t + 1 stages ran
    "stage_count_off_by_one": wrong([("    ran[w] = accepted ? t : t + 1;", "    ran[w] = t;")],
                                    ["thread_per_window"]),
    # __ffs taken as a 0-based index: one stage short
    "ffs_zero_based": wrong([("            stages = base + __ffs(out);\n            break;",
                              "            stages = base + __ffs(out) - 1;\n            break;")],
                            ["warp_per_window"]),
    # each lane of a segment carries its own running sum into the next chunk instead of the
    # segment's (its last lane's): the stages after the first chunk are judged on part of the
    # confidence
    "group_total_own_lane": wrong([("        d = __shfl_sync(FULL_MASK, x, w - 1, w);\n",
                                    "        d = x;\n")], ["warp_per_4_windows"]),
    # the warp stops when its first window falls (fewer than 4 left) instead of when its last
    # does: the others are left accepted after the stages they ran, and a group cut by the
    # image's right edge stops at once
    "group_stops_at_first_death": wrong([("            if (n == 0)\n                break;",
                                          "            if (n < 4)\n                break;")],
                                        ["warp_per_4_windows"]),
    # the segment's width not updated where the survivors take the lanes (j stays lane % 8):
    # a window's 16 or 32 lanes evaluate its stages base .. base + 7 two or four times over
    "segment_width_not_updated": wrong([
        ("                j = lane & (w - 1); /* lane % w: w is a power of two */\n", "")],
        ["warp_per_4_windows"]),
    # every lane joins the first survivor: the second one's lanes are taken from it, and its
    # mask and count are never written
    "second_survivor_dropped": wrong([
        ("unsigned src = __ffs(lane < wide ? first : first & (first - 1)) - 1;",
         "unsigned src = __ffs(first) - 1;")], ["warp_per_4_windows"]),
    # the survivor's column moved to its new lanes but not its confidence: each lane carries on
    # from the d of the window it held before
    "confidence_not_moved": wrong([("                d = __shfl_sync(FULL_MASK, d, src);\n", "")],
                                  ["warp_per_4_windows"]),
    # compacted: the counter that the next launch appends to left as it was: from the fourth
    # launch on, a queue's survivors land after the count of three launches before, and the
    # next launch reads stale windows between
    "queue_counter_not_reset": wrong([
        ("    if (blockIdx.x == 0 && threadIdx.x == 0)\n        counts[(chunk + 2) % 3] = 0;\n",
         "")], ["compacted"]),
    # the warp's places taken with a read and a write instead of an atomicAdd: two warps read
    # the same count and write their survivors over each other's (a race the race checker names)
    "append_without_atomic": wrong([
        ("            at = atomicAdd(next, __popc(keep));",
         "        {\n            at = *next;\n            *next = at + __popc(keep);\n        }")],
        ["compacted"], race=True, line="            at = *next;"),
    # a chunk's last stage left out: base + 15 is never evaluated, the next launch starts at
    # base + 16
    "chunk_drops_last_stage": wrong([
        ("? nstages : base + DETECTOR_CHUNK;", "? nstages : base + DETECTOR_CHUNK - 1;")],
        ["compacted"]),
    # the survivors of the last chunk appended to a queue nobody reads instead of accepted:
    # their mask and count never written
    "last_chunk_not_accepted": wrong([
        ("            } else if (end == nstages) {", "            } else if (end > nstages) {")],
        ["compacted"]),
    # a lane's place counted with itself among the keepers below it: every survivor one place
    # late, the warp's last one in the next warp's first place, its own first place stale
    "place_counts_own_lane": wrong([
        ("out[at + __popc(keep & ((1u << lane) - 1))] = q;",
         "out[at + __popc(keep & ((2u << lane) - 1))] = q;")],
        ["compacted"]),
    # the survivor's window queued without its confidence: the next chunk starts from d = 0
    "confidence_not_carried": wrong([
        ("            if (base != 0)\n                q = in[i];",
         "            if (base != 0)\n                q.window = in[i].window;")],
        ["compacted"]),
}

RIGHT = {
    # a while loop that counts each stage as it starts it
    "count_on_entry": right([
        ("    unsigned t = 0;\n    for (; t < nstages; t++) {\n"
         "        struct detector_stage s = stage(cascade, t);\n        d += respond(p, width, s);\n"
         "        if (d < s.reject) {\n            accepted = 0;\n            break;\n        }\n    }\n    mask[w] = (unsigned char)accepted;\n"
         "    ran[w] = accepted ? t : t + 1;",
         "    unsigned t = 0;\n    while (accepted && t < nstages) {\n"
         "        struct detector_stage s = stage(cascade, t++);\n        d += respond(p, width, s);\n"
         "        accepted = d >= s.reject;\n    }\n    mask[w] = (unsigned char)accepted;\n"
         "    ran[w] = t;")], ["thread_per_window"]),
    # the stages of the chunk counted by a popcount of the bits up to the first rejection
    "popcount_of_prefix": right([("= base + __ffs(out);\n                }",
                                  "= base + __popc(out ^ (out - 1));\n                }")],
                                ["warp_per_4_windows"]),
    # the segment's shuffle without its width: the lane guard (j >= off) keeps every source
    # lane inside the segment anyway
    "group_shuffle_full_width": right([("            int y = __shfl_up_sync(FULL_MASK, x, off, w);",
                                        "            int y = __shfl_up_sync(FULL_MASK, x, off);")],
                                      ["warp_per_4_windows"]),
    # the second survivor's lane found as the highest bit of the ballot (there are 2 at most)
    "second_survivor_by_clz": right([
        ("unsigned src = __ffs(lane < wide ? first : first & (first - 1)) - 1;",
         "unsigned src = lane < wide ? __ffs(first) - 1 : 31 - __clz(first);")],
        ["warp_per_4_windows"]),
    # an atomicAdd per survivor instead of one per warp: more atomics on one counter, the same
    # queue in another order
    "atomic_per_survivor": right([
        ("        unsigned keep = __ballot_sync(FULL_MASK, kept), at = 0;\n"
         "        if (lane == 0 && keep)\n            at = atomicAdd(next, __popc(keep));\n"
         "        at = __shfl_sync(FULL_MASK, at, 0);\n        if (kept)\n"
         "            out[at + __popc(keep & ((1u << lane) - 1))] = q;",
         "        if (kept)\n            out[atomicAdd(next, 1u)] = q;")], ["compacted"]),
    # the warp's first keeper, not lane 0, takes the places
    "first_keeper_leads": right([
        ("        if (lane == 0 && keep)\n            at = atomicAdd(next, __popc(keep));\n"
         "        at = __shfl_sync(FULL_MASK, at, 0);",
         "        int leader = keep ? __ffs(keep) - 1 : 0;\n"
         "        if (lane == (unsigned)leader && keep)\n            at = atomicAdd(next, __popc(keep));\n"
         "        at = __shfl_sync(FULL_MASK, at, leader);")], ["compacted"]),
    # the guard folded into the shuffle's value
    "guard_in_select": right([
        ("            int y = __shfl_up_sync(FULL_MASK, x, off);\n            if (lane >= off)\n"
         "                x += y;",
         "            int y = __shfl_up_sync(FULL_MASK, x, off);\n            x += lane >= off ? y : 0;")],
        ["warp_per_window"]),
}
