/* Bench report: one header naming the device and its ceilings, then a row per variant
 * and size, printed as a table and written to a TSV that plots/ and common/tables.py read
 * by column name. TSV columns:
 *   series   main (the main size), sweep (GB/s against n), a tuning's name ("threads":
 *            a variant at each value, named variant/value) or the name of the lab's own
 *            sweep ("spheres": each variant at each value, at the main size)
 *   lab variant kind   kind: copy (the ceiling), variant, library, cpu or extra
 *   tuning   the value a row ran with (0: none); in a lab's own sweep the swept value
 *   n bytes ms_median ms_min ms_max gbs pct_peak peak_gbs copy_gbs device date
 *   work work_unit work_per_s pct_fp32 work_ceiling fp32_per_work   a compute-bound lab's
 *            (0 and - elsewhere): the useful work of a run, its unit, per second, in % of
 *            the FP32 ceiling, that ceiling in work a second at fp32_per_work FP32
 *            instructions a unit (SMs x FP32 lanes x clock instructions a second: half the
 *            TFLOP/s, which count an FMA as two operations) */
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
    const char *work_unit; /* a compute-bound lab's ("iterations"), or NULL */
    double fp32_per_work;  /* its FP32 instructions per unit of work */
};

/* Queries the device, measures the copy ceiling on `copy_bytes`, prints the header and
 * opens `tsv_path` (its directory must exist). work_unit: NULL for a memory-bound lab, else
 * the unit of a compute-bound lab's work (its rows then show work per second and % of the
 * FP32 ceiling at fp32_per_work instructions a unit). Returns LAB_OK or an error. */
int bench_open(struct bench *b, const char *lab, const char *tsv_path, size_t copy_bytes, int reps,
               const char *work_unit, double fp32_per_work);
/* One measured row: `bytes` is the fewest bytes it must move (effective bandwidth), `work`
 * the useful work it does (a compute-bound lab's; else 0). */
void bench_row(struct bench *b, const char *series, const char *variant, const char *kind,
               unsigned tuning, size_t n, double bytes, double work, const struct timing *t);
void bench_close(struct bench *b);

#ifdef __cplusplus
}
#endif
#endif
