#include "lab.h"

const char *lab_strerror(int status)
{
    switch (status) {
    case LAB_OK: return "ok";
    case LAB_EINVAL: return "invalid argument";
    case LAB_ECUDA: return "CUDA error";
    default: return "unknown status";
    }
}
