/* lab04's command line (common/driver.h): the variants of dot.h, then cublasSdot and the CPU
 * loop (rows.c), and the handout's experiments (experiments.c). */
#include "driver.h"
#include "host.h"

static const struct lab_experiment experiments[] = {
    {"--accuracy",
     "each row's relative error, n = 2^12 ... the main size, on positive and\n"
     "                      on cancelling data, and ten runs of each variant",
     accuracy},
    {"--cosine", "the cosine similarity of six plays by their word counts", cosine},
};

int main(int argc, char **argv)
{
    static const struct lab_driver lab = {
        .name = "lab04",
        .input = {.dims = 1,
                  .size = {.n = 1u << 28},     /* 2 GiB read: far beyond any L2 */
                  .cpu_size = {.n = 1u << 20}, /* checked in seconds by the CPU backend */
                  .min_n = 1,
                  .max_n = 0xffffffffu,
                  /* the copy ceiling copies as many bytes as a and b */
                  .elem_bytes = 2 * sizeof(float)},
        .rows = {dot_variants, DOT_VARIANTS, LAB_LIST(extra_rows)},
        .job = &dot_job,
        .cli = {.experiments = experiments, .nexperiments = LAB_COUNT(experiments)},
    };
    return lab_main(&lab, argc, argv);
}
