"""lab01 vector add: indices, bounds, grid-stride loops, 2D grids, vector loads, event timing."""
from catalogue import right, wrong

FILE = "vector_add.cu"

WRONG = {
    # the float4 kernel forgets the last n % 4 elements
    "tail_dropped": wrong([
        ("    for (size_t i = n / 4 * 4 + first; i < n; i += stride)\n        c[i] = a[i] + b[i];\n",
         "")], ["grid_stride_float4", "float4_tails"]),
    # a bounds check one too far: a write past the end of c (AddressSanitizer names it)
    "past_the_end": wrong([("    if (i < n)\n        c[i] = a[i] + b[i];",
                            "    if (i <= n)\n        c[i] = a[i] + b[i];")],
                          ["thread_per_element"], line="    if (i <= n)\n        c[i] = a[i] + b[i];"),
    # the 2D index with row and column swapped
    "swapped_index": wrong([("    size_t i = row * ROW + col;", "    size_t i = col * ROW + row;")],
                           ["grid_2d", "grid_2d_many_rows"]),
    # a grid-stride loop that steps by the block: right, but every block redoes the rest of the
    # vector (and the blocks write the same elements: a race)
    "wrong_stride": wrong([
        ("    size_t stride = (size_t)gridDim.x * blockDim.x;\n    for (size_t i = (size_t)blockIdx.x",
         "    size_t stride = blockDim.x;\n    for (size_t i = (size_t)blockIdx.x")],
        ["grid_stride", "host_round_trip"]),
    # the global index in int: past 2^31 elements skipped, past 2^32 written again at 0
    "index_int": wrong([
        ("    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)",
         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)")],
        ["past_2_32.thread_per_element"]),
    # a block row per matrix row (blockDim.y forgotten): refused past 65535 rows
    "grid_rows": wrong([("        grid2.y = (unsigned)div_up(div_up(n, ROW), block.y);",
                         "        grid2.y = (unsigned)div_up(n, ROW);")], ["grid_2d_many_rows"]),
    # the (size_t) cast forgotten: blockIdx.x * blockDim.x multiplies in 32 bits and wraps
    # past 2^32, so the last blocks write the first elements again
    "index_product_32_bits": wrong([
        ("    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)",
         "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)")],
        ["past_2_32.thread_per_element"]),
    # one_block without its loop: the block's 1024 threads add the first 1024 elements only
    "one_block_no_loop": wrong([
        ("    for (size_t i = threadIdx.x; i < n; i += blockDim.x)\n        c[i] = a[i] + b[i];",
         "    size_t i = threadIdx.x;\n    if (i < n)\n        c[i] = a[i] + b[i];")],
        ["one_block"]),
    # gridDim.x for blockDim.x in the global index: blocks overlap and leave gaps
    "grid_dim_for_block_dim": wrong([
        ("    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)",
         "    size_t i = (size_t)blockIdx.x * gridDim.x + threadIdx.x;\n    if (i < n)")],
        ["thread_per_element"]),
    # the grid-stride loop starts at threadIdx.x, the block forgotten: every block walks the
    # same elements, and those of threadIdx.x >= blockDim.x within each stride stay unwritten
    "stride_from_thread": wrong([
        ("    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)",
         "    for (size_t i = threadIdx.x; i < n; i += stride)")], ["grid_stride"]),
    # the float4 loop bounded by n, not n / 4: float4 i reads past the vectors' end (ASan)
    "float4_bound_n": wrong([("    for (size_t i = first; i < n / 4; i += stride) {",
                              "    for (size_t i = first; i < n; i += stride) {")],
                            ["grid_stride_float4"], line="        float4 x = a4[i], y = b4[i];"),
    # the float4 kernel's indices in int: the tail's start, past 2^32, wraps to a small index
    "float4_index_int": wrong([("    for (size_t i = first; i < n / 4; i += stride) {",
                                "    for (int i = first; i < n / 4; i += stride) {"),
                               ("    for (size_t i = n / 4 * 4 + first; i < n; i += stride)",
                                "    for (int i = n / 4 * 4 + first; i < n; i += stride)")],
                              ["past_2_32.grid_stride_float4"]),
    # grid_2d checks the column but not n: the ragged last row reads past the end (ASan)
    "grid_2d_no_n_check": wrong([("    if (col < ROW && i < n)", "    if (col < ROW)")],
                                ["grid_2d", "writes_exactly_n.grid_2d"],
                                line="    if (col < ROW)\n        c[i] = a[i] + b[i];"),
    # blockDim.x for blockDim.y in the row (copy-paste): 32 rows a block row, 24 of them skipped
    "row_from_block_x": wrong([("    size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;",
                                "    size_t row = (size_t)blockIdx.y * blockDim.x + threadIdx.y;")],
                              ["grid_2d"]),
    # the block rows rounded down (div_up forgotten): the last rows left out, and an empty grid
    # below 8 rows
    "grid_rows_floor": wrong([("        grid2.y = (unsigned)div_up(div_up(n, ROW), block.y);",
                               "        grid2.y = (unsigned)(div_up(n, ROW) / block.y);")],
                             ["grid_2d"]),
    # the result copied back as n bytes, not n floats: three quarters of c never come back
    "copy_back_n_bytes": wrong([("cudaMemcpy(c, d[2], bytes, cudaMemcpyDeviceToHost)",
                                 "cudaMemcpy(c, d[2], n, cudaMemcpyDeviceToHost)")],
                               ["host_round_trip"]),
    # the copy back with the direction of the copies in (copy-paste): cudaMemcpy refuses it
    "copy_back_wrong_kind": wrong([("cudaMemcpy(c, d[2], bytes, cudaMemcpyDeviceToHost)",
                                    "cudaMemcpy(c, d[2], bytes, cudaMemcpyHostToDevice)")],
                                  ["host_round_trip"],
                                  line="cudaMemcpy(c, d[2], bytes, cudaMemcpyHostToDevice)"),
    # the tail started at n / 4, not n / 4 * 4: the scalar loop redoes elements that float4
    # stores write, two threads on one element (a race), and in place (c = a + a) a sum redone
    # on a sum: past_2_32 sees that, the race checker the rest
    "float4_tail_start": wrong([("    for (size_t i = n / 4 * 4 + first; i < n; i += stride)",
                                 "    for (size_t i = n / 4 + first; i < n; i += stride)")],
                               ["past_2_32.grid_stride_float4", "float4_tails"]),
    # the stop event read without waiting for it: the launch and the records have not run, and
    # cudaEventElapsedTime says cudaErrorNotReady (on a GPU, for all but the shortest kernels)
    "no_event_sync": wrong([("    CUDA_TRY(cudaEventSynchronize(stop));\n", "")],
                           ["timed_launch"],
                           line="        CUDA_TRY(cudaEventElapsedTime(ms, start, stop));"),
    # the wait on the start event: the stop is still to come, its time not ready
    "sync_on_start": wrong([("    CUDA_TRY(cudaEventSynchronize(stop));",
                             "    CUDA_TRY(cudaEventSynchronize(start));")], ["timed_launch"]),
    # the elapsed time asked from stop to start: a negative time
    "start_stop_swapped": wrong([("CUDA_TRY(cudaEventElapsedTime(ms, start, stop))",
                                  "CUDA_TRY(cudaEventElapsedTime(ms, stop, start))")],
                                 ["timed_launch"]),
    # the stop recorded before the launch: the events time nothing, and the kernel is still to
    # run when the call returns
    "stop_before_launch": wrong([
        ("    status = vector_add_launch(v, a, b, c, n);\n"
         "    CUDA_TRY(cudaEventRecord(stop, 0));\n",
         "    CUDA_TRY(cudaEventRecord(stop, 0));\n"
         "    status = vector_add_launch(v, a, b, c, n);\n")],
        ["timed_launch"]),
    # the events never destroyed: two leak at every call
    "events_leak": wrong([
        ("    CUDA_TRY(cudaEventDestroy(start));\n    CUDA_TRY(cudaEventDestroy(stop));\n", "")],
        ["timed_launch"]),
    # a failed launch returned at once: its error comes back, the two events leak
    "early_return_leaks": wrong([
        ("    status = vector_add_launch(v, a, b, c, n);\n",
         "    status = vector_add_launch(v, a, b, c, n);\n    if (status != LAB_OK)\n"
         "        return status;\n")], ["timed_launch_errors"]),
    # the launch's status dropped: a refused launch reports LAB_OK and a time
    "launch_status_dropped": wrong([("    status = vector_add_launch(v, a, b, c, n);",
                                     "    vector_add_launch(v, a, b, c, n);")],
                                   ["timed_launch_errors"]),
    # the time taken for seconds and made milliseconds: a thousand times the call's own length
    "seconds_to_ms": wrong([
        ("        CUDA_TRY(cudaEventElapsedTime(ms, start, stop));\n",
         "        CUDA_TRY(cudaEventElapsedTime(ms, start, stop));\n    *ms *= 1000;\n")],
        ["timed_launch"]),
}

RIGHT = {
    # the bounds check as an early return
    "early_return": right([("    if (i < n)\n        c[i] = a[i] + b[i];",
                            "    if (i >= n)\n        return;\n    c[i] = a[i] + b[i];")],
                          ["thread_per_element"]),
    # the float4 tail as one if: it has at most 3 elements, which threads 0 to 2 take
    "float4_tail_if": right([
        ("    for (size_t i = n / 4 * 4 + first; i < n; i += stride)\n        c[i] = a[i] + b[i];",
         "    size_t t = n / 4 * 4 + first;\n    if (first < n % 4)\n        c[t] = a[t] + b[t];")],
        ["grid_stride_float4", "float4_tails"]),
    # the block rows as one div_up of n by a block row's elements: ceil(ceil(n / R) / 8) is
    # ceil(n / (8 R))
    "grid_rows_one_div_up": right([("        grid2.y = (unsigned)div_up(div_up(n, ROW), block.y);",
                                    "        grid2.y = (unsigned)div_up(n, ROW * block.y);")],
                                  ["grid_2d", "grid_2d_many_rows"]),
    # the round trip launches through vector_add_launch's grid-stride case, the same launch
    "round_trip_reuses_launch": right([
        ("sizeof(float);\n    unsigned grid;\n", "sizeof(float);\n    int status;\n"),
        ("    if (grid_for_device(add_grid_stride, n, &grid) != LAB_OK)\n"
         "        return LAB_ECUDA;\n"
         "    add_grid_stride<<<grid, THREADS>>>(d[0], d[1], d[2], n);\n    CUDA_TRY_LAUNCH();\n",
         "    if ((status = vector_add_launch(ADD_GRID_STRIDE, d[0], d[1], d[2], n)) != LAB_OK)\n"
         "        return status;\n")],
        ["host_round_trip"]),
    # the whole device waited for instead of the stop event: the stop is done too
    "device_synchronize": right([("    CUDA_TRY(cudaEventSynchronize(stop));",
                                  "    CUDA_TRY(cudaDeviceSynchronize());")],
                                ["timed_launch", "timed_launch_errors", "timed_every_variant"]),
    # the stop polled with cudaEventQuery until it is no longer cudaErrorNotReady
    "query_loop": right([
        ("    CUDA_TRY(cudaEventSynchronize(stop));",
         "    cudaError_t ready;\n    while ((ready = cudaEventQuery(stop)) == cudaErrorNotReady)\n"
         "        ;\n    CUDA_TRY(ready);")],
        ["timed_launch", "timed_launch_errors", "timed_every_variant"]),
    # the launch's error returned after the events are destroyed, by a branch of its own
    "error_branch": right([
        ("    status = vector_add_launch(v, a, b, c, n);\n",
         "    status = vector_add_launch(v, a, b, c, n);\n    if (status != LAB_OK) {\n"
         "        CUDA_TRY(cudaEventDestroy(start));\n        CUDA_TRY(cudaEventDestroy(stop));\n"
         "        return status;\n    }\n")],
        ["timed_launch", "timed_launch_errors", "timed_every_variant"]),
}
