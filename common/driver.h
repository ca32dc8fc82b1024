/* The lab driver: everything a lab's command line does that is not the lab's own business,
 * so that a lab's main.c is a table of what it has (struct lab_driver below).
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

/* A handout experiment: `labNN run --FLAG` runs it before the checks (lab04's --cosine). */
struct lab_experiment {
    const char *flag; /* "--cosine" */
    const char *help; /* what --help says of it: a line, or lines indented to match */
    void (*run)(struct lab_size size, uint64_t seed); /* the run's size and --seed */
};

/* The lab's job (its rows.c): the inputs of one size, and each row run and checked on them.
 * Rows are numbered variants first (0 .. nvariants - 1, the lab's enum), then extras. */
struct lab_job {
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
    /* Optional, for a compute-bound lab: the useful work of a row's run in the driver's
     * work_unit (the reference's count, so that work skipped counts as speed). */
    double (*work)(void *job, int row);
    /* Optional, with the driver's tunings: sets value in the job, 1 when the row takes it (a
     * variant that takes none of them is timed as it is). */
    int (*tune)(void *job, int row, unsigned value);
    /* Optional, for a lab that draws: `run --png FILE` writes the image of the first row
     * checked that has one, right after its check. image_size() gives its width and height
     * (0: the row has none), image_row() row y of it in RGB (3 bytes a pixel). */
    int (*image_size)(const void *job, int row, size_t *width, size_t *height);
    void (*image_row)(const void *job, int row, size_t y, unsigned char *rgb);
};

/* A lab's command line: main.c fills one and calls lab_main. */
struct lab_driver {
    const char *name; /* "lab06": messages, the TSV's lab column */
    struct lab_input {
        int dims;                       /* 1: sized by --n; 2: by --width and --height */
        size_t max_side;                /* 2D: each side at most this, and --size WxH (0: none) */
        struct lab_size size, cpu_size; /* defaults on a GPU and on the CPU backend */
        size_t min_n, max_n;            /* what the lab accepts (max_n 0: no limit) */
        size_t elem_bytes; /* of the input: the copy ceiling copies n elements of this size */
    } input;
    struct lab_rows {
        const struct lab_variant *variants;
        int nvariants;
        const struct lab_row *extras;
        int nextras;
    } rows;
    const struct lab_job *job;
    /* Optional: how bench measures beyond the main size and its GB/s. */
    struct lab_measure {
        /* A compute-bound lab: the job's work() is counted in work_unit, each unit issuing
         * fp32_per_work FP32 instructions (FADD, FMUL, FFMA in the SASS; the handout says
         * how they were counted); bench shows work per second and its % of the FP32
         * ceiling. */
        const char *work_unit;
        double fp32_per_work;
        /* A launch parameter bench tries at the main size (lab06's block sizes), keeping
         * each variant's fastest for the table and the sweep: the job's tune() sets it.
         * tuning is its name, the TSV series of those rows ("threads"). */
        const unsigned *tunings;
        int ntunings;
        const char *tuning;
        /* What --sweep varies instead of the size (lab03: "spheres"), at the main size:
         * sweep_set() sets each value before the rows' setup. Its rows go to the TSV
         * series of that name, the value in the tuning column (plots/param.gp draws them). */
        const char *sweep_name;
        const unsigned *sweep_values;
        int nsweep;
        void (*sweep_set)(unsigned value);
    } measure;
    /* Optional: what the lab adds to the command line. */
    struct lab_cli {
        const char *usage; /* its own options' --help lines */
        /* Its own options (common/cli.h says how), listed in usage. */
        int (*option)(struct cli *c, const char *opt, const char *value);
        /* The handout's experiments, each a flag of run. */
        const struct lab_experiment *experiments;
        int nexperiments;
        /* What `run` prints before its checks (lab00: hello, and the device), given the
         * run's size and --seed. */
        void (*intro)(struct lab_size size, uint64_t seed);
        /* After the main size, the lab's own table from the median of each row (ms[row], 0
         * when not timed) and its tuning (0 when none). */
        void (*report)(const struct bench *b, struct lab_size size, const double *ms,
                       const unsigned *tuned);
        /* For a job with images: common/png_write.c's write_png_rgb (named here, so that
         * only the labs that draw link libpng). */
        int (*write_png)(const char *prog, const char *path, size_t width, size_t height,
                         void (*row)(const void *image, size_t y, unsigned char *rgb),
                         const void *image);
    } cli;
};

/* An array's length, and the array with it, for the tables above: .rows = {dot_variants,
 * DOT_VARIANTS, LAB_LIST(extras)}. */
#define LAB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define LAB_LIST(a) (a), LAB_COUNT(a)

int lab_main(const struct lab_driver *lab, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
