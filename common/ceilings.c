/* The two ceilings of every lab, from a device's figures (lab00 derives them; the benches
 * print them). Plain functions of the figures, so the tests check them on known devices. */
#include "gpu.h"

double ceiling_bandwidth_gbs(int mem_clock_khz, int bus_width_bits)
{
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

/* FP32 lanes (CUDA cores) per SM, from the CUDA C Programming Guide's table of arithmetic
 * throughput: 64 on the data-centre chips of 6.0, 7.x and 8.0, 128 elsewhere since 5.0. */
int fp32_lanes_per_sm(int cc_major, int cc_minor)
{
    switch (cc_major) {
    case 3:
        return 192;
    case 5:
        return 128;
    case 6:
        return cc_minor == 0 ? 64 : 128;
    case 7:
        return 64;
    case 8:
        return cc_minor == 0 ? 64 : 128;
    case 9:
    case 10:
    case 11:
    case 12:
        return 128;
    default:
        return 0;
    }
}

double ceiling_fp32_gflops(int sms, int lanes_per_sm, int clock_khz)
{
    return 2.0 * sms * lanes_per_sm * (clock_khz * 1e3) / 1e9; /* an FMA is two flops */
}
