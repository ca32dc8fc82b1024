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
    return lab->rows.nvariants + lab->rows.nextras;
}

static const char *row_name(const struct lab_driver *lab, int row)
{
    return row < lab->rows.nvariants ? lab->rows.variants[row].name
                                     : lab->rows.extras[row - lab->rows.nvariants].name;
}

static int is_variant(const struct lab_driver *lab, int row)
{
    return row < lab->rows.nvariants;
}

static int is_kind(const struct lab_driver *lab, int row, enum lab_row_kind kind)
{
    return !is_variant(lab, row) && lab->rows.extras[row - lab->rows.nvariants].kind == kind;
}

/* The TSV's kind column. */
static const char *row_kind(const struct lab_driver *lab, int row)
{
    static const char *const kinds[] = {"library", "cpu", "extra"};
    return is_variant(lab, row) ? "variant"
                                : kinds[lab->rows.extras[row - lab->rows.nvariants].kind];
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
    if (lab->input.dims == 2)
        snprintf(out, size, "%zu x %zu", s.width, s.height);
    else
        snprintf(out, size, "n = %zu", s.n);
}

static void *setup(const struct lab_driver *lab, struct lab_size s, uint64_t seed)
{
    void *job = lab->job->setup(s, seed);
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
    im->lab->job->image_row(im->job, im->row, y, rgb);
}

/* After a row's check passed: its image at --png, if it has one and none was written. */
static int write_image(const struct lab_driver *lab, void *job, int row, const char **png)
{
    struct image im = {lab, job, row};
    size_t width = 0, height = 0;
    const char *path = *png;
    if (!path || !lab->job->image_size || !lab->job->image_size(job, row, &width, &height))
        return LAB_OK;
    *png = NULL; /* one image, or one try */
    if (lab->cli.write_png(lab->name, path, width, height, image_row, &im))
        return LAB_WRONG;
    printf("%s: %s's image\n", path, row_name(lab, row));
    return LAB_OK;
}

/* The command line as the driver reads it: the lab's options, and its experiments chosen. */
struct options {
    const struct lab_driver *lab;
    int *chosen; /* an entry per experiment */
};

static int run(const struct lab_driver *lab, const struct cli *c, const int *chosen,
               struct lab_size s)
{
    void *job = setup(lab, s, c->seed);
    char label[NAME_SIZE];
    const char *png = c->png;
    int failures = 0;
    if (lab->cli.intro)
        lab->cli.intro(s, c->seed);
    for (int e = 0; e < lab->cli.nexperiments; e++)
        if (chosen[e])
            lab->cli.experiments[e].run(s, c->seed);
    size_label(lab, s, label, sizeof label);
    for (int r = 0; r < rows(lab); r++) {
        char why[WHY_SIZE] = "";
        int status;
        if (!wanted(lab, c, r) || is_kind(lab, r, LAB_ROW_CPU))
            continue;
        status = lab->job->check(job, r, why, sizeof why);
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
    lab->job->teardown(job);
    return failures ? 1 : 0;
}

static double work(const struct lab_driver *lab, void *job, int row)
{
    return lab->job->work ? lab->job->work(job, row) : 0.0;
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
    return t->lab->job->launch(t->job, t->row);
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
    for (int k = 0; k < lab->measure.ntunings; k++) {
        char name[NAME_SIZE];
        struct timing timing;
        if (!lab->job->tune(t->job, t->row, lab->measure.tunings[k]))
            continue;
        if (time_row(t, reps, &timing) != LAB_OK)
            continue;
        snprintf(name, sizeof name, "%s/%u", row_name(lab, t->row), lab->measure.tunings[k]);
        bench_row(b, lab->measure.tuning, name, "variant", lab->measure.tunings[k], s.n,
                  lab->job->bytes(t->job, t->row), work(lab, t->job, t->row), &timing);
        if (!*best || timing.median_ms < fastest->median_ms) {
            *best = lab->measure.tunings[k];
            *fastest = timing;
        }
    }
    if (!*best)
        return LAB_EINVAL;
    lab->job->tune(t->job, t->row, *best);
    return LAB_OK;
}

/* Whether the row takes one of the lab's tunings (lab11: threshold_pixel alone takes its
 * block heights): a variant that takes none runs as it is, with no tuning. */
static int takes_tuning(struct timed *t)
{
    for (int k = 0; k < t->lab->measure.ntunings; k++)
        if (t->lab->job->tune(t->job, t->row, t->lab->measure.tunings[k]))
            return 1;
    return 0;
}

/* One row at one size: at the main size (ms given) a tuned variant tries every tuning, in
 * the sweep it runs at its best from the main size. */
static int time_at(struct timed *t, struct bench *b, struct lab_size s, int reps, unsigned *best,
                   int main_size, struct timing *timing)
{
    const struct lab_driver *lab = t->lab;
    if (!is_variant(lab, t->row) || !lab->measure.tunings || !takes_tuning(t))
        return time_row(t, reps, timing);
    if (main_size)
        return time_tuned(t, b, s, reps, best, timing);
    if (!*best || !lab->job->tune(t->job, t->row, *best))
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
            status = lab->job->check(t.job, t.row, why, sizeof why);
        if (status != LAB_OK) {
            printf("%-28s %s%s%s\n", row_name(lab, t.row), lab_strerror(status), *why ? ": " : "",
                   why);
            continue;
        }
        bench_row(b, series, row_name(lab, t.row), row_kind(lab, t.row),
                  value ? value : best[t.row], s.n, lab->job->bytes(t.job, t.row),
                  work(lab, t.job, t.row), &timing);
        if (ms)
            ms[t.row] = timing.median_ms;
    }
    lab->job->teardown(t.job);
}

