"""lab13 matmul: shared tiles and their barriers, coarsening, register tiles, double buffering,
tensor cores."""
from catalogue import right, wrong

FILE = "matmul.cu"

# tiled_shared's step: the loads, the barriers around the products
TILED_LOAD_B = "        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;\n"
TILED_PRODUCTS = ("        for (int p = 0; p < TILE; p++)\n"
                  "            sum += as[ty][p] * bs[p][tx];\n")
TILED_STORE = ("    if (row < m && col < n)\n"
               "        c[(size_t)row * n + col] = sum;\n    /* SOLUTION END */")
# coarsened's B tiles and its first barrier
COARSE_B = ("            bs[ty][j * TILE + tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] "
            ": 0.0f;\n        }\n")
COARSE_PRODUCTS = "                sum[j] += as[ty][p] * bs[p][j * TILE + tx];"
# the naive kernel's dot product (naive_coalesced has the same text after another comment)
NAIVE_DOT = ("(m k may pass 2^32). */\n    if (row < m && col < n) {\n        float sum = 0.0f;\n"
             "        for (unsigned p = 0; p < k; p++)\n"
             "            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];\n")
# tensor_core's rounding of the tiles on their way into shared memory
ROUNDED = ["wmma::__float_to_tf32(v.%s)" % c for c in "xyzw"]
TC_COPY = "            c[(size_t)(row0 + r) * n + col0 + j] = ct[r][j];"

WRONG = {
    # no barrier after the products: a fast thread's next tile overwrites what the others still
    # read (write after read); the race checker names both lines
    "tiled_missing_second_barrier": wrong(
        [(TILED_PRODUCTS + "        __syncthreads();\n", TILED_PRODUCTS)], ["tiled_shared"],
        race=True, line="            sum += as[ty][p] * bs[p][tx];"),
    # no barrier between the tiles' loads and the products: a thread reads floats the others
    # have not stored yet (read after write)
    "coarsened_missing_first_barrier": wrong(
        [(COARSE_B + "        __syncthreads();\n", COARSE_B)], ["coarsened"], race=True,
        line=COARSE_PRODUCTS),
    # the steps only for threads inside C: the others skip the barriers (the strict check stops
    # the block at the first one)
    "barrier_in_bounds_branch": wrong(
        [("    for (unsigned t = 0; t < k; t += TILE) {\n        as[ty][tx] = row < m && t + tx < k ? "
          "a[(size_t)row * k + t + tx] : 0.0f;\n        for (int j",
          "    if (row < m)\n    for (unsigned t = 0; t < k; t += TILE) {\n        as[ty][tx] = "
          "row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;\n        for (int j")],
        ["coarsened"], line=COARSE_B + "        __syncthreads();"),
    # the tiles stored as tile[x][y], read as tile[y][x]: each block multiplies transposes
    "tile_indices_swapped": wrong(
        [("        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;\n"
          + TILED_LOAD_B,
          "        as[tx][ty] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;\n"
          + TILED_LOAD_B.replace("bs[ty][tx]", "bs[tx][ty]"))], ["tiled_shared"]),
    # whole steps of RT_BK only: the last k % 8 columns of A and rows of B are dropped
    "k_tail_dropped": wrong([("    for (unsigned t = 0; t < k; t += RT_BK) {",
                              "    for (unsigned t = 0; t + RT_BK <= k; t += RT_BK) {")],
                            ["register_tiled"]),
    # the store without its bounds check: threads past C's last row write past its end (ASan)
    "c_store_out_of_bounds": wrong([(TILED_STORE, TILED_STORE.replace(
        "    if (row < m && col < n)\n        c", "    c"))], ["tiled_shared"],
        line="        __syncthreads();\n    }\n    c[(size_t)row * n + col] = sum;"),
    # a thread stores its register tile only where all 8 of its rows lie inside C: the last
    # m % 8 rows are never written
    "register_tile_skips_last_rows": wrong([("            if (row0 + i < m && col0 + j < n)",
                                             "            if (row0 + RT_TM <= m && col0 + j < n)")],
                                           ["register_tiled"]),
    # the next step's tiles stored into the pair being multiplied, not the other one
    "double_buffer_same_pair": wrong([("            rt_store(at[s ^ 1], bt[s ^ 1], next);",
                                       "            rt_store(at[s], bt[s], next);")],
                                     ["double_buffered"], race=True,
                                     line="            ra[i] = at[p][RT_TM * threadIdx.y + i];"),
    # float4 loads wherever four elements remain, aligned or not (UBSan's misaligned load)
    "float4_unaligned": wrong([("        if (vec && c + 4 <= cols)", "        if (c + 4 <= cols)")],
                              ["register_tiled"],
                              line="            return ((const float4 *)p)[at / 4];"),
    # the coarsened thread's outputs one column apart instead of a tile apart
    "coarse_stride_1": wrong([("            unsigned col = col0 + j * TILE;",
                               "            unsigned col = col0 + j;")], ["coarsened"]),
    # A's rows taken as n long, as C's are (right for square matrices only)
    "naive_a_stride": wrong([(NAIVE_DOT, NAIVE_DOT.replace("a[(size_t)row * k + p]",
                                                           "a[(size_t)row * n + p]"))], ["naive"]),
    # the fragments loaded with the tiles' unpadded row length
    "tc_ldm_unpadded": wrong([("&at[wm + 16 * i][kk], TC_BK + TC_PAD);",
                               "&at[wm + 16 * i][kk], TC_BK);")], ["tensor_core"]),
    # no __syncwarp between the fragments' store and the copy: a lane reads elements of ct that
    # other lanes have not stored yet
    "tc_missing_syncwarp": wrong([("    __syncwarp();\n", "")], ["tensor_core"], race=True,
                                 line=TC_COPY),
    # the inputs not rounded to TF32: the tensor core cuts their low bits instead (times the
    # identity, C shows the cut where rounding to nearest was due)
    "tc_not_rounded": wrong([("at[r][p%s] = %s;" % (o, r), "at[r][p%s] = v.%s;" % (o, c))
                             for o, r, c in zip(("", " + 1", " + 2", " + 3"), ROUNDED, "xyzw")],
                            ["times_identity.tensor_core"]),
}

RIGHT = {
    # the products stop at k instead of multiplying the tiles' zeros
    "tiled_products_to_k": right([(TILED_PRODUCTS,
                                   "        for (int p = 0; p < TILE && t + p < k; p++)\n"
                                   "            sum += as[ty][p] * bs[p][tx];\n")],
                                 ["tiled_shared"]),
    # A's tile without its padding: bank conflicts in the transposed stores, still right
    "register_tile_unpadded": right([("typedef float rt_a_tile[RT_BK][RT_BM + RT_PAD];",
                                      "typedef float rt_a_tile[RT_BK][RT_BM];")],
                                    ["register_tiled", "double_buffered"]),
    # the whole block waits before the copy, not only the warp
    "tc_syncthreads": right([("    __syncwarp();\n", "    __syncthreads();\n")], ["tensor_core"]),
    # an explicit fused multiply-add: one rounding a product instead of two, within the bound
    "naive_fmaf": right([(NAIVE_DOT, NAIVE_DOT.replace(
        "sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];",
        "sum = fmaf(a[(size_t)row * k + p], b[(size_t)p * n + col], sum);"))], ["naive"]),
}
