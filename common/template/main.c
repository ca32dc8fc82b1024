/* lab{{NN}}'s command line (common/driver.h): the variants of {{id}}.h, then the CPU loop
 * (rows.c). A handout experiment goes in .cli.experiments (lab04's main.c shows how). */
#include "driver.h"
#include "host.h"

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab{{NN}}",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 2 GiB moved: far beyond any L2 */
                  .cpu_size = {.n = 1u << 22}, /* checked in seconds by the CPU backend */
                  .elem_bytes = sizeof(float)},
        .rows = {{{id}}_variants, {{ID}}_VARIANTS, LAB_LIST(extra_rows)},
        .job = &{{id}}_job,
    };
    return lab_main(&lab, argc, argv);
}
