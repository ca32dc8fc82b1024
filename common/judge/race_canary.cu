/* The race checker's canary: a race it must report, the lost update of a plain += on a
 * total. The grader builds it from its own files in the race checker's build and runs it
 * before grading: where the checker does not report it (a toolchain whose ThreadSanitizer
 * does not see fibers, say), a grade would pass races silently, so the grader stops.
 * Exit status 0 when the launch failed as a race must make it fail, else 1. */
#include <cstdio>

__global__ void race_canary_lost_update(int *total)
{
    *total += 1;
}

int main()
{
    int *total = nullptr;
    if (cudaMalloc(&total, sizeof *total) != cudaSuccess)
        return 2;
    cudaMemset(total, 0, sizeof *total);
    race_canary_lost_update<<<1, 64>>>(total);
    cudaError_t status = cudaDeviceSynchronize();
    cudaFree(total);
    std::printf("race canary: %s\n", cudaGetErrorName(status));
    return status == cudaErrorLaunchFailure ? 0 : 1;
}
