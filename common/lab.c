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

size_t lab_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes)
{
    const unsigned char *g = got, *w = want;
    for (size_t i = 0; i < n; i++)
        if (memcmp(g + i * elem_bytes, w + i * elem_bytes, elem_bytes))
            return i;
    return n;
}
