/* Bench report: one header naming the device and its ceilings, then a row per variant
 * and size, printed as a table and written to a TSV that plots/ and common/tables.py read
 * by column name. TSV columns:
 *   series   main (the main size), sweep (GB/s against n) or a tuning's name ("threads":
 *            a variant at each value, named variant/value)
 *   lab variant kind   kind: copy (the ceiling), variant, library, cpu or extra
 *   tuning   the value a main or sweep row ran with (0: none)
 *   n bytes ms_median ms_min ms_max gbs pct_peak peak_gbs copy_gbs device date */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include "gpu.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bench {
    const char *lab;
    FILE *tsv;
    struct gpu_info gpu;
    double copy_gbs; /* measured device-to-device copy, the practical ceiling */
    char date[32];
};

/* Queries the device, measures the copy ceiling on `copy_bytes`, prints the header and
 * opens `tsv_path` (its directory must exist). Returns LAB_OK or an error. */
int bench_open(struct bench *b, const char *lab, const char *tsv_path, size_t copy_bytes, int reps);
/* One measured row: `bytes` is the fewest bytes it must move (effective bandwidth). */
void bench_row(struct bench *b, const char *series, const char *variant, const char *kind,
               unsigned tuning, size_t n, double bytes, const struct timing *t);
void bench_close(struct bench *b);

#ifdef __cplusplus
}
#endif
#endif
