"""lab02 Mandelbrot: a pixel per thread, and the tests that save work."""
from catalogue import right, wrong

FILE = "mandelbrot.cu"

# kernels 3 (per_pixel_double) and 5 (periodicity): their SOLUTION comment's end, px and py
K3 = "f.y1d - py * f.dyd, maxiter). */\n    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;\n"
K5 = "escape_count_periodic. */\n    unsigned px = blockIdx.x * blockDim.x + threadIdx.x;\n"
PY = "    unsigned py = f.row0 + blockIdx.y * blockDim.y + threadIdx.y;\n"
# kernel 1's store, and next_pixel's draw of a tile
STORE1 = ("    if (px < f.width && py < f.height)\n        counts[(size_t)py * f.width + px] =\n"
          "            escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);")
DRAW = "    if (lane == 0)\n        tile = atomicAdd(next_tile, 1u);"

WRONG = {
    # c taken with x and y swapped: the image mirrored about its diagonal
    "swapped_xy": wrong([
        ("        counts[(size_t)py * f.width + px] =\n"
         "            escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);",
         "        counts[(size_t)py * f.width + px] =\n"
         "            escape_count(f.x0 + py * f.dx, f.y1 - px * f.dy, f.maxiter);")],
        ["per_pixel", "interior_saves_work", "periodicity_saves_work", "combined_saves_work"]),
    # row0 left out: the second launch of a grid folded past 65535 rows redraws the first's rows
    "row0_forgotten": wrong([(K5 + PY, K5 + PY.replace("f.row0 + ", ""))], ["periodicity"]),
    # the bounds check one too far in x: a pixel past each row's end, the last past the buffer's
    "past_the_end": wrong([("\n    if (px < f.width && py < f.height) {",
                            "\n    if (px <= f.width && py < f.height) {")], ["interior_tests"],
                          line="cy = f.y1 - py * f.dy;\n        counts[(size_t)py * f.width + px] ="),
    # the rows' stride taken as the height: the rows of a non-square image overlap or spread
    "wrong_stride": wrong([
        ("        counts[(size_t)py * f.width + px] =\n            escape_count(f.x0",
         "        counts[(size_t)py * f.height + px] =\n            escape_count(f.x0")],
        ["per_pixel"]),
    # the pixel's index in 32 bits: past 2^32 pixels it wraps onto the first rows
    "index_32bit": wrong([(STORE1, STORE1.replace("(size_t)py", "py"))],
                         ["past_2_32.per_pixel"]),
    # y from blockDim.x: right for square blocks only (the default block is 32x8)
    "block_shape": wrong([(K3 + PY, K3 + PY.replace("blockDim.y", "blockDim.x"))],
                         ["per_pixel_double"]),
    # the double kernel calls the float escape_count: deep zooms fall apart into flat blocks
    "double_in_float": wrong([("            escape_count_double(f.x0d + px * f.dxd",
                               "            escape_count(f.x0d + px * f.dxd")],
                             ["per_pixel_double"]),
    # one step too many: a pixel that never escapes gets maxiter + 1
    "maxiter_off_by_one": wrong([("    float x = 0.0f, y = 0.0f;\n    while (i < maxiter",
                                  "    float x = 0.0f, y = 0.0f;\n    while (i <= maxiter")],
                                ["per_pixel"]),
    # the rows of tiles rounded down: a partial row of tiles at the bottom never drawn
    "tiles_rounded_down": wrong([("    if (tile < across * ((f.height + 3) / 4)) {",
                                  "    if (tile < across * (f.height / 4)) {")],
                                ["persistent_tiles"]),
    # the tile counter bumped without an atomic: two warps may draw the same tile (lost update)
    "tile_counter_race": wrong([(DRAW, "    if (lane == 0)\n        tile = (*next_tile)++;")],
                               ["persistent_tiles"], race=True, line="tile = (*next_tile)++;"),
    # a counter of its own, not the launcher's: never reset, the next launch finds no tile left
    "counter_not_reset": wrong([
        ('#include "warp.h"\n',
         '#include "warp.h"\n\n__device__ unsigned tiles_drawn; /* tiles taken */\n'),
        (DRAW, "    if (lane == 0)\n        tile = atomicAdd(&tiles_drawn, 1u);")],
        ["persistent_tiles", "counter_reset"]),
    # the interior test after the loop it should save: right counts, no work saved
    "interior_after_loop": wrong([
        ("        counts[(size_t)py * f.width + px] =\n"
         "            in_cardioid_or_bulb(cx, cy) ? f.maxiter : escape_count(cx, cy, f.maxiter);",
         "        unsigned n = escape_count(cx, cy, f.maxiter);\n        counts[(size_t)py * f.width"
         " + px] = in_cardioid_or_bulb(cx, cy) ? f.maxiter : n;")],
        ["interior_saves_work"]),
    # the save point never moves on from step 1: a cycle is seen only if it passes through c
    "save_not_doubled": wrong([("            sy = y;\n            next *= 2;\n",
                                "            sy = y;\n")], ["periodicity_saves_work"]),
}

RIGHT = {
    # the bounds check as an early return
    "early_return": right([
        (STORE1, "    if (px >= f.width || py >= f.height)\n        return;\n"
                 "    counts[(size_t)py * f.width + px] =\n"
                 "        escape_count(f.x0 + px * f.dx, f.y1 - py * f.dy, f.maxiter);")],
        ["per_pixel"]),
    # the escape loop as a for with a break: the same steps, the same counts
    "for_break": right([
        ("    while (i < maxiter && x * x + y * y <= 4.0f) {\n        float t = x * x - y * y + cx;\n"
         "        y = 2.0f * x * y + cy;\n        x = t;\n        i++;\n    }\n"
         "    /* SOLUTION END */\n    return i;\n}\n\n/* 1.",
         "    for (; i < maxiter; i++) {\n        if (x * x + y * y > 4.0f)\n            break;\n"
         "        float t = x * x - y * y + cx;\n        y = 2.0f * x * y + cy;\n        x = t;\n"
         "    }\n    /* SOLUTION END */\n    return i;\n}\n\n/* 1.")],
        ["per_pixel", "interior_tests", "persistent_tiles"]),
    # the combined kernel's choice as an if: the cycle check only outside the cardioid and bulb
    "combined_if": right([
        ("            counts[(size_t)py * f.width + px] =\n                in_cardioid_or_bulb(cx, cy)"
         " ? f.maxiter : escape_count_periodic(cx, cy, f.maxiter);",
         "            unsigned n = f.maxiter;\n            if (!in_cardioid_or_bulb(cx, cy))\n"
         "                n = escape_count_periodic(cx, cy, f.maxiter);\n"
         "            counts[(size_t)py * f.width + px] = n;")],
        ["combined", "combined_saves_work", "counter_reset"]),
}
