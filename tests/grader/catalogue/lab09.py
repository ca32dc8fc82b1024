"""lab09 distance transform: scatter with atomicMin, gather, exact separable passes."""
from catalogue import right, wrong

FILE = "distance.cu"

WRONG = {
    # the window one pixel short at its far edges (px < x1, not <=)
    "window_short": wrong([
        ("        for (int px = win.x0; px <= win.x1; px++)\n            atomicMin(",
         "        for (int px = win.x0; px < win.x1; px++)\n            atomicMin(")],
        ["scatter_atomic_min"]),
    # no __syncwarp between the row's two sweeps: the right sweep's lanes read g where other
    # lanes of the warp wrote it in the left sweep (a ballot between orders no memory)
    "missing_syncwarp": wrong([("    }\n    __syncwarp();\n    for (int ce", "    }\n    for (int ce")],
                              ["exact_separable", "exact_profile"], race=True,
                              line="gy[x] = (unsigned short)min((int)gy[x], right - x);"),
    # the lanes past the band leave the loop before the ballot, whose mask names the whole warp
    # (undefined: here the ballot meets the leavers' __syncwarp and counts their votes)
    "ballot_in_branch": wrong([
        ("        int x = cx + lane, left;\n        unsigned b = __ballot_sync(~0u, x < x1 && m[x])",
         "        int x = cx + lane, left;\n        if (x >= x1)\n            break;\n"
         "        unsigned b = __ballot_sync(~0u, m[x])")],
        ["exact_separable"]),
    # the left sweep walks whole warps only: the band's last partial warp of g never written
    "rows_tail_dropped": wrong([("cx < x1; cx += 32)", "cx + 32 <= x1; cx += 32)")],
                               ["exact_separable"]),
    # the left sweep starts at the band, not D - 1 before it: white pixels in the band to the
    # left are never seen
    "band_no_halo": wrong([("    for (int cx = max(x0 - dmax + 1, 0); cx < x1; cx += 32) {",
                            "    for (int cx = x0; cx < x1; cx += 32) {")],
                          ["long_lines.exact_separable"]),
    # no barrier between the tile's copy and the search: a warp reads rows of the tile that
    # other warps have not written yet
    "tile_no_barrier": wrong([("    __syncthreads();\n    /* SOLUTION END */\n    if (x >= (int)w)",
                               "    /* SOLUTION END */\n    if (x >= (int)w)")],
                             ["exact_separable", "exact_profile"], race=True,
                             line="        tile[r * 32 + lane] ="),
    # the tile's rows outside the image padded with 0, as a stencil pads: a white row above
    # the image's top and below its bottom
    "tile_pad_zero": wrong([(": (unsigned short)dmax;", ": (unsigned short)0;")],
                           ["exact_separable"]),
    # the threads past the image's right edge leave before the barrier, which the others
    # then reach without them (CUDA leaves it undefined; the strict mode refuses it)
    "exit_before_barrier": wrong([
        ("    /* SOLUTION BEGIN: warp threadIdx.y copies",
         "    if (x >= (int)w)\n        return;\n    /* SOLUTION BEGIN: warp threadIdx.y copies")],
        ["exact_separable"], line="    __syncthreads();"),
    # the search stops at the tile's halo: with D - 1 past DISTANCE_HALO, the rows beyond it
    # are never seen
    "no_search_past_halo": wrong([
        ("        for (; k <= reach && (unsigned)(k * k) < best; k++) {\n"
         "            if (y - k >= 0)\n"
         "                best = min(best, rise(k, g[(size_t)(y - k) * w + x]));\n"
         "            if (y + k < (int)h)\n"
         "                best = min(best, rise(k, g[(size_t)(y + k) * w + x]));\n"
         "        }\n", "")],
        ["long_lines.exact_separable"]),
    # the profile's index a (LUT - 1) / D^2 in 32 bits: past a = 2^32 / 4095 it wraps
    "profile_overflow": wrong([
        ("    i = (unsigned)((unsigned long long)a * (DISTANCE_LUT - 1) /\n"
         "                   ((unsigned long long)dmax * (unsigned long long)dmax));",
         "    i = a * (DISTANCE_LUT - 1) / (dmax * dmax);")],
        ["far_distances.exact_profile"]),
    # the check before the atomic finished by a plain store: two threads lowering one pixel race
    # (and the larger value may land last)
    "plain_store": wrong([("    if (d < *o)\n        atomicMin(o, d);", "    if (d < *o)\n        *o = d;")],
                         ["scatter_distance_check"], race=True, line="        *o = d;"),
    # out indexed column by row (px w + py): the window written across the diagonal, and past
    # out's end where w > h (AddressSanitizer names the call)
    "swapped_index": wrong([("            lower_to(&out[(size_t)py * w + px],",
                             "            lower_to(&out[(size_t)px * w + py],")],
                           ["scatter_distance_check"],
                           line="            lower_to(&out[(size_t)px * w + py],"),
    # the window's rows stepped by blockDim.x (32), not blockDim.y (8): rows 8 to 31 skipped
    "wrong_stride": wrong([("py <= win.y1; py += (int)blockDim.y)",
                           "py <= win.y1; py += (int)blockDim.x)")], ["scatter_block_spread"]),
    # the ring's side columns stop one row short of the bottom row: pixels at (x +- r, y + r - 1)
    # never seen
    "ring_side_short": wrong([("            for (int py = y0; py <= y1; py++)",
                               "            for (int py = y0; py < y1; py++)")],
                             ["gather_rings"]),
    # a white right neighbour taken to cut the window's left half (x0, not x1, set to x)
    "shrunk_wrong_side": wrong([("    if (white_or_outside(mask, w, h, x + 1, y))\n        win.x1 = x;",
                                 "    if (white_or_outside(mask, w, h, x + 1, y))\n        win.x0 = x;")],
                               ["scatter_shrunk_window"]),
}

