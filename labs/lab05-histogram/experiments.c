/* lab05's experiment, `lab05 run --race [INPUT]`: before the checks, the race kernel counts
 * without an atomic, and how many counts it lost shows what the atomics fix. */
#include <stdio.h>
#include <stdlib.h>
#include "host.h"

void race(struct lab_size size, uint64_t seed)
{
    size_t n = size.n;
    unsigned char *x;
    unsigned got[HIST_BINS];
    unsigned long long total = 0;
    struct gpu_buf in, out;
    int status;
    if (!opt.race)
        return;
    if (!(x = malloc(n ? n : 1))) {
        fprintf(stderr, "lab05: --race: not enough memory for %zu bytes\n", n);
        return;
    }
    histogram_fill(opt.race_input, x, n, seed);
    in = gpu_alloc(n ? n : 1);
    out = gpu_alloc(sizeof got);
    gpu_upload(in, x, n);
    status = histogram_race(in, n, out);
    if (status == LAB_OK) {
        gpu_download(got, out, sizeof got);
        for (int b = 0; b < HIST_BINS; b++)
            total += got[b];
        printf("race: out[x]++ without an atomic on %zu bytes (%s): %llu counted, %llu lost\n", n,
               hist_data_names[opt.race_input], total, (unsigned long long)n - total);
#ifdef BACKEND_CPU
        printf("race: (CPU backend: threads switch only at the kernel's __syncwarp, so equal bytes "
               "collide within a block, never across blocks; RACECHECK=1 reports the race)\n");
#endif
    } else {
        printf("race: %s (under RACECHECK=1: the race checker's report above)\n",
               lab_strerror(status));
    }
    gpu_free(&in);
    gpu_free(&out);
    free(x);
}
