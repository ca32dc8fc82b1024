/* The command line every lab's main.c shares:
 *   labNN run|bench [--n N] [--width W --height H] [--reps R] [--variant NAME]
 *                   [--tsv PATH] [--sweep] [--help]
 * A bad value prints one line naming the option and exits 2; --help prints the usage. */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cli {
    const char *prog;     /* "lab01" */
    const char *usage;    /* the lab's own lines after the common ones */
    const char *const *variants; /* NULL-terminated names that --variant accepts */
    const char *command;  /* "run" or "bench" */
    size_t n, width, height;
    int reps;
    const char *variant;  /* NULL: every variant */
    const char *tsv;      /* where bench writes its rows */
    int sweep;            /* bench also sweeps n */
};

/* Fills c from argv; the caller sets the defaults (and prog, usage, variants) first. */
void cli_parse(struct cli *c, int argc, char **argv);
/* Index of c->variant in c->variants, or -1 when every variant is wanted. */
int cli_variant(const struct cli *c);

#ifdef __cplusplus
}
#endif
#endif
