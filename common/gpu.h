/* The GPU seen from C: device buffers that know their size, copies, and the facts about
 * the device that a bandwidth measurement needs. Every call is checked; the allocation
 * and copy helpers exit with file:line on failure (they are plumbing, not exercises). */
#ifndef GPU_H
#define GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A device buffer and its size, so launchers can refuse an n that does not fit. */
struct gpu_buf {
    void *ptr;
    size_t bytes;
};

struct gpu_buf gpu_alloc(size_t bytes); /* filled with a poison pattern (0xFF bytes) */
/* Filled with 0 instead, for tests of sizes past what a CPU holds (2^32 floats: 17 GB): on the
 * CPU backend its pages are mapped when first touched (cuda_cpu_malloc_zeroed), so a test that
 * touches a few windows of it costs only those. On a GPU, while other processes hold the
 * memory it needs, it waits for them (a minute at most): a test should ask for all it needs
 * at once. */
struct gpu_buf gpu_alloc_zeroed(size_t bytes);
void gpu_free(struct gpu_buf *buf);
void gpu_upload(struct gpu_buf dst, const void *src, size_t bytes);
void gpu_download(void *dst, struct gpu_buf src, size_t bytes);
void gpu_poison(struct gpu_buf buf); /* 0xFF in every byte: NaN as float, -1 as int */
void gpu_sync(void);
void *gpu_host_alloc(size_t bytes); /* pinned host memory, for fast copies */
void gpu_host_free(void *p);

struct gpu_info {
    char name[256];
    int cc_major, cc_minor;
    int sms;
    size_t l2_bytes;
    size_t global_bytes;
    int mem_clock_khz;
    int bus_width_bits;
    double peak_gbs; /* theoretical: 2 (double data rate) x clock x bus width / 8 */
    size_t smem_per_block, smem_per_sm; /* bytes of shared memory: default and per SM */
    int regs_per_sm, warp_size, max_threads_per_sm, max_threads_per_block;
    int sm_clock_khz;
    int fp32_lanes;     /* per SM, for the compute capability (0: not known) */
    double peak_gflops; /* FP32: SMs x lanes x clock x 2 (an FMA a cycle each) */
    int nominal;        /* 1 on the CPU backend: the clocks and ceilings are made up */
};

int gpu_available(void); /* 1 when a CUDA device answers, else 0 (and nothing printed) */
int gpu_query(struct gpu_info *info); /* LAB_OK, or LAB_ECUDA with the reason printed */

/* ceilings.c: the two ceilings from a device's figures, and the FP32 lanes of an SM. */
double ceiling_bandwidth_gbs(int mem_clock_khz, int bus_width_bits);
int fp32_lanes_per_sm(int cc_major, int cc_minor);
double ceiling_fp32_gflops(int sms, int lanes_per_sm, int clock_khz);

#ifdef __cplusplus
}
#endif
#endif
