"""lab07 transpose: coalescing, shared tiles, bank conflicts, wide loads."""
from catalogue import right, wrong

FILE = "transpose.cu"

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
}

RIGHT = {
    # the copy without its registers: each element read and written in one statement
    "one_loop_copy": right([
        ("            v[j] = in[(row + j * BLOCK_ROWS) * width + col];\n    for (int j = 0; "
         "j < TILE / BLOCK_ROWS; j++)\n        if (col < width && row + j * BLOCK_ROWS < height)\n"
         "            out[(row + j * BLOCK_ROWS) * width + col] = v[j];",
         "            out[(row + j * BLOCK_ROWS) * width + col] = "
         "in[(row + j * BLOCK_ROWS) * width + col];")], ["copy"]),
}
