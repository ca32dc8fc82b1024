/* The race checker's canary: races it must report. The grader builds it from its own files
 * in the race checker's build and runs it before grading: where the checker does not report
 * them (a toolchain whose ThreadSanitizer does not see fibers, or keeps only 256 threads
 * apart: common/cpu/tsan-gcc), a grade would pass races silently, so the grader stops.
 * Exit status 0 when the launch failed as a race must make it fail, else 1. */
#include <cstdio>
#include <cstring>

/* The lost update of a plain += on a total, within a block. */
__global__ void race_canary_lost_update(int *total)
{
    *total += 1;
}

/* Blocks of 1024 threads hand their sums to the last block with no fence before the count:
 * a race between blocks, of threads a TSan with 256 slots confuses with others. */
__global__ void race_canary_unfenced_handoff(int *sums, unsigned *done, int *out)
{
    int last = 0;
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = (int)blockIdx.x; /* the write of the race */
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    if (__syncthreads_or(last) && threadIdx.x < gridDim.x) {
        __threadfence();
        out[threadIdx.x] = sums[threadIdx.x];
    }
}

/* argv[1] names the case (a race fails the launch for good, so one case a run). */
int main(int argc, char **argv)
{
    enum { BLOCKS = 64 };
    const char *which = argc > 1 ? argv[1] : "";
    int *memory = nullptr;
    if (cudaMalloc(&memory, (2 * BLOCKS + 2) * sizeof *memory) != cudaSuccess)
        return 2;
    cudaMemset(memory, 0, (2 * BLOCKS + 2) * sizeof *memory);
    if (!std::strcmp(which, "lost_update"))
        race_canary_lost_update<<<1, 64>>>(memory);
    else if (!std::strcmp(which, "unfenced_handoff"))
        race_canary_unfenced_handoff<<<BLOCKS, 1024>>>(memory + 2, (unsigned *)memory + 1,
                                                       memory + 2 + BLOCKS);
    else {
        std::fprintf(stderr, "usage: race_canary lost_update|unfenced_handoff\n");
        return 2;
    }
    cudaError_t status = cudaDeviceSynchronize();
    cudaFree(memory);
    std::printf("race canary %s: %s\n", which, cudaGetErrorName(status));
    return status == cudaErrorLaunchFailure ? 0 : 1;
}
