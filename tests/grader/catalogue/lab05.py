"""lab05 histogram: atomics, privatised bins, per-warp copies, wide loads."""
from catalogue import right, wrong

FILE = "histogram.cu"

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
}

RIGHT = {}
