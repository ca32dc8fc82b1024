"""lab07 transpose: coalescing, shared tiles, bank conflicts, wide loads."""
from catalogue import right, wrong

FILE = "transpose.cu"

# the tiled kernels' load of their tile (copy_shared, tiled, tiled_padded: the same text)
TILE_LOAD = ("    for (int j = 0; j < TILE; j += BLOCK_ROWS)\n"
             "        if (col < width && row + j < height)\n"
             "            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * width + col];\n")
# their stores after the barrier (tiled and tiled_padded: the same text), with what follows
# transpose_tiled's and tiled_padded's, to tell them apart
STORES = ("    col = tile_y() * TILE + threadIdx.x;\n"
          "    row = (size_t)blockIdx.x * TILE + threadIdx.y;\n"
          "    for (int j = 0; j < TILE; j += BLOCK_ROWS)\n"
          "        if (col < height && row + j < width)\n"
          "            out[(row + j) * height + col] = tile[threadIdx.x][threadIdx.y + j];\n"
          "    /* SOLUTION END */\n}\n\n")
TILED_STORES = STORES + "/* Padded"
PADDED_STORES = STORES + "__global__ void transpose_tiled_padded"

WRONG = {
    # the tiled transpose without its barrier
    "tile_missing_barrier": wrong([
        ("inside the matrix only. */\n    for (int j = 0; j < TILE; j += BLOCK_ROWS)\n"
         "        if (col < width && row + j < height)\n"
         "            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * width + col];\n"
         "    __syncthreads();\n",
         "inside the matrix only. */\n    for (int j = 0; j < TILE; j += BLOCK_ROWS)\n"
         "        if (col < width && row + j < height)\n"
         "            tile[threadIdx.y + j][threadIdx.x] = in[(row + j) * width + col];\n")],
        ["tiled"], race=True,
        line="out[(row + j) * height + col] = tile[threadIdx.x][threadIdx.y + j];"),
    # float2 loads whatever the alignment
    "misaligned": wrong([("    if (aligned && c + 2 <= cols)\n        return",
                          "    if (c + 2 <= cols)\n        return")],
                        ["tiled_64_float2"], line="return ((const float2 *)m)[(r * cols + c) / 2];"),
    # the naive transpose's indices in int: past 2^31 a read 8 GB before in (ASan)
    "index_int": wrong([
        ("        if (col < width && row + j < height)\n"
         "            out[col * height + row + j] = in[(row + j) * width + col];",
         "        if (col < width && row + j < height) {\n"
         "            int from = (row + j) * width + col, to = col * height + row + j;\n"
         "            out[to] = in[from];\n        }")],
        ["past_2_32.naive_rows"], line="            out[to] = in[from];"),
    # the tile's row from blockIdx.y alone, the rows folded into gridDim.z forgotten
    "grid_folding": wrong([("    return (size_t)blockIdx.z * gridDim.y + blockIdx.y;",
                            "    return blockIdx.y;")], ["folded_grids.*"]),
    # the tile read back along its rows, as in the load: a copy of each tile, not its transpose
    "tile_read_swapped": wrong([
        (TILED_STORES, TILED_STORES.replace("tile[threadIdx.x][threadIdx.y + j]",
                                            "tile[threadIdx.y + j][threadIdx.x]"))], ["tiled"]),
    # the store's bounds checked as the load's: width against columns of out (non-square only)
    "store_bounds_swapped": wrong([
        (PADDED_STORES, PADDED_STORES.replace("if (col < height && row + j < width)",
                                              "if (col < width && row + j < height)"))],
        ["tiled_padded", "u8_tiled_padded"]),
    # threads outside the matrix return before the barrier (strict mode), and skip their stores
    "early_return": wrong([("inside the matrix only. */\n" + TILE_LOAD,
                            "inside the matrix only. */\n    if (col >= width || row >= height)\n"
                            "        return;\n" + TILE_LOAD)],
                          ["tiled"], line="        return;\n" + TILE_LOAD + "    __syncthreads();"),
    # out's rows taken to be width long, as in's are (non-square only)
    "naive_out_stride": wrong([("            out[col * height + row + j] = in[",
                                "            out[col * width + row + j] = in[")], ["naive_rows"]),
    # __shfl_down_sync for __shfl_xor_sync: odd lanes take from the next pair, not their partner
    "shuffle_down": wrong([("__shfl_xor_sync(FULL_MASK, odd ? v[k] : v[k + 4], 1)",
                            "__shfl_down_sync(FULL_MASK, odd ? v[k] : v[k + 4], 1)")], ["shuffle"]),
    # the 8-bit words stored with in's shape, width x height, not out's (non-square only)
    "u8_store_shape": wrong([("store_word(out, height, width, r%s, col, b.%s" % (o, c),
                              "store_word(out, width, height, r%s, col, b.%s" % (o, c))
                             for o, c in (("", "x"), (" + 1", "y"), (" + 2", "z"), (" + 3", "w"))],
                            ["u8_words"]),
    # the occupancy over the SM's warps (64) where it counts the blocks' threads: 32 x too high
    "occupancy_over_warps": wrong([("    occ->fraction = (double)blocks * threads / most;",
                                    "    occ->fraction = (double)blocks * threads / (most / 32);")],
                                  ["occupancy", "occupancy_sweep"]),
    # the fraction in integers: 0 below a full SM, 1 at it
    "occupancy_int_division": wrong([("    occ->fraction = (double)blocks * threads / most;",
                                      "    occ->fraction = blocks * threads / most;")],
                                    ["occupancy", "occupancy_sweep"]),
    # the calculator asked before the kernel may take the bytes: past 48 KiB a GPU counts no
    # block, and too many bytes are not refused
    "occupancy_before_opt_in": wrong([("    if ((status = allow_extra_smem(kernel, extra)) != LAB_OK)\n"
                                       "        return status;\n"
                                       "    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                                       "    (void)status;\n"
                                       "    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor")],
                                     ["occupancy", "occupancy_args", "occupancy_sweep"]),
    # more threads than a block can have left to CUDA: its error, LAB_ECUDA, not LAB_EINVAL
    "occupancy_threads_unchecked": wrong([("    if (threads > (unsigned)block_most)\n"
                                           "        return LAB_EINVAL;\n", "")],
                                         ["occupancy_args", "occupancy_sweep"]),
    # the padded launch without its third parameter: the transpose is right, but no byte is
    # set aside and the experiment's curve stays flat (the CPU backend records the launch's)
    "padded_extra_not_passed": wrong([
        ("    transpose_tiled_padded<<<grid, block, extra>>>(in, out, width, height);",
         "    transpose_tiled_padded<<<grid, block>>>(in, out, width, height);")],
        ["padded_extra", "padded_extra_edges"]),
}

