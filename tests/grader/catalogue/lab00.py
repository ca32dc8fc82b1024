"""lab00 hello: where a thread sits in its block and grid, and what the device is."""
from catalogue import right, wrong

FILE = "hello.cu"

WRONG = {
    # the lane from threadIdx.x alone: right in 1D blocks, wrong in 8 x 8 ones
    "lane_from_x": wrong([("    p.lane = p.thread % warpSize;",
                           "    p.lane = threadIdx.x % warpSize;")], ["place_2d", "place_3d"]),
    # warp and lane swapped: the warp is the quotient by warpSize, the lane the remainder
    "warp_lane_swapped": wrong([
        ("    p.warp = p.thread / warpSize;\n    p.lane = p.thread % warpSize;",
         "    p.warp = p.thread % warpSize;\n    p.lane = p.thread / warpSize;")],
        ["place_1d", "place_2d", "place_3d"]),
    # gridDim.x for blockDim.x in the global index: blocks overlap or leave gaps unless the
    # grid and the block happen to be as long
    "grid_dim_for_block_dim": wrong([
        ("    write_place(out, blockIdx.x * blockDim.x + threadIdx.x);",
         "    write_place(out, blockIdx.x * gridDim.x + threadIdx.x);")], ["place_1d"]),
    # rows as wide as a block, not the grid: the blocks along x overwrite each other's rows
    "row_width_of_block": wrong([("    write_place(out, y * (gridDim.x * blockDim.x) + x);",
                                  "    write_place(out, y * blockDim.x + x);")], ["place_2d"]),
    # x and y swapped (column-major): a thread writes its place where the transposed one goes
    "swapped_index": wrong([("    write_place(out, y * (gridDim.x * blockDim.x) + x);",
                             "    write_place(out, x * (gridDim.y * blockDim.y) + y);")],
                           ["place_2d"]),
    # blockDim.x for blockDim.y in the row (copy-paste): right only in square blocks
    "row_from_block_x": wrong([
        ("    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;\n    write_place(out, y *",
         "    unsigned y = blockIdx.y * blockDim.x + threadIdx.y;\n    write_place(out, y *")],
        ["place_2d"]),
    # the parentheses forgotten: z * height + y * width + x is not (z * height + y) * width + x
    "precedence_3d": wrong([("    write_place(out, (z * height + y) * width + x);",
                             "    write_place(out, z * height + y * width + x);")], ["place_3d"]),
    # places numbered block by block (a unique id, but not the grid's rows the handout asks)
    "block_major": wrong([("    write_place(out, y * (gridDim.x * blockDim.x) + x);",
                           "    write_place(out, block_in_grid() * (blockDim.x * blockDim.y) + "
                           "thread_in_block());")], ["place_2d"]),
    # the 2D case launches place_1d (copy-paste): only the first row of every block is right
    "wrong_kernel_2d": wrong([
        ("    case HELLO_PLACE_2D:\n        place_2d<<<grid, block>>>(out);",
         "    case HELLO_PLACE_2D:\n        place_1d<<<grid, block>>>(out);")], ["place_2d"]),
    # grid and block swapped in the launch: every place's block, thread and warp wrong, and a
    # 1025-thread block launches as 1025 blocks instead of being refused
    "launch_swapped": wrong([("        place_1d<<<grid, block>>>(out);",
                              "        place_1d<<<block, grid>>>(out);")],
                            ["place_1d", "refused_shapes.place_1d"]),
    # the launch not checked: a refused shape reports LAB_OK, and its error is left for the next
    "launch_unchecked": wrong([("        break;\n    }\n    CUDA_TRY_LAUNCH();\n",
                                "        break;\n    }\n")], ["refused_shapes.*"]),
    # hello_print's launch not checked: a block z of 65 runs nothing and reports LAB_OK
    "print_unchecked": wrong([("    say_hello<<<grid, block>>>();\n    CUDA_TRY_LAUNCH();\n",
                               "    say_hello<<<grid, block>>>();\n")], ["hello_prints"]),
    # HELLO_THIS_DEVICE passed on to CUDA as a device number: -1 is none, and CUDA says so
    "this_device_unresolved": wrong([
        ("    if (device == HELLO_THIS_DEVICE)\n        CUDA_TRY(cudaGetDevice(&device));\n", "")],
        ["device_query"]),
    # the device asked for ignored, the current one queried whatever the number
    "device_ignored": wrong([
        ("    if (device == HELLO_THIS_DEVICE)\n        CUDA_TRY(cudaGetDevice(&device));\n",
         "    CUDA_TRY(cudaGetDevice(&device));\n")], ["device_query_refused"]),
    # the calls unchecked: a device that does not exist answers LAB_OK with figures of nothing
    "query_unchecked": wrong([
        ("    CUDA_TRY(cudaGetDeviceProperties(&prop, device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, "
         "device));\n",
         "    cudaGetDeviceProperties(&prop, device);\n"
         "    cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, device);\n"
         "    cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, device);\n")],
        ["device_query_refused"]),
    # the two clocks swapped (both attributes end in ClockRate)
    "clocks_swapped": wrong([
        ("cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, device)",
         "cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrMemoryClockRate, device)"),
        ("cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, device)",
         "cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrClockRate, device)")],
        ["device_query"]),
    # a field forgotten: the bus width stays what the struct held (the test's poison)
    "bus_width_unset": wrong([("    out->bus_width_bits = prop.memoryBusWidth;\n", "")],
                             ["device_query"]),
    # the shared memory of an SM for a block's
    "smem_per_sm": wrong([("    out->smem_per_block = prop.sharedMemPerBlock;",
                           "    out->smem_per_block = prop.sharedMemPerMultiprocessor;")],
                         ["device_query"]),
    # the threads an SM holds for the threads a block may have
    "threads_per_sm": wrong([
        ("    out->max_threads_per_block = prop.maxThreadsPerBlock;",
         "    out->max_threads_per_block = prop.maxThreadsPerMultiProcessor;")], ["device_query"]),
}

