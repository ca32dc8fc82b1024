/* lab09's report: the note of a CUDA build without NPP, which run prints first, and the
 * frame table after bench's main table. */
#include <stdio.h>
#include "host.h"

static void say_no_npp(void)
{
#ifdef BACKEND_CUDA
    if (!have_npp())
        printf("lab09: no npp_pba row: this build found no NPP header (nppi_filtering_functions.h "
               "in the CUDA toolkit's include directory)\n");
#endif
}

void npp_note(struct lab_size size, uint64_t seed)
{
    (void)size;
    (void)seed;
    say_no_npp();
}

/* Time per frame, pixels a second, and how many times faster than the seed's first kernel
 * and than NPP. */
void frame_table(const struct bench *b, struct lab_size s, const double *ms, const unsigned *tuned)
{
    int rows = CPU + 1 + have_npp();
    (void)tuned;
    printf("\n%s, %zu x %zu, %s mask, D = %u:\n  %-24s %12s %14s %10s %8s\n", b->gpu.name, s.width,
           s.height, distance_mask_names[opt.mask], opt.dmax, "row", "ms a frame", "pixels a s",
           "x variant1", "x NPP");
    for (int r = 0; r < rows; r++) {
        if (ms[r] <= 0)
            continue;
        printf("  %-24s %12.3f %14.3g", row_name(r), ms[r], s.n / (ms[r] * 1e-3));
        if (ms[0] > 0)
            printf(" %10.1f", ms[0] / ms[r]);
        else
            printf(" %10s", "-");
        if (have_npp() && ms[NPP] > 0)
            printf(" %8.2f\n", ms[NPP] / ms[r]);
        else
            printf(" %8s\n", "-");
    }
    say_no_npp();
}
