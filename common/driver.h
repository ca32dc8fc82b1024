/* The lab driver: everything a lab's command line does that is not the lab's own business,
 * so that a lab's main.c is its rows and a few callbacks.
 *   labNN run    checks every row once against the CPU reference: ok, or where it is wrong
 *   labNN bench  times every row (CUDA events, warm-up, median) beside the measured copy,
 *                checks each row's answer after timing it (a wrong row gets no time),
 *                prints the table and writes the TSV that `make labNN plot` draws
 * Options: common/cli.h. Sizes default to the handout's on a GPU and to a size the CPU
 * backend checks in seconds. */
#ifndef DRIVER_H
#define DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include "bench.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rows after the variants: what the lab measures its kernels against. */
enum lab_row_kind {
    LAB_ROW_LIBRARY, /* a library doing the same job (CUB, cuBLAS): CUDA builds only */
    LAB_ROW_CPU,     /* the CPU reference on one core: bench only, main size only */
    LAB_ROW_EXTRA    /* checked and timed at the main size (e.g. with the PCIe copies) */
};

struct lab_row {
    const char *name;
    enum lab_row_kind kind;
    const char *teaches; /* the line --help prints */
};

struct cli;

struct lab_size {
    size_t n;             /* elements; for 2D labs width * height */
    size_t width, height; /* 2D labs */
};

/* Rows are numbered variants first (0 .. nvariants - 1, the lab's enum), then extras. */
struct lab_driver {
    const char *name;  /* "lab06": messages, the TSV's lab column */
    const char *usage; /* the lab's own --help lines, or NULL */
    /* Optional: the lab's own options (common/cli.h says how), listed in usage. */
    int (*option)(struct cli *c, const char *opt, const char *value);
    int dims;                       /* 1: sized by --n; 2: by --width and --height */
    size_t max_side;                /* 2D: each side at most this, and --size WxH (0: none) */
    struct lab_size size, cpu_size; /* defaults on a GPU and on the CPU backend */
    size_t min_n, max_n;            /* what the lab accepts (max_n 0: no limit) */
    size_t elem_bytes; /* of the input: the copy ceiling copies n elements of this size */
    const struct lab_variant *variants;
    int nvariants;
    const struct lab_row *extras;
    int nextras;

    /* Inputs drawn from seed on the host and the device, the reference computed. */
    void *(*setup)(struct lab_size size, uint64_t seed);
    void (*teardown)(void *job);
    /* One run of the row, asynchronous like a launch: what bench times. */
    int (*launch)(void *job, int row);
    /* One checked run: poison the outputs, launch, compare with the reference. LAB_OK,
     * LAB_WRONG with `why` saying where, or the launcher's error. */
    int (*check)(void *job, int row, char *why, size_t why_size);
    /* The fewest bytes the row must move: each input read once, each output written once. */
    double (*bytes)(void *job, int row);
    /* Optional, for a compute-bound lab: the useful work of a row's run in work_unit (the
     * reference's count, so that work skipped counts as speed), and the FP32 instructions
     * one unit issues (FADD, FMUL, FFMA in the SASS; the handout says how they were
     * counted). The bench then shows work per second and its % of the FP32 ceiling. */
    double (*work)(void *job, int row);
    const char *work_unit;
    double fp32_per_work;

    /* Optional: a launch parameter bench tries at the main size (lab06's block sizes),
     * keeping each variant's fastest for the table and the sweep. tune() sets value in the
     * job and returns 1 when the row takes it, else 0. */
    const unsigned *tunings;
    int ntunings;
    const char *tuning; /* its name, the TSV series of those rows: "threads" */
    int (*tune)(void *job, int row, unsigned value);
    /* Optional: what --sweep varies instead of the size (lab03: "spheres"), at the main
     * size: sweep_set() sets each value before the rows' setup. Its rows go to the TSV
     * series of that name, the value in the tuning column (plots/param.gp draws them). */
    const char *sweep_name;
    const unsigned *sweep_values;
    int nsweep;
    void (*sweep_set)(unsigned value);
    /* Optional, for a lab that draws: `run --png FILE` writes the image of the first row
     * checked that has one, right after its check. image_size() gives its width and height
     * (0: the row has none), image_row() row y of it in RGB (3 bytes a pixel), and
     * write_png is common/png_write.c's write_png_rgb (named here, so that only the labs
     * that draw link libpng). */
    int (*image_size)(const void *job, int row, size_t *width, size_t *height);
    void (*image_row)(const void *job, int row, size_t y, unsigned char *rgb);
    int (*write_png)(const char *prog, const char *path, size_t width, size_t height,
                     void (*row)(const void *image, size_t y, unsigned char *rgb),
                     const void *image);
    /* Optional: what `run` prints before its checks (lab00: hello, and the device). */
    void (*intro)(void);
    /* Optional: after the main size, the lab's own table from the median of each row
     * (ms[row], 0 when not timed) and its tuning (0 when none). */
    void (*report)(const struct bench *b, struct lab_size size, const double *ms,
                   const unsigned *tuned);
};

int lab_main(const struct lab_driver *lab, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
