/* lab{{NN}}'s host side, as main.c and rows.c use it: the bench's rows and the job they run
 * on (rows.c); a lab with handout experiments declares them here too (experiments.c). */
#ifndef HOST_H
#define HOST_H

#include "driver.h"
#include "{{id}}.h"

/* The rows after the variants. */
enum { CPU = {{ID}}_VARIANTS, ROWS };
extern const struct lab_row extra_rows[ROWS - {{ID}}_VARIANTS];
extern const struct lab_job {{id}}_job;

#endif
