/* lab11's command line (common/driver.h): the variants of scan.h, then CUB and the CPU loop
 * (rows.c). */
#include <limits.h>
#include "driver.h"
#include "host.h"

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab11",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 1.07 GB read, as much written: past any L2 */
                  .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
                  .min_n = 1,
                  .elem_bytes = sizeof(int)},
        .rows = {scan_variants, SCAN_VARIANTS, LAB_LIST(extra_rows)},
        .job = &scan_job,
    };
    return lab_main(&lab, argc, argv);
}
