/* lab00's intro, what `lab00 run` prints before its checks: hello from a small launch, then
 * what a CUDA programmer reads about the device, and the two ceilings every later lab
 * measures against. */
#include <stdio.h>
#include "host.h"

static void describe_device(void)
{
    struct gpu_info d;
    if (gpu_query(&d) != LAB_OK)
        return;
    printf("\n%s, compute capability %d.%d%s\n", d.name, d.cc_major, d.cc_minor,
           d.nominal ? " (the CPU backend's virtual device: its clocks are nominal)" : "");
    printf("  %d SMs at %d MHz, %d FP32 lanes each; warp size %d, %d threads per SM\n", d.sms,
           d.sm_clock_khz / 1000, d.fp32_lanes, d.warp_size, d.max_threads_per_sm);
    printf("  shared memory %zu KiB per block, %zu KiB per SM; %d registers per SM\n",
           d.smem_per_block >> 10, d.smem_per_sm >> 10, d.regs_per_sm);
    printf("  memory %.1f GiB, %d-bit bus at %d MHz; L2 %.0f MiB\n", d.global_bytes / 1073741824.0,
           d.bus_width_bits, d.mem_clock_khz / 1000, d.l2_bytes / 1048576.0);
    printf("  memory ceiling %.0f GB/s = 2 x %d MHz x %d bit / 8\n", d.peak_gbs,
           d.mem_clock_khz / 1000, d.bus_width_bits);
    printf("  FP32 ceiling %.1f TFLOP/s = %d SMs x %d lanes x %d MHz x 2 (an FMA is two flops)\n\n",
           d.peak_gflops / 1e3, d.sms, d.fp32_lanes, d.sm_clock_khz / 1000);
}

void intro(struct lab_size size, uint64_t seed)
{
    struct hello_shape grid = {2, 1, 1}, block = {4, 1, 1};
    int status = hello_print(grid, block);
    (void)size;
    (void)seed;
    if (status != LAB_OK)
        printf("hello_print: %s\n", lab_strerror(status));
    describe_device();
}