RIGHT = {
    # warp and lane with shifts and masks: the same as / and % by warpSize, which is 32
    "shift_and_mask": right([
        ("    p.warp = p.thread / warpSize;\n    p.lane = p.thread % warpSize;",
         "    p.warp = p.thread >> 5;\n    p.lane = p.thread & 31;")],
        ["place_1d", "place_2d", "place_3d"]),
    # the 3D index multiplied out: z * height * width + y * width + x is the same number
    "expanded_3d": right([("    write_place(out, (z * height + y) * width + x);",
                           "    write_place(out, z * height * width + y * width + x);")],
                         ["place_3d"]),
    # place_3d for every variant: with y and z of 1 it is place_1d and place_2d
    "one_kernel": right([
        ("        place_1d<<<grid, block>>>(out);", "        place_3d<<<grid, block>>>(out);"),
        ("        place_2d<<<grid, block>>>(out);", "        place_3d<<<grid, block>>>(out);")],
        ["place_1d", "place_2d", "place_3d"]),
    # the launch checked by hand: cudaGetLastError read and reported, as CUDA_TRY_LAUNCH does
    "manual_check": right([
        ("    say_hello<<<grid, block>>>();\n    CUDA_TRY_LAUNCH();\n",
         "    say_hello<<<grid, block>>>();\n    cudaError_t err = cudaGetLastError();\n"
         "    if (err != cudaSuccess)\n"
         "        return cuda_report(err, \"say_hello\", __FILE__, __LINE__);\n")],
        ["hello_prints"]),
    # every int figure by cudaDeviceGetAttribute, the name and the sizes from the properties
    "attributes": right([
        ("    out->cc_major = prop.major;\n    out->cc_minor = prop.minor;\n"
         "    out->sms = prop.multiProcessorCount;\n    out->warp_size = prop.warpSize;\n"
         "    out->max_threads_per_block = prop.maxThreadsPerBlock;\n",
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->cc_major, cudaDevAttrComputeCapabilityMajor, "
         "device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->cc_minor, cudaDevAttrComputeCapabilityMinor, "
         "device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->sms, cudaDevAttrMultiProcessorCount, "
         "device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->warp_size, cudaDevAttrWarpSize, device));\n"
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->max_threads_per_block, "
         "cudaDevAttrMaxThreadsPerBlock, device));\n"),
        ("    out->bus_width_bits = prop.memoryBusWidth;",
         "    CUDA_TRY(cudaDeviceGetAttribute(&out->bus_width_bits, "
         "cudaDevAttrGlobalMemoryBusWidth, device));")],
        ["device_query", "device_query_refused"]),
    # the name copied whole with memcpy (both arrays are 256 chars, the end included)
    "name_memcpy": right([
        ("#include <stdio.h>\n", "#include <stdio.h>\n#include <string.h>\n"),
        ("    snprintf(out->name, sizeof out->name, \"%s\", prop.name);",
         "    memcpy(out->name, prop.name, sizeof out->name);")],
        ["device_query"]),
}
