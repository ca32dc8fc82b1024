"""lab10 stencil: halos in shared memory, barriers, clamped edges, textures, temporal blocking."""
from catalogue import right, wrong

FILE = "stencil.cu"

# adjacent_shared's load of the left neighbour, its barrier and its subtractions
ADJ_LOAD = ("        tile[0] = first > 0 ? in[first - 1] : 0;\n"
            "    __syncthreads();\n"
            "    for (unsigned k = 0; k < LINE_ITEMS; k++) {\n"
            "        unsigned j = t + k * LINE_THREADS;\n"
            "        if (first + j < n)\n"
            "            out[first + j] = tile[j + 1] - tile[j];\n")
# adjacent_shared's tile, loaded at j + 1 behind the left neighbour
ADJ_TILE = ("    for (unsigned k = 0; k < LINE_ITEMS; k++) {\n"
            "        size_t i = first + t + k * LINE_THREADS;\n"
            "        if (i < n)\n"
            "            tile[t + k * LINE_THREADS + 1] = in[i];\n"
            "    }\n"
            "    if (t == 0)\n" + ADJ_LOAD)
# heat_shared's barrier before its stores; then the barrier moved into a branch
SHARED_STORE = "    __syncthreads();\n    unsigned x = x0 + 1 + tx, cx = tx + 1;\n    int v[HEAT_ROWS];"
SHARED_STORE_IN_BRANCH = ("    unsigned x = x0 + 1 + tx, cx = tx + 1;\n"
                          "    if (x < width)\n"
                          "        __syncthreads();\n"
                          "    int v[HEAT_ROWS];")
# heat_shared's loads of its halo: the rows above and below, the columns, each clamped
# (sobel_shared's load has the same lines: each with the line after or before it that names
# HEAT_, so that it is heat_shared's)
SHARED_NORTH = "        tile[0][tx + 1] = col[(size_t)clamped(y0, height) * pitch];\n    if (ty == HEAT_BY - 1)\n"
SHARED_SOUTH = ("    if (ty == HEAT_BY - 1)\n"
                "        tile[HEAT_TY + 1][tx + 1] = col[(size_t)clamped(y0 + HEAT_TY + 1, height) * pitch];\n")
SHARED_COLUMN = ("        unsigned cy = k % (HEAT_TY + 2), cx = k < HEAT_TY + 2 ? 0 : HEAT_BX + 1;\n"
                 "        tile[cy][cx] = in[(size_t)clamped(y0 + cy, height) * pitch + clamped(x0 + cx, width)];\n")
# heat_temporal's sources set back after each step, where the tile has some
TEMPORAL_SOURCES = ("        for (unsigned k = 0; k < here; k++)\n"
                    "            for (unsigned j = 0; j < HEAT_T_CY; j++)\n"
                    "                for (unsigned i = 0; i < HEAT_T_CX; i++)\n"
                    "                    if (list[k].x == (unsigned)mx[i] && list[k].y == (unsigned)my[j])\n"
                    "                        b[ty * HEAT_T_CY + j + 1][tx + HEAT_BX * i + 1] = list[k].temp;\n")
TEMPORAL_STORE = "                out[gy * pitch + gx] = t[steps % 2][cy + 1][cx + 1];\n"
TEMPORAL_STORE_IF = ("            if (cx >= HEAT_T_STEPS && cx < TW - HEAT_T_STEPS && gx < width)\n"
                     + TEMPORAL_STORE)
TEMPORAL_STORE_SOURCES = ("            if (cx >= HEAT_T_STEPS && cx < TW - HEAT_T_STEPS && gx < width) {\n"
                          + TEMPORAL_STORE +
                          "                for (unsigned k = 0; k < here; k++)\n"
                          "                    if (list[k].x == gx && list[k].y == gy)\n"
                          "                        out[gy * pitch + gx] = list[k].temp;\n"
                          "            }\n")
