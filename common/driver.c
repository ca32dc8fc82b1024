/* The lab driver: the command line, the checked run and the bench loop of every lab. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "driver.h"

enum { WHY_SIZE = 256, FEW_REPS = 5, NAME_SIZE = 64 };

#ifdef BACKEND_CUDA
static const int have_libraries = 1;
#else
static const int have_libraries = 0; /* the CPU backend builds no library.cu */
#endif

static int rows(const struct lab_driver *lab)
{
    return lab->nvariants + lab->nextras;
}

static const char *row_name(const struct lab_driver *lab, int row)
{
    return row < lab->nvariants ? lab->variants[row].name : lab->extras[row - lab->nvariants].name;
}

static int is_variant(const struct lab_driver *lab, int row)
{
    return row < lab->nvariants;
}

static int is_kind(const struct lab_driver *lab, int row, enum lab_row_kind kind)
{
    return !is_variant(lab, row) && lab->extras[row - lab->nvariants].kind == kind;
}

/* The TSV's kind column. */
static const char *row_kind(const struct lab_driver *lab, int row)
{
    static const char *const kinds[] = {"library", "cpu", "extra"};
    return is_variant(lab, row) ? "variant" : kinds[lab->extras[row - lab->nvariants].kind];
}

static int wanted(const struct lab_driver *lab, const struct cli *c, int row)
{
    if (is_kind(lab, row, LAB_ROW_LIBRARY) && !have_libraries)
        return 0;
    if (is_kind(lab, row, LAB_ROW_CPU) && c->gpu_only)
        return 0;
    return c->variant < 0 || c->variant == row;
}

static void size_label(const struct lab_driver *lab, struct lab_size s, char *out, size_t size)
{
    if (lab->dims == 2)
        snprintf(out, size, "%zu x %zu", s.width, s.height);
    else
        snprintf(out, size, "n = %zu", s.n);
}

static void *setup(const struct lab_driver *lab, struct lab_size s, uint64_t seed)
{
    void *job = lab->setup(s, seed);
    if (!job) {
        fprintf(stderr, "%s: not enough memory for the inputs\n", lab->name);
        exit(1);
    }
    return job;
}

/* A row's image, as write_png takes it. */
struct image {
    const struct lab_driver *lab;
    const void *job;
    int row;
};
static void image_row(const void *p, size_t y, unsigned char *rgb)
{
    const struct image *im = p;
    im->lab->image_row(im->job, im->row, y, rgb);
}

/* After a row's check passed: its image at --png, if it has one and none was written. */
static int write_image(const struct lab_driver *lab, void *job, int row, const char **png)
{
    struct image im = {lab, job, row};
    size_t width = 0, height = 0;
    const char *path = *png;
    if (!path || !lab->image_size || !lab->image_size(job, row, &width, &height))
        return LAB_OK;
    *png = NULL; /* one image, or one try */
    if (lab->write_png(lab->name, path, width, height, image_row, &im))
        return LAB_WRONG;
    printf("%s: %s's image\n", path, row_name(lab, row));
    return LAB_OK;
}

static int run(const struct lab_driver *lab, const struct cli *c, struct lab_size s)
{
    void *job = setup(lab, s, c->seed);
    char label[NAME_SIZE];
    const char *png = c->png;
    int failures = 0;
    if (lab->intro)
        lab->intro();
    size_label(lab, s, label, sizeof label);
    for (int r = 0; r < rows(lab); r++) {
        char why[WHY_SIZE] = "";
        int status;
        if (!wanted(lab, c, r) || is_kind(lab, r, LAB_ROW_CPU))
            continue;
        status = lab->check(job, r, why, sizeof why);
        if (status == LAB_OK && write_image(lab, job, r, &png) != LAB_OK) {
            snprintf(why, sizeof why, "its image could not be written");
            status = LAB_WRONG;
        }
        if (status == LAB_OK)
            printf("%-24s %s: ok\n", row_name(lab, r), label);
        else if (status == LAB_WRONG)
            printf("%-24s %s: WRONG, %s\n", row_name(lab, r), label, why);
        else
            printf("%-24s %s: %s\n", row_name(lab, r), label, lab_strerror(status));
        failures += status != LAB_OK;
    }
    lab->teardown(job);
    return failures ? 1 : 0;
}

static double work(const struct lab_driver *lab, void *job, int row)
{
    return lab->work ? lab->work(job, row) : 0.0;
}

/* What time_gpu and time_cpu call: one launch of one row. */
struct timed {
    const struct lab_driver *lab;
    void *job;
    int row;
};

