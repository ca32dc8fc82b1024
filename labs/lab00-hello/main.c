/* lab00's command line (common/driver.h): hello from a small launch and the device's figures
 * with its two ceilings first (run, experiments.c), then the variants of hello.h, each on a
 * launch of about n threads in its own number of dimensions, and the CPU working out the
 * same places (rows.c). */
#include "driver.h"
#include "host.h"

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab00",
        .input = {.dims = 1,
                  .size = {.n = 1u << 26},     /* 1.3 GB of places: far beyond any L2 */
                  .cpu_size = {.n = 1u << 18}, /* checked in a second by the CPU backend */
                  .min_n = 1,
                  .max_n = (size_t)1 << 31,
                  .elem_bytes = sizeof(struct thread_place)},
        .rows = {hello_variants, HELLO_VARIANTS, LAB_LIST(extra_rows)},
        .job = &hello_job,
        .cli = {.intro = intro},
    };
    return lab_main(&lab, argc, argv);
}