# heat_temporal's barrier at the top of each step
TEMPORAL_STEP = ("    for (unsigned s = 0; s < steps; s++) {\n"
                 "        int(*a)[TW + 2] = t[s % 2], (*b)[TW + 2] = t[(s + 1) % 2];\n"
                 "        int v[HEAT_T_CY][HEAT_T_CX];\n"
                 "        __syncthreads();\n")

# sobel_shared's halo columns, every row of them (the corners too), the barrier, the reads
SOBEL_COLUMNS = ("    for (unsigned k = ty * SOBEL_BX + tx; k < 2 * (SOBEL_TY + 2); k += SOBEL_BX * SOBEL_BY) {\n"
                 "        unsigned cy = k % (SOBEL_TY + 2), cx = k < SOBEL_TY + 2 ? 0 : SOBEL_BX + 1;\n"
                 "        tile[cy][cx] = in[(size_t)clamped(y0 + cy, height) * pitch + clamped(x0 + cx, width)];\n"
                 "    }\n")
SOBEL_READS = "        w[r] = row[cx - 1], m[r] = row[cx], e[r] = row[cx + 1];"
# sobel_shared's whole load: its own pixels, the halo rows, the halo columns
SOBEL_LOAD = ("    const unsigned char *col = in + clamped(x0 + 1 + tx, width); /* the thread's column */\n"
              "    for (unsigned r = 0; r < SOBEL_ROWS; r++) {\n"
              "        unsigned cy = ty * SOBEL_ROWS + r + 1;\n"
              "        tile[cy][tx + 1] = col[(size_t)clamped(y0 + cy, height) * pitch];\n"
              "    }\n"
              "    if (ty == 0)\n"
              "        tile[0][tx + 1] = col[(size_t)clamped(y0, height) * pitch];\n"
              "    if (ty == SOBEL_BY - 1)\n"
              "        tile[SOBEL_TY + 1][tx + 1] = col[(size_t)clamped(y0 + SOBEL_TY + 1, height) * pitch];\n"
              + SOBEL_COLUMNS)
SOBEL_STORE_IF = "        if (x < width && y < height)\n            out[(size_t)y * pitch + x] = (unsigned char)sobel_magnitude"
# sobel_texture's fetches of a row of the window
SOBEL_FETCHES = ("        w[r] = tex2D<unsigned char>(in, u - 1.0f, vr);\n"
                 "        m[r] = tex2D<unsigned char>(in, u, vr);\n"
                 "        e[r] = tex2D<unsigned char>(in, u + 1.0f, vr);\n")

