#include <stdio.h>
#include <string.h>
#include "lab.h"

const char *lab_strerror(int status)
{
    switch (status) {
    case LAB_OK:
        return "ok";
    case LAB_EINVAL:
        return "invalid argument";
    case LAB_ECUDA:
        return "CUDA error";
    case LAB_WRONG:
        return "wrong result";
    default:
        return "unknown status";
    }
}

const char *lab_status_name(int status)
{
    switch (status) {
    case LAB_OK:
        return "LAB_OK";
    case LAB_EINVAL:
        return "LAB_EINVAL";
    case LAB_ECUDA:
        return "LAB_ECUDA";
    case LAB_WRONG:
        return "LAB_WRONG";
    default:
        return "an unknown status";
    }
}

static char cuda_failure[512];

const char *lab_cuda_failure(void)
{
    return cuda_failure;
}

void lab_set_cuda_failure(const char *message)
{
    snprintf(cuda_failure, sizeof cuda_failure, "%s", message);
}

size_t lab_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes)
{
    const unsigned char *g = got, *w = want;
    for (size_t i = 0; i < n; i++)
        if (memcmp(g + i * elem_bytes, w + i * elem_bytes, elem_bytes))
            return i;
    return n;
}
