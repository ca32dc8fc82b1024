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
};

int gpu_available(void); /* 1 when a CUDA device answers, else 0 (and nothing printed) */
int gpu_query(struct gpu_info *info); /* LAB_OK, or LAB_ECUDA with the reason printed */

#ifdef __cplusplus
}
#endif
#endif