WRONG = {
    # no barrier between the tile's load and its use: tile[j] was stored by another thread,
    # which may not have stored it yet (a RAW hazard: the race checker names it)
    "tile_missing_barrier": wrong(
        [(ADJ_LOAD, ADJ_LOAD.replace("    __syncthreads();\n", ""))], ["adjacent_shared"],
        race=True, line="            out[first + j] = tile[j + 1] - tile[j];"),
    # the barrier inside the branch that keeps the block's threads past the grid's edge out:
    # those threads never reach it (the strict barrier check stops the block there)
    "barrier_in_branch": wrong(
        [(SHARED_STORE, SHARED_STORE_IN_BRANCH)], ["heat_shared"],
        line="    if (x < width)\n        __syncthreads();"),
    # the halo loaded by RADIUS - 1 threads: the element next to each side of the block never
    # reaches the tile (a dropped halo element at the block's edge)
    "halo_short": wrong([("    if (t < RADIUS) {\n", "    if (t < RADIUS - 1) {\n")],
                        ["stencil1d_halo"]),
    # the tile's halo row below left out of the loads: the south neighbours of the block's
    # bottom row are whatever shared memory held
    "south_halo_dropped": wrong([(SHARED_SOUTH, "")], ["heat_shared"]),
    # x and y swapped in the texture coordinates: the texture clamps, so nothing crashes, but
    # each cell is the transposed grid's
    "texture_xy_swapped": wrong([("float u = x + 0.5f, v = y + 0.5f;\n    int col[",
                                  "float u = y + 0.5f, v = x + 0.5f;\n    int col[")], ["heat_texture"]),
    # the east neighbour's clamp one too far: the last cell of a row reads the row's padding
    "east_edge_off_by_one": wrong([("e = x + 1 < width ? x + 1 : x;",
                                    "e = x + 1 <= width ? x + 1 : x;")], ["heat_global"]),
    # the sources never set back inside heat_temporal: it has no heat_reimpose after it
    "sources_not_reimposed": wrong([(TEMPORAL_SOURCES, "")], ["heat_temporal"]),
    # the sources set back only as the tile is stored: the steps inside the launch let them
    # cool (or warm), and their neighbours see that
    "sources_at_store_only": wrong([(TEMPORAL_SOURCES, ""),
                                    (TEMPORAL_STORE_IF, TEMPORAL_STORE_SOURCES)], ["heat_temporal"]),
    # the store takes buffer 0, right after HEAT_T_STEPS steps (an even number), wrong after
    # a launch of an odd number of steps (the last of 5: 4 + 1)
    "temporal_store_buffer_0": wrong([(TEMPORAL_STORE, TEMPORAL_STORE.replace("steps % 2", "0"))],
                                     ["heat_temporal"]),
    # a cold edge instead of an insulated one: the halo past the grid taken as 0 degrees, so
    # heat flows out through the edge
    "cold_edge": wrong([(SHARED_NORTH, "        tile[0][tx + 1] = y0 >= 0 ? col[(size_t)y0 * pitch] : 0;\n"
                                       "    if (ty == HEAT_BY - 1)\n"),
                        (SHARED_SOUTH,
                         "    if (ty == HEAT_BY - 1)\n"
                         "        tile[HEAT_TY + 1][tx + 1] = y0 + HEAT_TY + 1 < (int)height\n"
                         "                                        ? col[(size_t)(y0 + HEAT_TY + 1) * pitch]\n"
                         "                                        : 0;\n"),
                        (SHARED_COLUMN,
                         "        unsigned cy = k % (HEAT_TY + 2), cx = k < HEAT_TY + 2 ? 0 : HEAT_BX + 1;\n"
                         "        tile[cy][cx] = y0 + (int)cy >= 0 && y0 + cy < height && x0 + (int)cx >= 0 &&\n"
                         "                               x0 + cx < width\n"
                         "                           ? in[(size_t)(y0 + cy) * pitch + x0 + cx]\n"
                         "                           : 0;\n")], ["edges.heat_shared"]),
    # no barrier between sobel_shared's tile load and its reads: a thread reads the pixels of
    # its neighbours (and the halo), which they may not have stored yet (RAW)
    "sobel_missing_barrier": wrong(
        [(SOBEL_COLUMNS + "    __syncthreads();\n", SOBEL_COLUMNS)], ["sobel_shared"], race=True,
        line=SOBEL_READS),
    # the halo columns loaded beside the tile's own rows only, as a 5-point stencil would have
    # it: the 4 corners of the halo, which a 3 x 3 window reads, are whatever shared memory held
    "sobel_corners_not_loaded": wrong(
        [(SOBEL_COLUMNS,
          SOBEL_COLUMNS.replace("k < 2 * (SOBEL_TY + 2)", "k < 2 * SOBEL_TY")
                       .replace("cy = k % (SOBEL_TY + 2), cx = k < SOBEL_TY + 2 ?",
                                "cy = k % SOBEL_TY + 1, cx = k < SOBEL_TY ?"))],
        ["sobel_shared"]),
    # tex2D's coordinates swapped (row first, as an array is indexed): the texture clamps, so
    # nothing crashes, but each window is the transposed image's
    "sobel_texture_xy_swapped": wrong(
        [(SOBEL_FETCHES, "        w[r] = tex2D<unsigned char>(in, vr, u - 1.0f);\n"
                         "        m[r] = tex2D<unsigned char>(in, vr, u);\n"
                         "        e[r] = tex2D<unsigned char>(in, vr, u + 1.0f);\n")],
        ["sobel_texture"]),
    # the last column left out, as if a pixel with no east neighbour had no edge (a "valid"
    # convolution): its pixels keep whatever the output held
    "sobel_last_column_dropped": wrong(
        [(SOBEL_STORE_IF, SOBEL_STORE_IF.replace("x < width", "x + 1 < width"))], ["sobel_shared"]),
    # the halo past the image's left and right edges taken as 0 instead of the edge's pixels
    # (zero padding, not the replicated border): a constant image gets edges at its sides
    "sobel_border_zero": wrong(
        [(SOBEL_COLUMNS,
          SOBEL_COLUMNS.replace(
              "        tile[cy][cx] = in[(size_t)clamped(y0 + cy, height) * pitch + clamped(x0 + cx, width)];\n",
              "        tile[cy][cx] = x0 + (int)cx >= 0 && x0 + cx < width\n"
              "                           ? in[(size_t)clamped(y0 + cy, height) * pitch + x0 + cx]\n"
              "                           : 0;\n"))],
        ["edges.sobel_shared"]),
    # the adjacent difference's first element left out, as the seed's kernel does (i > 0)
    "first_element_skipped": wrong(
        [("    if (i < n)\n        out[i] = in[i] - (i > 0 ? in[i - 1] : 0);",
          "    if (i > 0 && i < n)\n        out[i] = in[i] - in[i - 1];")], ["adjacent_naive"]),
}