static int launch_once(void *p)
{
    struct timed *t = p;
    return t->lab->launch(t->job, t->row);
}

static int time_row(struct timed *t, int reps, struct timing *out)
{
    if (is_kind(t->lab, t->row, LAB_ROW_CPU))
        return time_cpu(launch_once, t, reps < FEW_REPS ? reps : FEW_REPS, out);
    if (is_kind(t->lab, t->row, LAB_ROW_EXTRA))
        return time_gpu(launch_once, t, reps < FEW_REPS ? reps : FEW_REPS, out);
    return time_gpu(launch_once, t, reps, out);
}

/* Every tuning the row takes (a row each in the tuning's series), the fastest kept and set. */
static int time_tuned(struct timed *t, struct bench *b, struct lab_size s, int reps, unsigned *best,
                      struct timing *fastest)
{
    const struct lab_driver *lab = t->lab;
    *best = 0;
    for (int k = 0; k < lab->ntunings; k++) {
        char name[NAME_SIZE];
        struct timing timing;
        if (!lab->tune(t->job, t->row, lab->tunings[k]))
            continue;
        if (time_row(t, reps, &timing) != LAB_OK)
            continue;
        snprintf(name, sizeof name, "%s/%u", row_name(lab, t->row), lab->tunings[k]);
        bench_row(b, lab->tuning, name, "variant", lab->tunings[k], s.n, lab->bytes(t->job, t->row),
                  work(lab, t->job, t->row), &timing);
        if (!*best || timing.median_ms < fastest->median_ms) {
            *best = lab->tunings[k];
            *fastest = timing;
        }
    }
    if (!*best)
        return LAB_EINVAL;
    lab->tune(t->job, t->row, *best);
    return LAB_OK;
}

/* One row at one size: at the main size (ms given) a tuned variant tries every tuning, in
 * the sweep it runs at its best from the main size. */
static int time_at(struct timed *t, struct bench *b, struct lab_size s, int reps, unsigned *best,
                   int main_size, struct timing *timing)
{
    const struct lab_driver *lab = t->lab;
    if (!is_variant(lab, t->row) || !lab->tunings)
        return time_row(t, reps, timing);
    if (main_size)
        return time_tuned(t, b, s, reps, best, timing);
    if (!*best || !lab->tune(t->job, t->row, *best))
        return LAB_EINVAL; /* no tuning worked at the main size */
    return time_row(t, reps, timing);
}

/* One size: every wanted row, a line each. The CPU and extra rows run at the main size
 * only (ms given), where ms[row] gets each row's median. A sweep's rows go to `series`,
 * with `value` in the tuning column when the lab sweeps a parameter of its own (else 0:
 * each row's tuning). */
static void bench_size(const struct lab_driver *lab, const struct cli *c, struct bench *b,
                       struct lab_size s, unsigned *best, double *ms, const char *series,
                       unsigned value)
{
    struct timed t = {lab, setup(lab, s, c->seed), 0};
    for (t.row = 0; t.row < rows(lab); t.row++) {
        struct timing timing;
        char why[WHY_SIZE] = "";
        int status;
        if (!wanted(lab, c, t.row))
            continue;
        if (!ms && (is_kind(lab, t.row, LAB_ROW_CPU) || is_kind(lab, t.row, LAB_ROW_EXTRA)))
            continue;
        status = time_at(&t, b, s, c->reps, &best[t.row], ms != NULL, &timing);
        /* At the main size a time counts only for a right answer, checked after timing. */
        if (status == LAB_OK && ms && !is_kind(lab, t.row, LAB_ROW_CPU))
            status = lab->check(t.job, t.row, why, sizeof why);
        if (status != LAB_OK) {
            printf("%-28s %s%s%s\n", row_name(lab, t.row), lab_strerror(status), *why ? ": " : "",
                   why);
            continue;
        }
        bench_row(b, series, row_name(lab, t.row), row_kind(lab, t.row),
                  value ? value : best[t.row], s.n, lab->bytes(t.job, t.row),
                  work(lab, t.job, t.row), &timing);
        if (ms)
            ms[t.row] = timing.median_ms;
    }
    lab->teardown(t.job);
}

/* The size from 2^10 (1D) or 256 x 256 (2D) up to the main size, or the lab's own
 * parameter at the main size. */
