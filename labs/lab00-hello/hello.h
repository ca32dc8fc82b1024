/* lab00: hello from the GPU. The table of variants, the host API that rows.c, experiments.c
 * and the tests call (launch.cu), and what hello.cu gives launch.cu. */
#ifndef HELLO_H
#define HELLO_H

#include <stddef.h>
#include "gpu.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A launch shape, CUDA's dim3 in C. */
struct hello_shape {
    unsigned x, y, z;
};

/* Where a thread is: what it writes at out[global]. warp and lane come from the thread's
 * number in its block, x fastest: the hardware makes warps that way, whatever the shape. */
struct thread_place {
    unsigned global, block, thread, warp, lane;
};

/* The variants, one per number of dimensions, in the handout's order. A row: the enum
 * constant, the name (tests, --variant, bench rows, points), its launch facts, what it
 * teaches. The one fact: dims, how many of x, y, z its shapes may use. */
// clang-format off
#define HELLO_TABLE(X)                                                                     /* dims */ \
    X(HELLO_PLACE_1D, "place_1d",                                                             (1), \
      "a row of blocks of a row of threads: blockIdx.x * blockDim.x + threadIdx.x")              \
    X(HELLO_PLACE_2D, "place_2d",                                                             (2), \
      "blocks of rows: x and y over the whole grid, a row as wide as the grid's threads")        \
    X(HELLO_PLACE_3D, "place_3d",                                                             (3), \
      "the same in three dimensions, and warps cut from the block's threads x fastest")
// clang-format on

enum hello_variant { HELLO_TABLE(LAB_ENUM) HELLO_VARIANTS };
static const struct lab_variant hello_variants[] = {HELLO_TABLE(LAB_VARIANT)};
struct hello_facts {
    unsigned dims;
};
static const struct hello_facts hello_facts[] = {HELLO_TABLE(LAB_FACTS)};

/* Every thread of a grid x block launch writes its place at out[its global id]. Returns
 * LAB_OK; LAB_EINVAL for a bad variant, a shape with a 0 or with more dimensions than the
 * variant takes (place_1d: y = z = 1), a NULL out or one that holds fewer places than the
 * launch has threads; LAB_ECUDA when the device refuses the shape (more than 1024 threads
 * a block, a block z over 64, a grid y or z over 65535), with the process fine for the
 * next launch. Asynchronous. */
int hello_places(enum hello_variant v, struct hello_shape grid, struct hello_shape block,
                 struct gpu_buf out);

/* Each thread of grid x block prints hello with its blockIdx and threadIdx (device
 * printf), and the call waits for the kernel, so the lines are out when it returns. LAB_OK, LAB_EINVAL (a 0 in a shape, more
 * than 4096 threads: lines, not a flood) or LAB_ECUDA (the device refused the shape). */
int hello_print(struct hello_shape grid, struct hello_shape block);

/* A device's figures, as hello_query reads them: what every later lab sizes its launches by
 * and measures itself against. Clocks in kHz, as CUDA gives them. */
struct device_facts {
    char name[256];
    size_t smem_per_block;  /* bytes of shared memory a block may use (without opting in) */
    size_t global_bytes;    /* device memory */
    int cc_major, cc_minor; /* compute capability */
    int sms, warp_size, max_threads_per_block;
    int sm_clock_khz, mem_clock_khz, bus_width_bits;
};

/* hello_query's device: the one this host thread uses (cudaGetDevice). */
enum { HELLO_THIS_DEVICE = -1 };

/* Fills *out with the figures of device number `device` (0 to the count less 1), or of the
 * current one for HELLO_THIS_DEVICE. Returns LAB_OK; LAB_EINVAL for a NULL out; LAB_ECUDA
 * when CUDA refuses (no such device), with the process fine for the next launch. */
int hello_query(int device, struct device_facts *out);

/* reference.c: the threads a launch has (64 bits: a grid can have more than 2^32), and
 * the places as the CPU works them out, for out[0 .. threads). */
unsigned long long hello_threads(struct hello_shape grid, struct hello_shape block);
void hello_places_cpu(struct hello_shape grid, struct hello_shape block, struct thread_place *out);

#ifdef __cplusplus
}

/* hello.cu, for launch.cu: the launch of variant v on valid arguments, and the printing
 * launch. Each returns LAB_OK, or LAB_ECUDA when the device refuses the launch. */
int hello_places_launch(enum hello_variant v, dim3 grid, dim3 block, struct thread_place *out);
int hello_print_launch(dim3 grid, dim3 block);
/* hello.cu, for launch.cu: the device's figures into a non-NULL out; LAB_OK or LAB_ECUDA. */
int hello_query_device(int device, struct device_facts *out);
#endif
#endif