RIGHT = {
    # sobel_shared's tile, halo and all, loaded by one loop over its 34 x 34 pixels, each
    # thread taking every 256th: simpler, any halo width, and the corners come with it (its
    # loads are no longer a warp's row of 32 pixels, 34 pixels a row instead)
    "sobel_tile_one_loop": right(
        [(SOBEL_LOAD,
          "    for (unsigned k = ty * SOBEL_BX + tx; k < (SOBEL_TY + 2) * (SOBEL_BX + 2);\n"
          "         k += SOBEL_BX * SOBEL_BY) {\n"
          "        unsigned cy = k / (SOBEL_BX + 2), cx = k % (SOBEL_BX + 2);\n"
          "        tile[cy][cx] = in[(size_t)clamped(y0 + cy, height) * pitch + clamped(x0 + cx, width)];\n"
          "    }\n")],
        ["sobel_shared"]),
    # the seed's version: no halo in the tile, the tile's first element reads its left
    # neighbour from global memory instead
    "halo_from_global": right(
        [(ADJ_TILE,
          "    for (unsigned k = 0; k < LINE_ITEMS; k++) {\n"
          "        size_t i = first + t + k * LINE_THREADS;\n"
          "        if (i < n)\n"
          "            tile[t + k * LINE_THREADS] = in[i];\n"
          "    }\n"
          "    __syncthreads();\n"
          "    for (unsigned k = 0; k < LINE_ITEMS; k++) {\n"
          "        unsigned j = t + k * LINE_THREADS;\n"
          "        if (first + j < n)\n"
          "            out[first + j] = tile[j] - (j > 0 ? tile[j - 1] : first > 0 ? in[first - 1] : 0);\n")],
        ["adjacent_shared"]),
    # the barrier at the end of each step, and one after the load, instead of one at the top
    # of each step: the same hazards covered (the last step's is one too many)
    "temporal_barrier_at_end": right(
        [(TEMPORAL_STEP, "    __syncthreads();\n" + TEMPORAL_STEP.replace("        __syncthreads();\n", "")),
         (TEMPORAL_SOURCES + "    }\n", TEMPORAL_SOURCES + "        __syncthreads();\n    }\n")],
        ["heat_temporal"]),
}