static void sweep(const struct lab_driver *lab, const struct cli *c, struct bench *b,
                  struct lab_size s, unsigned *best)
{
    const char *best_note = lab->tunings ? ", each variant at its best above" : "";
    if (lab->sweep_name) {
        printf("\n%s sweep%s\n", lab->sweep_name, best_note);
        for (int k = 0; k < lab->nsweep; k++) {
            lab->sweep_set(lab->sweep_values[k]);
            printf("%s %u\n", lab->sweep_name, lab->sweep_values[k]);
            bench_size(lab, c, b, s, best, NULL, lab->sweep_name, lab->sweep_values[k]);
        }
        return;
    }
    printf("\nsize sweep%s\n", best_note);
    if (lab->dims == 1) {
        for (size_t n = 1u << 10; n <= s.n; n *= 4)
            bench_size(lab, c, b, (struct lab_size){n, 0, 0}, best, NULL, "sweep", 0);
        return;
    }
    for (size_t side = 256; side * side <= s.n; side *= 2)
        bench_size(lab, c, b, (struct lab_size){side * side, side, side}, best, NULL, "sweep", 0);
}

static int bench(const struct lab_driver *lab, const struct cli *c, struct lab_size s)
{
    struct bench b;
    unsigned *best = calloc((size_t)rows(lab), sizeof *best);
    double *ms = calloc((size_t)rows(lab), sizeof *ms);
    int status = bench_open(&b, lab->name, c->tsv, s.n * lab->elem_bytes, c->reps, lab->work_unit,
                            lab->fp32_per_work);
    if (status == LAB_OK) {
        bench_size(lab, c, &b, s, best, ms, "main", 0);
        if (lab->report)
            lab->report(&b, s, ms, best);
        if (c->sweep)
            sweep(lab, c, &b, s, best);
        bench_close(&b);
        printf("\nrows written to %s\n", c->tsv);
    }
    free(best);
    free(ms);
    return status == LAB_OK ? 0 : 1;
}

/* The size from the command line, checked against what the lab accepts. */
static struct lab_size chosen_size(const struct lab_driver *lab, const struct cli *c)
{
    struct lab_size s = {c->n, c->width, c->height};
    char max[NAME_SIZE];
    if (lab->dims == 2) {
        if (s.width > SIZE_MAX / s.height)
            cli_fail(c, "--width", "", "width x height does not fit in memory");
        if (lab->max_side && (s.width > lab->max_side || s.height > lab->max_side)) {
            int wide = s.width > lab->max_side;
            char got[NAME_SIZE];
            snprintf(max, sizeof max, "each side at most %zu", lab->max_side);
            snprintf(got, sizeof got, "%zu", wide ? s.width : s.height);
            cli_fail(c, wide ? "--width" : "--height", got, max);
        }
        s.n = s.width * s.height;
    }
    snprintf(max, sizeof max, "at most %zu elements", lab->max_n);
    if (s.n < lab->min_n)
        cli_fail(c, lab->dims == 1 ? "--n" : "--width", "", "too few elements for this lab");
    if (lab->max_n && s.n > lab->max_n)
        cli_fail(c, lab->dims == 1 ? "--n" : "--width", "", max);
    return s;
}

int lab_main(const struct lab_driver *lab, int argc, char **argv)
{
#ifdef BACKEND_CPU
    struct lab_size defaults = lab->cpu_size;
#else
    struct lab_size defaults = lab->size;
#endif
    char tsv[NAME_SIZE];
    const char **names = calloc((size_t)rows(lab), sizeof *names);
    const char **teaches = calloc((size_t)rows(lab), sizeof *teaches);
    struct cli c = {.prog = lab->name,
                    .dims = lab->dims,
                    .names = names,
                    .teaches = teaches,
                    .count = rows(lab),
                    .usage = lab->usage,
                    .option = lab->option,
                    .n = defaults.n,
                    .width = defaults.width,
                    .height = defaults.height,
                    .reps = 20,
                    .seed = 1,
                    .tsv = tsv,
                    .images = lab->image_size != NULL,
                    .max_side = lab->dims == 2 ? lab->max_side : 0};
    int status;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a bench's line as each row is timed, through a pipe too */
    snprintf(tsv, sizeof tsv, "plots/data/%s.tsv", lab->name);
    for (int r = 0; r < rows(lab); r++) {
        names[r] = row_name(lab, r);
        teaches[r] =
            is_variant(lab, r) ? lab->variants[r].teaches : lab->extras[r - lab->nvariants].teaches;
    }
    cli_parse(&c, argc, argv);
    status = !strcmp(c.command, "run") ? run(lab, &c, chosen_size(lab, &c))
                                       : bench(lab, &c, chosen_size(lab, &c));
    free(names);
    free(teaches);
    return status;
}
