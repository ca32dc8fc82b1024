/* Part of the CPU backend: everything is in cuda_runtime.h. */
#include "cuda_runtime.h"
