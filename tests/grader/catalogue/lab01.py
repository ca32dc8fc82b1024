"""lab01 vector add: indices, bounds, grid-stride loops, 2D grids, vector loads."""
from catalogue import right, wrong

FILE = "vector_add.cu"

WRONG = {
    # the float4 kernel forgets the last n % 4 elements
    "tail_dropped": wrong([
        ("    for (size_t i = n / 4 * 4 + first; i < n; i += stride)\n        c[i] = a[i] + b[i];\n",
         "")], ["grid_stride_float4", "float4_tails"]),
    # a bounds check one too far: a write past the end of c (AddressSanitizer names it)
    "past_the_end": wrong([("    if (i < n)\n        c[i] = a[i] + b[i];",
                            "    if (i <= n)\n        c[i] = a[i] + b[i];")],
                          ["thread_per_element"], line="    if (i <= n)\n        c[i] = a[i] + b[i];"),
    # the 2D index with row and column swapped
    "swapped_index": wrong([("    size_t i = row * ROW + col;", "    size_t i = col * ROW + row;")],
                           ["grid_2d", "grid_2d_many_rows"]),
    # a grid-stride loop that steps by the block: right, but every block redoes the rest of the
    # vector (and the blocks write the same elements: a race)
    "wrong_stride": wrong([
        ("    size_t stride = (size_t)gridDim.x * blockDim.x;\n    for (size_t i = (size_t)blockIdx.x",
         "    size_t stride = blockDim.x;\n    for (size_t i = (size_t)blockIdx.x")],
        ["grid_stride", "host_round_trip"]),
    # the global index in int: past 2^31 elements skipped, past 2^32 written again at 0
    "index_int": wrong([
        ("    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)",
         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)")],
        ["past_2_32.thread_per_element"]),
    # a block row per matrix row (blockDim.y forgotten): refused past 65535 rows
    "grid_rows": wrong([("        grid2.y = (unsigned)div_up(div_up(n, ROW), block.y);",
                         "        grid2.y = (unsigned)div_up(n, ROW);")], ["grid_2d_many_rows"]),
}

RIGHT = {
    # the bounds check as an early return
    "early_return": right([("    if (i < n)\n        c[i] = a[i] + b[i];",
                            "    if (i >= n)\n        return;\n    c[i] = a[i] + b[i];")],
                          ["thread_per_element"]),
}
