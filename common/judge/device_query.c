/* The device as the grader sees it, printed on one line (gpu_info_text.h), or nothing when
 * no device answers. The grader runs this once, from its own tree and with the worker's
 * environment, and hands the line to every judge: the tests' sizes and grids never come
 * from the student's process. Usage: device_query (exit status 0 either way). */
#include <stdio.h>
#include "gpu.h"
#include "gpu_info_text.h"
#include "lab.h"

int main(void)
{
    struct gpu_info info;
    char line[512];
    if (!gpu_available())
        return 0;
    if (gpu_query(&info) != LAB_OK || gpu_info_format(&info, line, sizeof line)) {
        fprintf(stderr, "device_query: the device answered, but its facts could not be read\n");
        return 1;
    }
    printf("%s\n", line);
    return 0;
}