/* The size from 2^10 (1D) or 256 x 256 (2D) up to the main size, or the lab's own
 * parameter at the main size. */
static void sweep(const struct lab_driver *lab, const struct cli *c, struct bench *b,
                  struct lab_size s, unsigned *best)
{
    const char *best_note = lab->measure.tunings ? ", each variant at its best above" : "";
    if (lab->measure.sweep_name) {
        printf("\n%s sweep%s\n", lab->measure.sweep_name, best_note);
        for (int k = 0; k < lab->measure.nsweep; k++) {
            lab->measure.sweep_set(lab->measure.sweep_values[k]);
            printf("%s %u\n", lab->measure.sweep_name, lab->measure.sweep_values[k]);
            bench_size(lab, c, b, s, best, NULL, lab->measure.sweep_name,
                       lab->measure.sweep_values[k]);
        }
        return;
    }
    printf("\nsize sweep%s\n", best_note);
    if (lab->input.dims == 1) {
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
    int status = bench_open(&b, lab->name, c->tsv, s.n * lab->input.elem_bytes, c->reps,
                            lab->measure.work_unit, lab->measure.fp32_per_work);
    if (status == LAB_OK) {
        bench_size(lab, c, &b, s, best, ms, "main", 0);
        if (lab->cli.report)
            lab->cli.report(&b, s, ms, best);
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
    if (lab->input.dims == 2) {
        if (s.width > SIZE_MAX / s.height)
            cli_fail(c, "--width", "", "width x height does not fit in memory");
        if (lab->input.max_side &&
            (s.width > lab->input.max_side || s.height > lab->input.max_side)) {
            int wide = s.width > lab->input.max_side;
            char got[NAME_SIZE];
            snprintf(max, sizeof max, "each side at most %zu", lab->input.max_side);
            snprintf(got, sizeof got, "%zu", wide ? s.width : s.height);
            cli_fail(c, wide ? "--width" : "--height", got, max);
        }
        s.n = s.width * s.height;
    }
    snprintf(max, sizeof max, "at most %zu elements", lab->input.max_n);
    if (s.n < lab->input.min_n)
        cli_fail(c, lab->input.dims == 1 ? "--n" : "--width", "", "too few elements for this lab");
    if (lab->input.max_n && s.n > lab->input.max_n)
        cli_fail(c, lab->input.dims == 1 ? "--n" : "--width", "", max);
    return s;
}

/* An option the driver does not know: one of the lab's experiments, or its own option. */
static int lab_option(struct cli *c, const char *opt, const char *value)
{
    const struct options *o = c->owner;
    for (int e = 0; e < o->lab->cli.nexperiments; e++)
        if (!strcmp(opt, o->lab->cli.experiments[e].flag)) {
            o->chosen[e] = 1;
            return CLI_FLAG;
        }
    return o->lab->cli.option ? o->lab->cli.option(c, opt, value) : 0;
}

/* --help's lines of the lab: its options, then its experiments. */
static char *lab_usage(const struct lab_driver *lab)
{
    const struct lab_cli *l = &lab->cli;
    size_t size = (l->usage ? strlen(l->usage) : 0) + 1;
    char *text, *at;
    for (int e = 0; e < l->nexperiments; e++)
        size += strlen(l->experiments[e].flag) + strlen(l->experiments[e].help) + 24;
    if (!(at = text = calloc(size, 1)))
        return NULL;
    at += snprintf(at, size, "%s", l->usage ? l->usage : "");
    for (int e = 0; e < l->nexperiments; e++)
        at += snprintf(at, size - (size_t)(at - text), "  %-14s run: %s\n", l->experiments[e].flag,
                       l->experiments[e].help);
    return text;
}

int lab_main(const struct lab_driver *lab, int argc, char **argv)
{
#ifdef BACKEND_CPU
    struct lab_size defaults = lab->input.cpu_size;
#else
    struct lab_size defaults = lab->input.size;
#endif
    char tsv[NAME_SIZE];
    const char **names = calloc((size_t)rows(lab), sizeof *names);
    const char **teaches = calloc((size_t)rows(lab), sizeof *teaches);
    struct options o = {lab, calloc((size_t)lab->cli.nexperiments + 1, sizeof(int))};
    char *usage = lab_usage(lab);
    struct cli c = {.prog = lab->name,
                    .dims = lab->input.dims,
                    .names = names,
                    .teaches = teaches,
                    .count = rows(lab),
                    .usage = usage,
                    .option = lab_option,
                    .owner = &o,
                    .n = defaults.n,
                    .width = defaults.width,
                    .height = defaults.height,
                    .reps = 20,
                    .seed = 1,
                    .tsv = tsv,
                    .images = lab->job->image_size != NULL,
                    .max_side = lab->input.dims == 2 ? lab->input.max_side : 0};
    int status;
    if (!names || !teaches || !o.chosen || !usage) {
        fprintf(stderr, "%s: out of memory\n", lab->name);
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a bench's line as each row is timed, through a pipe too */
    snprintf(tsv, sizeof tsv, "plots/data/%s.tsv", lab->name);
    for (int r = 0; r < rows(lab); r++) {
        names[r] = row_name(lab, r);
        teaches[r] = is_variant(lab, r) ? lab->rows.variants[r].teaches
                                        : lab->rows.extras[r - lab->rows.nvariants].teaches;
    }
    cli_parse(&c, argc, argv);
    status = !strcmp(c.command, "run") ? run(lab, &c, o.chosen, chosen_size(lab, &c))
                                       : bench(lab, &c, chosen_size(lab, &c));
    free(names);
    free(teaches);
    free(o.chosen);
    free(usage);
    return status;
}
