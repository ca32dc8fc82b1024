/* The command line of every lab (common/driver.c reads it):
 *   labNN run|bench [--n N | --width W --height H] [--variant NAME] [--seed S]
 *                   [--reps R] [--sweep] [--tsv PATH] [--png FILE] [--help]
 *                   [the lab's own options]
 * A bad value prints one line naming the option and exits 2; --help prints the usage. */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CLI_FLAG = 2 }; /* what a lab's option() returns for a flag without a value */

struct cli {
    const char *prog;           /* "lab01" */
    int dims;                   /* 1: the size is --n; 2: --width and --height */
    const char *const *names;   /* the rows --variant accepts */
    const char *const *teaches; /* a line for each, or NULL, for --help */
    int count;
    const char *usage; /* the lab's own lines for --help, or NULL */
    /* The lab's own options, or NULL: called with an option the driver does not know and
     * the argument after it, returns 1 when it is the lab's (its value taken; a bad value
     * goes through cli_fail), CLI_FLAG when it is a flag of the lab's (lab04's --cosine:
     * the argument after it left alone), else 0. May set the size (lab02's --size WxH). */
    int (*option)(struct cli *c, const char *opt, const char *value);
    const void *owner;   /* what option() needs of its caller (common/driver.c's options) */
    const char *command; /* "run" or "bench" */
    size_t n, width, height;
    int reps;
    int variant; /* index into names, or -1: every row */
    uint64_t seed;
    const char *tsv; /* where bench writes its rows */
    int sweep;       /* bench also sweeps the size */
    int gpu_only;    /* bench leaves out the CPU rows */
    int images;      /* the lab draws images: run takes --png FILE */
    size_t max_side; /* a 2D lab's longest side: --size WxH taken (0: not) */
    const char *png; /* where run writes the first checked row's image, or NULL */
};

/* Fills c from argv; the caller sets the defaults (and prog, dims, names, usage) first. */
void cli_parse(struct cli *c, int argc, char **argv);
/* The one-line error for a bad value of opt, then exit(2). */
void cli_fail(const struct cli *c, const char *opt, const char *value, const char *why);

/* Helpers for a lab's own options, each failing through cli_fail with what it expected:
 * a count from lo to hi; count finite numbers separated by commas into v; and WxH, each
 * side 1 to max_side, into c->width and c->height (lab02's and lab03's --size). */
unsigned long long cli_count(const struct cli *c, const char *opt, const char *value,
                             unsigned long long lo, unsigned long long hi);
void cli_numbers(const struct cli *c, const char *opt, const char *value, double *v, int count);
void cli_size(struct cli *c, const char *opt, const char *value, size_t max_side);

#ifdef __cplusplus
}
#endif
#endif
