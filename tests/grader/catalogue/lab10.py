"""lab10 stencil: halos in shared memory, barriers, clamped edges, textures, temporal blocking."""
from catalogue import right, wrong

FILE = "stencil.cu"

# adjacent_shared's load of the left neighbour, its barrier and its subtraction
ADJ_LOAD = ("        tile[0] = first > 0 ? in[first - 1] : 0;\n"
            "    __syncthreads();\n"
            "    if (i < n)\n"
            "        out[i] = tile[threadIdx.x + 1] - tile[threadIdx.x];\n")
# heat_shared's barrier and store; then the same with the barrier moved into the branch
UPDATE = ("heat_update(tile[ty][tx], tile[ty][tx - 1], tile[ty][tx + 1],\n"
          "                                         tile[ty - 1][tx], tile[ty + 1][tx]);\n")
SHARED_STORE = ("    __syncthreads();\n"
                "    unsigned tx = threadIdx.x + 1, ty = threadIdx.y + 1;\n"
                "    if (x < width && y < height)\n"
                "        out[y * pitch + x] = " + UPDATE)
SHARED_STORE_IN_BRANCH = ("    unsigned tx = threadIdx.x + 1, ty = threadIdx.y + 1;\n"
                          "    if (x < width && y < height) {\n"
                          "        __syncthreads();\n"
                          "        out[y * pitch + x] = " + UPDATE +
                          "    }\n")
# heat_temporal's update of a cell, with its source set back; then without
TEMPORAL_UPDATE = ("                b[cy][cx] = src[cy][cx] != HEAT_NO_SOURCE\n"
                   "                                ? src[cy][cx]\n"
                   "                                : heat_update(a[cy][cx], a[cy][w], a[cy][e], "
                   "a[n][cx], a[so][cx]);\n")
TEMPORAL_PLAIN = ("                b[cy][cx] = heat_update(a[cy][cx], a[cy][w], a[cy][e], "
                  "a[n][cx], a[so][cx]);\n")
TEMPORAL_STORE = "                out[gy * pitch + gx] = t[steps % 2][cy][cx];"
TEMPORAL_STORE_SOURCES = ("                out[gy * pitch + gx] = src[cy][cx] != HEAT_NO_SOURCE\n"
                          "                                           ? src[cy][cx]\n"
                          "                                           : t[steps % 2][cy][cx];")

WRONG = {
    # no barrier between the tile's load and its use: thread t reads tile[t], which thread
    # t - 1 may not have stored yet (a RAW hazard: the race checker names it)
    "tile_missing_barrier": wrong(
        [(ADJ_LOAD, ADJ_LOAD.replace("    __syncthreads();\n", ""))], ["adjacent_shared"],
        race=True, line="        out[i] = tile[threadIdx.x + 1] - tile[threadIdx.x];"),
    # the barrier inside the branch that keeps the block's threads past the grid's edge out:
    # those threads never reach it (the strict barrier check stops the block there)
    "barrier_in_branch": wrong(
        [(SHARED_STORE, SHARED_STORE_IN_BRANCH)], ["heat_shared"],
        line="    if (x < width && y < height) {\n        __syncthreads();"),
    # the halo loaded by RADIUS - 1 threads: the element next to each side of the block never
    # reaches the tile (a dropped halo element at the block's edge)
    "halo_short": wrong([("    if (t < RADIUS) {\n", "    if (t < RADIUS - 1) {\n")],
                        ["stencil1d_halo"]),
    # the tile's last halo row left out of the load loop: the south neighbours of the block's
    # bottom row are whatever shared memory held
    "south_halo_dropped": wrong([("k < (HEAT_BX + 2) * (HEAT_BY + 2);",
                                  "k < (HEAT_BX + 2) * (HEAT_BY + 1);")], ["heat_shared"]),
    # x and y swapped in the texture coordinates: the texture clamps, so nothing crashes, but
    # each cell is the transposed grid's
    "texture_xy_swapped": wrong([("float u = x + 0.5f, v = y + 0.5f;",
                                  "float u = y + 0.5f, v = x + 0.5f;")], ["heat_texture"]),
    # the east neighbour's clamp one too far: the last cell of a row reads the row's padding
    "east_edge_off_by_one": wrong([("e = x + 1 < width ? x + 1 : x;",
                                    "e = x + 1 <= width ? x + 1 : x;")], ["heat_global"]),
    # the sources never set back inside heat_temporal: it has no heat_reimpose after it
    "sources_not_reimposed": wrong([(TEMPORAL_UPDATE, TEMPORAL_PLAIN)], ["heat_temporal"]),
    # the sources set back only as the tile is stored: the steps inside the launch let them
    # cool (or warm), and their neighbours see that
    "sources_at_store_only": wrong([(TEMPORAL_UPDATE, TEMPORAL_PLAIN),
                                    (TEMPORAL_STORE, TEMPORAL_STORE_SOURCES)], ["heat_temporal"]),
    # the store takes buffer 0, right after HEAT_T_STEPS steps (an even number), wrong after
    # a launch of an odd number of steps (the last of 5: 4 + 1)
    "temporal_store_buffer_0": wrong([(TEMPORAL_STORE, TEMPORAL_STORE.replace("steps % 2", "0"))],
                                     ["heat_temporal"]),
    # a cold edge instead of an insulated one: the halo past the grid taken as 0 degrees, so
    # heat flows out through the edge
    "cold_edge": wrong([("        gx = gx < 0 ? 0 : gx >= (long)width ? width - 1 : gx;\n"
                         "        gy = gy < 0 ? 0 : gy >= (long)height ? height - 1 : gy;\n"
                         "        tile[cy][cx] = in[gy * pitch + gx];",
                         "        tile[cy][cx] = gx >= 0 && gx < (long)width && gy >= 0 && "
                         "gy < (long)height\n"
                         "                           ? in[gy * pitch + gx]\n"
                         "                           : 0;")], ["edges.heat_shared"]),
    # the adjacent difference's first element left out, as the seed's kernel does (i > 0)
    "first_element_skipped": wrong(
        [("    if (i < n)\n        out[i] = in[i] - (i > 0 ? in[i - 1] : 0);",
          "    if (i > 0 && i < n)\n        out[i] = in[i] - in[i - 1];")], ["adjacent_naive"]),
}

RIGHT = {
    # the seed's version: no halo in the tile, thread 0 reads its left neighbour from global
    # memory instead
    "halo_from_global": right(
        [("    if (i < n)\n        tile[threadIdx.x + 1] = in[i];\n"
          "    if (threadIdx.x == 0)\n" + ADJ_LOAD,
          "    if (i < n)\n        tile[threadIdx.x] = in[i];\n"
          "    __syncthreads();\n"
          "    if (i < n)\n"
          "        out[i] = tile[threadIdx.x] - (threadIdx.x > 0 ? tile[threadIdx.x - 1]\n"
          "                                      : i > 0 ? in[i - 1] : 0);\n")],
        ["adjacent_shared"]),
    # every step over the whole tile but its outer ring: stale cells at the border spoil one
    # more ring a step, which after the launch's steps still lies outside the stored middle
    "temporal_fixed_region": right(
        [("cy = s + threadIdx.y; cy < TH - s;", "cy = 1 + threadIdx.y; cy < TH - 1;"),
         ("cx = s + threadIdx.x; cx < TW - s;", "cx = 1 + threadIdx.x; cx < TW - 1;")],
        ["heat_temporal"]),
}
