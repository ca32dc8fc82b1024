/* struct gpu_info as one line of text (gpu_info_text.h): the numbers in a fixed order, the
 * device's name last, since it may hold spaces. */
#include <stdio.h>
#include <string.h>
#include "gpu_info_text.h"

#define GPU_INFO_NUMBERS "%d %d %d %zu %zu %d %d %la %zu %zu %d %d %d %d %d %d %la %d "

int gpu_info_format(const struct gpu_info *i, char *buf, size_t size)
{
    int n = snprintf(buf, size, GPU_INFO_NUMBERS "%s", i->cc_major, i->cc_minor, i->sms,
                     i->l2_bytes, i->global_bytes, i->mem_clock_khz, i->bus_width_bits, i->peak_gbs,
                     i->smem_per_block, i->smem_per_sm, i->regs_per_sm, i->warp_size,
                     i->max_threads_per_sm, i->max_threads_per_block, i->sm_clock_khz,
                     i->fp32_lanes, i->peak_gflops, i->nominal, i->name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int gpu_info_parse(const char *text, struct gpu_info *i)
{
    int used = 0;
    memset(i, 0, sizeof *i);
    if (sscanf(text, GPU_INFO_NUMBERS "%n", &i->cc_major, &i->cc_minor, &i->sms, &i->l2_bytes,
               &i->global_bytes, &i->mem_clock_khz, &i->bus_width_bits, &i->peak_gbs,
               &i->smem_per_block, &i->smem_per_sm, &i->regs_per_sm, &i->warp_size,
               &i->max_threads_per_sm, &i->max_threads_per_block, &i->sm_clock_khz, &i->fp32_lanes,
               &i->peak_gflops, &i->nominal, &used) != 18 ||
        used == 0)
        return -1;
    snprintf(i->name, sizeof i->name, "%s", text + used);
    return 0;
}
