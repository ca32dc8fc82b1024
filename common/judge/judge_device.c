/* The device as the tests' judge sees it: the one the grader queried itself before grading
 * (common/judge/device_query.c), given in TESTKIT_GPU_INFO (empty: no device), never the
 * worker's word, so that a worker cannot shrink the sizes and grids that tests derive from
 * the device. The bench's judge asks the device itself instead (common/device.cu). */
#include <stdio.h>
#include <stdlib.h>
#include "gpu.h"
#include "gpu_info_text.h"
#include "lab.h"

static const char *given(void)
{
    const char *text = getenv("TESTKIT_GPU_INFO");
    if (!text) {
        fprintf(stderr, "judge: TESTKIT_GPU_INFO unset: the grader says which device it "
                        "queried; this judge runs only under the grader\n");
        exit(2);
    }
    return text;
}

int gpu_available(void)
{
    return given()[0] != '\0';
}

int gpu_query(struct gpu_info *info)
{
    if (gpu_info_parse(given(), info)) {
        fprintf(stderr, "judge: no device, or TESTKIT_GPU_INFO is not gpu_info_text.h's line\n");
        return LAB_ECUDA;
    }
    return LAB_OK;
}
