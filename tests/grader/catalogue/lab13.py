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
# double_buffered's step: the wait for its copies, the barrier after it, the products
DB_WAIT = "        __pipeline_wait_prior(RT_STAGES - 2);\n"
DB_READ = "            float4 v = *(const float4 *)&at[p][rt_row(i)];"
# tensor_core's write of C: a row of fragments stored into the warp's strip, the warp waits, the
# strip copied to C, the warp waits again
TC_STORED = "wmma::mem_row_major);\n        __syncwarp();\n"
TC_COPY = "                c[(size_t)(row0 + 16 * i + r) * n + col0 + j] = ct[r][j];"
TC_COPIED = TC_COPY + "\n        }\n        __syncwarp();\n"

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
    "register_tile_skips_last_rows": wrong(
        [("            if (row < m && col < n)\n                c[(size_t)row * n + col] = acc[i][j];",
          "            if (row0 + rt_row(RT_TM - 1) < m && col < n)\n"
          "                c[(size_t)row * n + col] = acc[i][j];")], ["register_tiled"]),
    # the copies of a later step started into the pair being multiplied, not the free one
    "double_buffer_same_pair": wrong([("rt_copy(at[next % RT_STAGES], bt[next % RT_STAGES],",
                                       "rt_copy(at[s % RT_STAGES], bt[s % RT_STAGES],")],
                                     ["double_buffered"]),
    # a wait for all but the latest RT_STAGES - 1 groups: this step's copies may still be on
    # their way
    "pipeline_wait_one_short": wrong([(DB_WAIT, DB_WAIT.replace("- 2", "- 1"))],
                                     ["double_buffered"]),
    # the wait without the barrier after it: a thread's own copies have landed, not the others'
    "pipeline_no_barrier": wrong([(DB_WAIT + "        __syncthreads();\n", DB_WAIT)],
                                 ["double_buffered"], race=True, line=DB_READ),
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
    "tc_ldm_unpadded": wrong([("&s.a[wm + 16 * i][kk], TC_BK + TC_APAD);",
                               "&s.a[wm + 16 * i][kk], TC_BK);")], ["tensor_core"]),
    # no barrier between the last step's products and the fragments' stores: a fast warp
    # overwrites a stage that a slow one still reads
    "tc_no_barrier_before_c": wrong([("    __syncthreads();\n    tc_write(", "    tc_write(")],
                                    ["tensor_core"], race=True,
                                    line="            wmma::load_matrix_sync(fa[i], &s.a[wm + 16 * i]"
                                    "[kk], TC_BK + TC_APAD);"),
    # no __syncwarp between the fragments' store and the copy: a lane reads elements of ct that
    # other lanes have not stored yet
    "tc_missing_syncwarp": wrong([(TC_STORED, "wmma::mem_row_major);\n")], ["tensor_core"],
                                 race=True, line=TC_COPY),
    # no __syncwarp after the copy: the next row's stores overwrite elements of the strip that
    # other lanes have not copied yet (write after read)
    "tc_missing_second_syncwarp": wrong([(TC_COPIED, TC_COPY + "\n        }\n")], ["tensor_core"],
                                        race=True, line=TC_COPY),
    # every warp given the first warp's strip: warps overwrite each other's rows of C
    "tc_one_strip": wrong([("(tc_c_row *)tc_smem + 16 * warp,", "(tc_c_row *)tc_smem,")],
                          ["tensor_core"], race=True,
                          line="            wmma::store_matrix_sync(&ct[0][16 * j], acc[i][j], "
                          "TC_WN + TC_CPAD,"),
    # every row of fragments copied to the first 16 rows of the warp's part of C
    "tc_strip_row_dropped": wrong([(TC_COPY, TC_COPY.replace("(row0 + 16 * i + r)", "(row0 + r)"))],
                                  ["tensor_core"]),
    # the inputs not rounded to TF32: the tensor core cuts their low bits instead (times the
    # identity, C shows the cut where rounding to nearest was due)
    "tc_not_rounded": wrong([("            tf32_round(f%s);\n" % f, "") for f in ("a[i]", "b[j]")],
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
    # copy4 a float at a time, aligned or not: no 16-byte copies, still right
    "copy4_scalar": right([("    if (vec) {\n        copy_async<16>(dst, p, at, r < rows && c < cols);\n"
                            "        return;\n    }\n", "")], ["double_buffered", "tensor_core"]),
    # the whole block waits before the copy, not only the warp
    "tc_syncthreads": right([(TC_STORED, "wmma::mem_row_major);\n        __syncthreads();\n")],
                            ["tensor_core"]),
    # an explicit fused multiply-add: one rounding a product instead of two, within the bound
    "naive_fmaf": right([(NAIVE_DOT, NAIVE_DOT.replace(
        "sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];",
        "sum = fmaf(a[(size_t)row * k + p], b[(size_t)p * n + col], sum);"))], ["naive"]),
}