RIGHT = {
    # the copy without its registers: each element read and written in one statement
    "one_loop_copy": right([
        ("            v[j] = in[(row + j * BLOCK_ROWS) * width + col];\n    for (int j = 0; "
         "j < TILE / BLOCK_ROWS; j++)\n        if (col < width && row + j * BLOCK_ROWS < height)\n"
         "            out[(row + j * BLOCK_ROWS) * width + col] = v[j];",
         "            out[(row + j * BLOCK_ROWS) * width + col] = "
         "in[(row + j * BLOCK_ROWS) * width + col];")], ["copy"]),
    # the tile without its padding column: bank conflicts, slower, still right
    "tile_unpadded": right([("    __shared__ T tile[TILE][TILE + 1];",
                             "    __shared__ T tile[TILE][TILE];")],
                           ["tiled_padded", "u8_tiled_padded"]),
    # the u8 words' tile of uint4s without padding
    "u8_words_unpadded": right([("    __shared__ uint4 tile[TILE][TILE + 1];",
                                 "    __shared__ uint4 tile[TILE][TILE];")], ["u8_words"]),
    # the partner lane named with __shfl_sync and lane ^ 1 instead of __shfl_xor_sync
    "shuffle_by_lane": right([("__shfl_xor_sync(FULL_MASK, odd ? v[k] : v[k + 4], 1)",
                               "__shfl_sync(FULL_MASK, odd ? v[k] : v[k + 4], threadIdx.x ^ 1)")],
                             ["shuffle"]),
    # the SM's and a block's most threads from cudaGetDeviceProperties
    "occupancy_from_properties": right([
        ("    CUDA_TRY(cudaDeviceGetAttribute(&block_most, cudaDevAttrMaxThreadsPerBlock, dev));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&most, cudaDevAttrMaxThreadsPerMultiProcessor, dev));",
         "    cudaDeviceProp prop;\n"
         "    CUDA_TRY(cudaGetDeviceProperties(&prop, dev));\n"
         "    block_most = prop.maxThreadsPerBlock;\n"
         "    most = prop.maxThreadsPerMultiProcessor;")],
        ["occupancy", "occupancy_args", "occupancy_sweep"]),
}
