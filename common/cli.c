/* Shared argument parsing: strict numbers, known variants, one-line errors, exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static void usage(const struct cli *c, FILE *out)
{
    fprintf(out,
            "usage: %s run|bench [options]\n"
            "  run      run each variant once and check it against the CPU reference\n"
            "  bench    time each variant and write a TSV for the plots\n"
            "  --n N          problem size (elements)\n"
            "  --width W      matrix width, --height H matrix height (2D labs)\n"
            "  --reps R       timed repetitions (median kept)\n"
            "  --variant V    only this variant, one of:",
            c->prog);
    for (const char *const *v = c->variants; v && *v; v++)
        fprintf(out, " %s", *v);
    fprintf(out, "\n  --tsv PATH     where bench writes its rows\n"
                 "  --sweep        bench also sweeps the size\n%s",
            c->usage ? c->usage : "");
}

static void fail(const struct cli *c, const char *opt, const char *value, const char *why)
{
    fprintf(stderr, "%s: bad value for %s: '%s' (%s)\n", c->prog, opt, value ? value : "",
            why);
    exit(2);
}

static size_t parse_size(const struct cli *c, const char *opt, const char *s, size_t min)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-')
        fail(c, opt, s, "expected a non-negative integer");
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end)
        fail(c, opt, s, "expected a non-negative integer");
    if (v < min)
        fail(c, opt, s, "too small");
    return (size_t)v;
}

void cli_parse(struct cli *c, int argc, char **argv)
{
    int i = 1;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(c, stdout);
        exit(0);
    }
    if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "bench"))) {
        fprintf(stderr, "%s: expected a command, run or bench (try --help)\n", c->prog);
        exit(2);
    }
    c->command = argv[i++];
    for (; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "--help")) {
            usage(c, stdout);
            exit(0);
        } else if (!strcmp(opt, "--sweep")) {
            c->sweep = 1;
            continue;
        } else if (!strcmp(opt, "--n")) {
            c->n = parse_size(c, opt, val, 0);
        } else if (!strcmp(opt, "--width")) {
            c->width = parse_size(c, opt, val, 1);
        } else if (!strcmp(opt, "--height")) {
            c->height = parse_size(c, opt, val, 1);
        } else if (!strcmp(opt, "--reps")) {
            size_t r = parse_size(c, opt, val, 1);
            if (r > 100000)
                fail(c, opt, val, "at most 100000");
            c->reps = (int)r;
        } else if (!strcmp(opt, "--variant")) {
            c->variant = val;
            if (!val || cli_variant(c) < 0)
                fail(c, opt, val, "unknown variant, see --help");
        } else if (!strcmp(opt, "--tsv")) {
            if (!val || !*val)
                fail(c, opt, val, "expected a file name");
            c->tsv = val;
        } else {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", c->prog, opt);
            exit(2);
        }
        i++; /* the option's value */
    }
}

int cli_variant(const struct cli *c)
{
    if (!c->variant)
        return -1;
    for (int i = 0; c->variants && c->variants[i]; i++)
        if (!strcmp(c->variants[i], c->variant))
            return i;
    return -1;
}
