"""lab12 streams: the waits students forget (before returning, before the host reads managed
memory, for the other streams), work sent to the wrong stream, one device buffer for every
stream, and the graph's fork and join; right code written otherwise."""
from catalogue import right, wrong

FILE = "streams.cu"

SYNC = ("    for (unsigned k = 0; status == LAB_OK && k < j->plan.streams; k++)\n"
        "        if (cudaStreamSynchronize(s[k]) != cudaSuccess)\n"
        "            status = LAB_ECUDA;\n    /* SOLUTION END */\n"
        "    end_streams(s, j->plan.streams);\n    return status;\n}\n\n"
        "/* 4. Breadth-first")
COPY_OUT = ("    CUDA_TRY(cudaMemcpyAsync(j->out + first, j->d_out + first, count * sizeof(float),\n"
            "                             cudaMemcpyDeviceToHost, s));")

# breadth-first's loops of kernels and of copies out
KERNELS = (
    '    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++) {\n'
    '        chunk_of(j, c, &first, &count);\n'
    '        status = transform(j->d_in + first, j->d_out + first, count, j->plan.fmas,\n'
    '                           s[c % j->plan.streams]);\n'
    '        streams_mark(j->timeline, s[c % j->plan.streams], c, STREAMS_KERNEL);\n'
    '    }\n'
)
COPIES_OUT = (
    '    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++) {\n'
    '        chunk_of(j, c, &first, &count);\n'
    '        if (cudaMemcpyAsync(j->out + first, j->d_out + first, count * sizeof(float),\n'
    '                            cudaMemcpyDeviceToHost, s[c % j->plan.streams]) != cudaSuccess)\n'
    '            status = LAB_ECUDA;\n'
    '        streams_mark(j->timeline, s[c % j->plan.streams], c, STREAMS_D2H);\n'
    '    }\n'
)

