"""lab08 pattern repeater: modulo tiling, shared repeaters, lattices."""
from catalogue import right, wrong

FILE = "repeater.cu"

WRONG = {
    # the target offset in unsigned: row 4096 of a 2^20-wide target written over row 0
    "offset_unsigned": wrong([
        ("        target[(size_t)y * width + x] = repeater[y % rh * rw + x % rw];",
         "        target[y * width + x] = repeater[y % rh * rw + x % rw];")],
        ["past_2_32.tile_modulo"]),
    # the modulo of the wrong dimension (x % rh): right for square repeaters only
    "wrong_modulo": wrong([("repeater[y % rh * rw + x % rw];", "repeater[y % rh * rw + x % rh];")],
                          ["tile_modulo"]),
    # no barrier after thread 0's copy: the other threads read the tile before it is written
    "missing_barrier": wrong([("            tile[i] = repeater[i];\n    __syncthreads();\n",
                               "            tile[i] = repeater[i];\n")],
                             ["tile_shared_mistake"]),
    # the barrier inside the x < width branch: the threads past the edge never reach it
    # (a barrier reached by part of the block: an error in the grader's strict mode)
    "barrier_in_branch": wrong([
        ("    __syncthreads();\n    if (x < width)\n"
         "        for (unsigned y = first_row(); y < height; y += row_step())\n"
         "            target[(size_t)y * width + x] = tile[(y % rh) * rw + x % rw];\n",
         "    if (x < width) {\n        __syncthreads();\n"
         "        for (unsigned y = first_row(); y < height; y += row_step())\n"
         "            target[(size_t)y * width + x] = tile[(y % rh) * rw + x % rw];\n    }\n")],
        ["tile_shared_mistake"], line="    if (x < width) {\n        __syncthreads();"),
    # the repeater read column-major (rx rh + ry): its cells swapped across the diagonal
    "swapped_index": wrong([("        float value = repeater[ry * rw + rx];",
                             "        float value = repeater[rx * rh + ry];")],
                           ["tile_grid_over_repeater"]),
    # a grid-stride habit along the row: x steps by the grid's width, not the repeater's
    "wrong_stride": wrong([("            for (unsigned x = rx; x < width; x += rw)",
                            "            for (unsigned x = rx; x < width; x += gridDim.x * blockDim.x)")],
                          ["tile_grid_over_repeater"]),
    # the float4 stores stop at the last whole float4: the last width % 4 floats unwritten
    "vec4_tail_dropped": wrong([
        ("    if (tail + threadIdx.x < width)\n"
         "        row[tail + threadIdx.x] = ext[(tail + threadIdx.x) % rw];\n", "")],
        ["tile_rows_vec4"]),
    # the phase's step forgets that a thread's float4 holds 4 floats (blockDim.x, not 4 blockDim.x)
    "phase_stride": wrong([("step = 4 * blockDim.x % rw;", "step = blockDim.x % rw;")],
                          ["tile_rows_vec4"]),
    # the copies' b range one short: the last copy of each row of copies never counted
    "window_off_by_one": wrong([("            for (int b = b_first; b <= b_last; b++) {",
                                 "            for (int b = b_first; b < b_last; b++) {")],
                               ["lattice_gather"]),
    # a cell's column checked with > instead of >=: dx = rw reads the next row's first cell
    # (past the repeater's end on its last row: AddressSanitizer names the read)
    "bounds_off_by_one": wrong([("dx >= l.rw || dy >= l.rh)", "dx > l.rw || dy >= l.rh)")],
                               ["lattice_gather"]),
    # the count added without an atomic: overlapping copies' blocks lose each other's updates
    "count_not_atomic": wrong([("        atomicAdd(&count[(size_t)y * width + x], 1u);",
                                "        count[(size_t)y * width + x]++;")],
                              ["lattice_scatter_atomic"], race=True,
                              line="        count[(size_t)y * width + x]++;"),
}

RIGHT = {
    # every thread of the block copies a share of the repeater, not thread 0 alone
    "shared_copy_by_all": right([
        ("    if (threadIdx.x == 0 && threadIdx.y == 0)\n        for (unsigned i = 0; i < rw * rh; i++)\n",
         "    for (unsigned i = threadIdx.y * blockDim.x + threadIdx.x; i < rw * rh;\n"
         "         i += blockDim.x * blockDim.y)\n")], ["tile_shared_mistake"]),
    # the phase computed with a modulo at every float4 rather than stepped
    "phase_by_modulo": right([
        ("    unsigned p = (head + 4 * threadIdx.x) % rw, step = 4 * blockDim.x % rw;\n"
         "    for (unsigned k = threadIdx.x; k < nvec; k += blockDim.x) {\n"
         "        body[k] = make_float4(ext[p], ext[p + 1], ext[p + 2], ext[p + 3]);\n"
         "        p += step;\n        if (p >= rw)\n            p -= rw;\n    }\n",
         "    for (unsigned k = threadIdx.x; k < nvec; k += blockDim.x) {\n"
         "        unsigned p = (head + 4 * k) % rw;\n"
         "        body[k] = make_float4(ext[p], ext[p + 1], ext[p + 2], ext[p + 3]);\n    }\n")],
        ["tile_rows_vec4"]),
    # the copy walked row by row, the threads along each row, with no division per cell
    "scatter_by_rows": right([
        ("    for (int i = (int)threadIdx.x; i < l.rw * l.rh; i += (int)blockDim.x) {\n"
         "        int x = px + i % l.rw, y = py + i / l.rw;\n        float value = repeater[i];\n",
         "    for (int dy = 0; dy < l.rh; dy++)\n"
         "        for (int dx = (int)threadIdx.x; dx < l.rw; dx += (int)blockDim.x) {\n"
         "        int x = px + dx, y = py + dy;\n        float value = repeater[dy * l.rw + dx];\n")],
        ["lattice_scatter_atomic"]),
}
