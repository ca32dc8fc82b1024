/* lab00's intro, what `lab00 run` prints before its checks: hello from a small launch, then
 * what a CUDA programmer reads about the device (hello_query: yours), and the two ceilings
 * every later lab measures against. */
#include <stdio.h>
#include <string.h>
#include "host.h"

#ifdef BACKEND_CPU
#define NOMINAL " (the CPU backend's virtual device: its clocks are nominal)"
#else
#define NOMINAL ""
#endif

/* The figures that hello_query read (yours), and the two ceilings worked out from them. */
static void describe_device(void)
{
    struct device_facts d;
    int status, lanes;
    memset(&d, 0, sizeof d);
    if ((status = hello_query(HELLO_THIS_DEVICE, &d)) != LAB_OK) {
        printf("hello_query: %s\n", lab_strerror(status));
        return;
    }
    if (!d.name[0])
        printf("\nhello_query left the name empty: is hello_query_device still a TODO?");
    lanes = fp32_lanes_per_sm(d.cc_major, d.cc_minor);
    printf("\n%s, compute capability %d.%d%s\n", d.name, d.cc_major, d.cc_minor, NOMINAL);
    printf("  %d SMs at %d MHz, %d FP32 lanes each; warp size %d, up to %d threads a block\n",
           d.sms, d.sm_clock_khz / 1000, lanes, d.warp_size, d.max_threads_per_block);
    printf("  shared memory %zu KiB per block; memory %.1f GiB, %d-bit bus at %d MHz\n",
           d.smem_per_block >> 10, d.global_bytes / 1073741824.0, d.bus_width_bits,
           d.mem_clock_khz / 1000);
    printf("  memory ceiling %.0f GB/s = 2 x %d MHz x %d bit / 8\n",
           ceiling_bandwidth_gbs(d.mem_clock_khz, d.bus_width_bits), d.mem_clock_khz / 1000,
           d.bus_width_bits);
    printf("  FP32 ceiling %.1f TFLOP/s = %d SMs x %d lanes x %d MHz x 2 (an FMA is two flops)\n\n",
           ceiling_fp32_gflops(d.sms, lanes, d.sm_clock_khz) / 1e3, d.sms, lanes,
           d.sm_clock_khz / 1000);
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
