/* Checking every CUDA call (for .cu files). Two flavours:
 *   CUDA_CHECK(call)  for programs: print file:line and CUDA's message, then exit.
 *   CUDA_TRY(call)    for launchers: print the same line, then return LAB_ECUDA, so a test
 *                     or a grader sees an error code instead of a dead process.
 * A kernel launch returns nothing: check it with CUDA_CHECK_LAUNCH() / CUDA_TRY_LAUNCH(),
 * which read cudaGetLastError (bad configuration) right after the launch. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "lab.h"

static inline int cuda_report(cudaError_t err, const char *what, const char *file, int line)
{
    char message[512];
    snprintf(message, sizeof message, "%s:%d: %s: %s (%s)", file, line, what,
             cudaGetErrorString(err), cudaGetErrorName(err));
    fprintf(stderr, "%s\n", message);
    lab_set_cuda_failure(message);
    return LAB_ECUDA;
}

#define CUDA_CHECK(call)                                  \
    do {                                                  \
        cudaError_t err_ = (call);                        \
        if (err_ != cudaSuccess) {                        \
            cuda_report(err_, #call, __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                           \
        }                                                 \
    } while (0)

#define CUDA_TRY(call)                                           \
    do {                                                         \
        cudaError_t err_ = (call);                               \
        if (err_ != cudaSuccess)                                 \
            return cuda_report(err_, #call, __FILE__, __LINE__); \
    } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#define CUDA_TRY_LAUNCH() CUDA_TRY(cudaGetLastError())

#endif
