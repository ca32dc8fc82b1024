/* struct gpu_info as one line of text: how the grader hands the device it queried itself
 * (common/judge/device_query.c, run once per grading) to every judge (TESTKIT_GPU_INFO), so
 * that no test sizes itself from what the student's worker says about the device. */
#ifndef GPU_INFO_TEXT_H
#define GPU_INFO_TEXT_H

#include <stddef.h>
#include "gpu.h"

/* Writes info into buf (at most size bytes): 0, or -1 when it does not fit. */
int gpu_info_format(const struct gpu_info *info, char *buf, size_t size);
/* Reads what gpu_info_format wrote: 0, or -1 when text is not such a line. */
int gpu_info_parse(const char *text, struct gpu_info *info);

#endif
