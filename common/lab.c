#include <stdio.h>
#include <string.h>
#include "lab.h"

/* Each status's name and meaning, indexed by -status (LAB_OK is 0, the errors negative). */
static const char *const statuses[][2] = {
    {"LAB_OK", "ok"},
    {"LAB_EINVAL", "invalid argument"},
    {"LAB_ECUDA", "CUDA error"},
    {"LAB_WRONG", "wrong result"},
};

static const char *status_field(int status, int field, const char *unknown)
{
    size_t i = (size_t) - (long)status;
    return status <= 0 && i < sizeof statuses / sizeof statuses[0] ? statuses[i][field] : unknown;
}

const char *lab_strerror(int status)
{
    return status_field(status, 1, "unknown status");
}

const char *lab_status_name(int status)
{
    return status_field(status, 0, "an unknown status");
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

/* A memcmp a chunk first: a call per element cost a second a GB (2^28 calls), and the
 * bench checks gigabytes a row. */
size_t lab_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes)
{
    enum { CHUNK = 4096 };
    const unsigned char *g = got, *w = want;
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        if (!memcmp(g + i * elem_bytes, w + i * elem_bytes, m * elem_bytes))
            continue;
        for (size_t k = i; k < i + m; k++)
            if (memcmp(g + k * elem_bytes, w + k * elem_bytes, elem_bytes))
                return k;
    }
    return n;
}
