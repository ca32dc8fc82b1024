/* The device as the tests' judge sees it: the worker's (gpu.h's queries, over the wire).
 * The bench's judge asks the device itself instead (common/device.cu). */
#include "gpu.h"
#include "remote.h"

int gpu_available(void)
{
    return (int)remote_call("gpu_available", "");
}

int gpu_query(struct gpu_info *info)
{
    int status = (int)remote_call("gpu_query", "o", info, sizeof *info);
    info->name[sizeof info->name - 1] = '\0';
    return status;
}