RIGHT = {
    # the tile copied by the block's threads as one flat range of its entries
    "tile_flat_copy": right([
        ("    for (int r = (int)threadIdx.y; r < rows; r += (int)blockDim.y) {\n"
         "        int i = top + r;\n"
         "        tile[r * 32 + lane] =\n"
         "            x < (int)w && i >= 0 && i < (int)h ? g[(size_t)i * w + x] : (unsigned short)dmax;\n"
         "    }\n",
         "    for (int e = (int)(threadIdx.y * 32 + threadIdx.x); e < rows * 32;\n"
         "         e += (int)(blockDim.y * 32)) {\n"
         "        int i = top + e / 32, c = (int)blockIdx.x * 32 + e % 32;\n"
         "        tile[e] = c < (int)w && i >= 0 && i < (int)h ? g[(size_t)i * w + c] : (unsigned short)dmax;\n"
         "    }\n")],
        ["exact_separable", "exact_profile"]),
    # the search, one loop: each row from the tile while it holds it, else from global memory
    "search_one_loop": right([
        ("        for (; k <= halo && (unsigned)(k * k) < best; k++)\n"
         "            best = min(best, min(rise(k, p[-32 * k]), rise(k, p[32 * k])));\n"
         "        for (; k <= reach && (unsigned)(k * k) < best; k++) {\n"
         "            if (y - k >= 0)\n"
         "                best = min(best, rise(k, g[(size_t)(y - k) * w + x]));\n"
         "            if (y + k < (int)h)\n"
         "                best = min(best, rise(k, g[(size_t)(y + k) * w + x]));\n"
         "        }\n",
         "        for (; k <= reach && (unsigned)(k * k) < best; k++) {\n"
         "            unsigned above = k <= halo ? p[-32 * k] : y - k >= 0 ? g[(size_t)(y - k) * w + x] : dmax;\n"
         "            unsigned below = k <= halo ? p[32 * k] : y + k < (int)h ? g[(size_t)(y + k) * w + x] : dmax;\n"
         "            best = min(best, min(rise(k, above), rise(k, below)));\n"
         "        }\n")],
        ["exact_separable", "exact_profile"]),
    # the block's threads share out the window as one flat range of its pixels
    "spread_flat": right([
        ("    for (int py = win.y0 + (int)threadIdx.y; py <= win.y1; py += (int)blockDim.y)\n"
         "        for (int px = win.x0 + (int)threadIdx.x; px <= win.x1; px += (int)blockDim.x)\n"
         "            atomicMin(&out[(size_t)py * w + px], squared(px - x, py - y));",
         "    int ww = win.x1 - win.x0 + 1, pixels = ww * (win.y1 - win.y0 + 1);\n"
         "    for (int i = (int)(threadIdx.y * blockDim.x + threadIdx.x); i < pixels;\n"
         "         i += (int)(blockDim.x * blockDim.y)) {\n"
         "        int px = win.x0 + i % ww, py = win.y0 + i / ww;\n"
         "        atomicMin(&out[(size_t)py * w + px], squared(px - x, py - y));\n    }")],
        ["scatter_block_spread"]),
    # ring 0 (the pixel itself) as an early return; the rows' loop then steps by 2 r alone
    "ring_zero_apart": right([
        ("    for (int py = y - r; py <= y + r; py += r > 0 ? 2 * r : 1)\n",
         "    if (r == 0) /* the pixel itself */\n"
         "        return mask[(size_t)y * w + x] ? 0u : best;\n"
         "    for (int py = y - r; py <= y + r; py += 2 * r)\n")],
        ["gather_rings"]),
    # the window walked by offsets from the pixel, clipped to the image first
    "window_by_offsets": right([
        ("    for (int py = win.y0; py <= win.y1; py++)\n"
         "        for (int px = win.x0; px <= win.x1; px++)\n"
         "            atomicMin(&out[(size_t)py * w + px], squared(px - x, py - y));",
         "    for (int dy = win.y0 - y; dy <= win.y1 - y; dy++)\n"
         "        for (int dx = win.x0 - x; dx <= win.x1 - x; dx++)\n"
         "            atomicMin(&out[(size_t)(y + dy) * w + x + dx], squared(dx, dy));")],
        ["scatter_atomic_min"]),
}
