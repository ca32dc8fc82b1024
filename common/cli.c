/* Shared argument parsing: strict numbers, known rows, one-line errors, exit 2. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void usage(const struct cli *c, FILE *out)
{
    fprintf(out,
            "usage: %s run|bench [options]\n"
            "  run      run each variant once and check it against the CPU reference\n"
            "  bench    time each variant and write a TSV for the plots\n",
            c->prog);
    if (c->dims == 1)
        fprintf(out, "  --n N          elements (default %zu)\n", c->n);
    else
        fprintf(out,
                "  --width W      columns (default %zu)\n"
                "  --height H     rows (default %zu)\n",
                c->width, c->height);
    fprintf(out,
            "  --variant V    only this one (see below)\n"
            "  --seed S       the random inputs' seed (default %" PRIu64 ")\n"
            "  --reps R       bench: timed repetitions, the median is kept (default %d)\n"
            "  --sweep        bench: also sweep the size (lab03: the spheres)\n"
            "  --gpu-only     bench: leave out the CPU rows (minutes at some labs' sizes)\n"
            "  --tsv PATH     bench: where the rows go (default %s)\n",
            c->seed, c->reps, c->tsv);
    if (c->max_side)
        fprintf(out, "  --size WxH     the same as --width W --height H, each 1 to %zu\n",
                c->max_side);
    if (c->images)
        fputs("  --png FILE     run: the first row checked writes its image there\n", out);
    if (c->usage)
        fputs(c->usage, out);
    fprintf(out, "variants and rows:\n");
    for (int i = 0; i < c->count; i++)
        fprintf(out, "  %-24s %s\n", c->names[i], c->teaches && c->teaches[i] ? c->teaches[i] : "");
}

void cli_fail(const struct cli *c, const char *opt, const char *value, const char *why)
{
    fprintf(stderr, "%s: bad value for %s: '%s' (%s)\n", c->prog, opt, value ? value : "", why);
    exit(2);
}

static uint64_t parse_number(const struct cli *c, const char *opt, const char *s, uint64_t min,
                             uint64_t max)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-')
        cli_fail(c, opt, s, "expected a non-negative integer");
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end)
        cli_fail(c, opt, s, "expected a non-negative integer");
    if (v < min)
        cli_fail(c, opt, s, "too small");
    if (v > max)
        cli_fail(c, opt, s, "too large");
    return v;
}

unsigned long long cli_count(const struct cli *c, const char *opt, const char *value,
                             unsigned long long lo, unsigned long long hi)
{
    return parse_number(c, opt, value, lo, hi);
}

void cli_numbers(const struct cli *c, const char *opt, const char *value, double *v, int count)
{
    const char *s = value ? value : "";
    char why[64];
    snprintf(why, sizeof why, "expected %d finite numbers separated by commas", count);
    for (int k = 0; k < count; k++) {
        char *end;
        errno = 0;
        v[k] = strtod(s, &end);
        if (end == s || errno || !isfinite(v[k]) || *end != (k + 1 < count ? ',' : '\0'))
            cli_fail(c, opt, value, why);
        s = end + 1;
    }
}

static size_t side(const char *s, char **end, size_t max_side)
{
    unsigned long long v;
    if (*s < '0' || *s > '9')
        return 0;
    errno = 0;
    v = strtoull(s, end, 10);
    return errno || v > max_side ? 0 : (size_t)v;
}

void cli_size(struct cli *c, const char *opt, const char *value, size_t max_side)
{
    char *end, why[64];
    size_t width = side(value ? value : "", &end, max_side), height = 0;
    if (width && *end == 'x')
        height = side(end + 1, &end, max_side);
    if (!width || !height || *end) {
        snprintf(why, sizeof why, "expected WxH, each side 1 to %zu", max_side);
        cli_fail(c, opt, value, why);
    }
    c->width = width;
    c->height = height;
}

static int find_row(const struct cli *c, const char *name)
{
    for (int i = 0; name && i < c->count; i++)
        if (!strcmp(c->names[i], name))
            return i;
    return -1;
}

/* The option opt takes a value: is it one this lab has? */
static int known(const struct cli *c, const char *opt)
{
    if (!strcmp(opt, "--n"))
        return c->dims == 1;
    if (!strcmp(opt, "--width") || !strcmp(opt, "--height"))
        return c->dims == 2;
    if (!strcmp(opt, "--png"))
        return c->images;
    if (!strcmp(opt, "--size"))
        return c->max_side != 0;
    return !strcmp(opt, "--reps") || !strcmp(opt, "--variant") || !strcmp(opt, "--seed") ||
           !strcmp(opt, "--tsv");
}

void cli_parse(struct cli *c, int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(c, stdout);
        exit(0);
    }
    if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "bench"))) {
        fprintf(stderr, "%s: expected a command, run or bench (try --help)\n", c->prog);
        exit(2);
    }
    c->command = argv[1];
    c->variant = -1;
    for (int i = 2; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int lab_option;
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            usage(c, stdout);
            exit(0);
        } else if (!strcmp(opt, "--sweep")) {
            c->sweep = 1;
            continue;
        } else if (!strcmp(opt, "--gpu-only")) {
            c->gpu_only = 1;
            continue;
        } else if (!known(c, opt) && c->option && (lab_option = c->option(c, opt, val))) {
            if (lab_option == CLI_FLAG)
                continue; /* the lab's own, without a value */
        } else if (!known(c, opt)) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", c->prog, opt);
            exit(2);
        } else if (!strcmp(opt, "--n")) {
            c->n = parse_number(c, opt, val, 0, SIZE_MAX);
        } else if (!strcmp(opt, "--width")) {
            c->width = parse_number(c, opt, val, 1, SIZE_MAX);
        } else if (!strcmp(opt, "--height")) {
            c->height = parse_number(c, opt, val, 1, SIZE_MAX);
        } else if (!strcmp(opt, "--reps")) {
            c->reps = (int)parse_number(c, opt, val, 1, 100000);
        } else if (!strcmp(opt, "--seed")) {
            c->seed = parse_number(c, opt, val, 0, UINT64_MAX);
        } else if (!strcmp(opt, "--variant")) {
            if ((c->variant = find_row(c, val)) < 0)
                cli_fail(c, opt, val, "unknown variant, see --help");
        } else if (!strcmp(opt, "--size")) {
            cli_size(c, opt, val, c->max_side);
        } else if (!strcmp(opt, "--tsv") || !strcmp(opt, "--png")) {
            if (!val || !*val)
                cli_fail(c, opt, val, "expected a file name");
            *(!strcmp(opt, "--tsv") ? &c->tsv : &c->png) = val;
        }
        i++; /* the option's value */
    }
}