WRONG = {
    # the streams never waited for: out is read while the copies out are still to come
    "no_wait_for_streams": wrong([(SYNC, "    /* SOLUTION END */\n"
                                   "    end_streams(s, j->plan.streams);\n    return status;\n}\n\n"
                                   "/* 4. Breadth-first")], ["streams_chunked"]),
    # only the first stream waited for: the chunks of the others are not back yet
    "wait_for_first_stream_only": wrong([(SYNC, SYNC.replace("k < j->plan.streams; k++)", "k < 1; k++)"))],
                                        ["streams_chunked"]),
    # the copy out in the legacy stream: right but serial in pipeline_chunked (the legacy
    # stream waits for every blocking stream), an error in the graph's capture (it would make
    # the legacy stream wait for a capturing stream), which the capture loses
    "copy_out_in_legacy_stream": wrong([(COPY_OUT, COPY_OUT.replace("cudaMemcpyDeviceToHost, s)",
                                                                    "cudaMemcpyDeviceToHost, 0)"))],
                                       ["graph"]),
    # every chunk in the same part of d_in and d_out: streams overwrite each other's chunks
    "one_buffer_for_all_streams": wrong([
        ("    CUDA_TRY(cudaMemcpyAsync(j->d_in + first, j->in + first, count * sizeof(float),\n"
         "                             cudaMemcpyHostToDevice, s));",
         "    CUDA_TRY(cudaMemcpyAsync(j->d_in, j->in + first, count * sizeof(float),\n"
         "                             cudaMemcpyHostToDevice, s));"),
        ("    TRY(transform(j->d_in + first, j->d_out + first, count, j->plan.fmas, s));",
         "    TRY(transform(j->d_in, j->d_out, count, j->plan.fmas, s));"),
        ("    CUDA_TRY(cudaMemcpyAsync(j->out + first, j->d_out + first, count * sizeof(float),",
         "    CUDA_TRY(cudaMemcpyAsync(j->out + first, j->d_out, count * sizeof(float),")],
        ["streams_chunked"]),
    # the loop over the chunks one short: the last chunk never leaves the host
    "last_chunk_dropped": wrong([
        ("    for (unsigned c = 0; status == LAB_OK && c < j->plan.chunks; c++)\n"
         "        status = chunk_in_stream(j, c, s[c % j->plan.streams]);",
         "    for (unsigned c = 0; status == LAB_OK && c + 1 < j->plan.chunks; c++)\n"
         "        status = chunk_in_stream(j, c, s[c % j->plan.streams]);")],
        ["streams_chunked"]),
    # breadth-first with the kernels in stream c % streams + 1: another stream than the copies
    "breadth_first_kernel_stream_off": wrong([
        ("        status = transform(j->d_in + first, j->d_out + first, count, j->plan.fmas,\n"
         "                           s[c % j->plan.streams]);",
         "        status = transform(j->d_in + first, j->d_out + first, count, j->plan.fmas,\n"
         "                           s[(c + 1) % j->plan.streams]);")],
        ["streams_breadth_first"]),
    # breadth-first with the copies out issued before the kernels: in each stream the copy
    # out now comes first, and takes d_out before the kernel has written it
    "breadth_first_out_before_kernels": wrong([(KERNELS + COPIES_OUT, COPIES_OUT + KERNELS)],
                                              ["streams_breadth_first"]),
    # the host reads managed memory before the kernel has run: no cudaDeviceSynchronize
    "managed_no_sync": wrong([
        ("    if (status == LAB_OK && cudaDeviceSynchronize() != cudaSuccess)\n"
         "        status = LAB_ECUDA;\n    if (status == LAB_OK) {\n        memcpy(j->out, m_out, bytes);",
         "    if (status == LAB_OK) {\n        memcpy(j->out, m_out, bytes);")],
        ["managed_faults"]),
    # prefetch back to the host, but no wait: the prefetch is in a stream, the host is not
    "prefetch_without_wait": wrong([
        ("    if (status == LAB_OK && (cudaMemPrefetchAsync(m_out, bytes, cpu, 0, 0) != cudaSuccess ||\n"
         "                             cudaDeviceSynchronize() != cudaSuccess))",
         "    if (status == LAB_OK && cudaMemPrefetchAsync(m_out, bytes, cpu, 0, 0) != cudaSuccess)")],
        ["managed_prefetch"]),
    # the graph launched but never waited for
    "graph_not_waited": wrong([
        ("         cudaGraphLaunch(exec, s[0]) != cudaSuccess || cudaStreamSynchronize(s[0]) != "
         "cudaSuccess))",
         "         cudaGraphLaunch(exec, s[0]) != cudaSuccess))")],
        ["graph"]),
    # the other streams never join s[0] again: the graph ends before their chunks do
    "graph_no_join": wrong([
        ("        if (cudaEventRecord(join[k], s[k]) != cudaSuccess ||\n"
         "            cudaStreamWaitEvent(s[0], join[k], 0) != cudaSuccess)",
         "        if (cudaEventRecord(join[k], s[k]) != cudaSuccess)")],
        ["graph"]),
    # the copy in and out of the whole buffer, but the kernel on the first chunk's worth only
    "sync_kernel_on_part": wrong([
        ("    TRY(transform(j->d_in, j->d_out, j->n, j->plan.fmas, 0));",
         "    TRY(transform(j->d_in, j->d_out, j->n / 2, j->plan.fmas, 0));")],
        ["pinned_sync"]),
}

RIGHT = {
    # one wait for the whole device instead of one per stream
    "device_wait": right([(SYNC, "    if (status == LAB_OK && cudaDeviceSynchronize() != cudaSuccess)\n"
                           "        status = LAB_ECUDA;\n    /* SOLUTION END */\n"
                           "    end_streams(s, j->plan.streams);\n    return status;\n}\n\n"
                           "/* 4. Breadth-first")], ["streams_chunked"]),
    # the copy in waited for by an event in the kernel's stream, issued from the legacy stream
    "copy_out_then_event": right([
        (COPY_OUT, COPY_OUT + "\n    {\n        cudaEvent_t done;\n"
         "        CUDA_TRY(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));\n"
         "        CUDA_TRY(cudaEventRecord(done, s));\n"
         "        CUDA_TRY(cudaEventSynchronize(done));\n"
         "        CUDA_TRY(cudaEventDestroy(done));\n    }")],
        ["streams_chunked"]),
    # managed memory prefetched and waited for by a stream sync of the legacy stream
    "managed_stream_sync": right([
        ("    if (status == LAB_OK && cudaDeviceSynchronize() != cudaSuccess)\n"
         "        status = LAB_ECUDA;\n    if (status == LAB_OK) {\n        memcpy(j->out, m_out, bytes);",
         "    if (status == LAB_OK && cudaStreamSynchronize(0) != cudaSuccess)\n"
         "        status = LAB_ECUDA;\n    if (status == LAB_OK) {\n        memcpy(j->out, m_out, bytes);")],
        ["managed_faults"]),
}
