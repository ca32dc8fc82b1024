/* Part of the CPU backend: there is no profiler to start or stop. */
#ifndef CUDA_CPU_PROFILER_API_H
#define CUDA_CPU_PROFILER_API_H
#pragma GCC system_header
#include "cuda_runtime_api.h"
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#ifdef __cplusplus
}
#endif
#endif
