/* What the labs' cuBLAS rows share (library.cu, CUDA builds only): a cuBLAS call checked like a
 * CUDA call, and one handle a process, made at the first call, outside the timed runs (the
 * bench warms each row up before timing it), and destroyed at exit, before the CUDA runtime's
 * own teardown (registered earlier, so run later), so that compute-sanitizer's leak check stays
 * clean. Static functions: each lab's library.cu includes it once. */
#ifndef CUBLAS_HANDLE_H
#define CUBLAS_HANDLE_H

#include <stdio.h>
#include <stdlib.h>
#include <cublas_v2.h>
#include "lab.h"

static int cublas_try(cublasStatus_t status, const char *call, const char *file, int line)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return LAB_OK;
    fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cublasGetStatusString(status));
    return LAB_ECUDA;
}
#define CUBLAS_TRY(call)                                             \
    do {                                                             \
        if (cublas_try((call), #call, __FILE__, __LINE__) != LAB_OK) \
            return LAB_ECUDA;                                        \
    } while (0)

static cublasHandle_t lab_cublas_handle_;

static void lab_cublas_destroy(void)
{
    cublasDestroy(lab_cublas_handle_);
}

/* The process's handle in *handle, made at the first call: LAB_OK or LAB_ECUDA. */
static int lab_cublas(cublasHandle_t *handle)
{
    if (!lab_cublas_handle_) {
        CUBLAS_TRY(cublasCreate(&lab_cublas_handle_));
        atexit(lab_cublas_destroy);
    }
    *handle = lab_cublas_handle_;
    return LAB_OK;
}

#endif
