/* What every lab shares: the status codes of its host API (launchers validate their
 * arguments and return one of these instead of crashing, so tests and graders can check
 * bad input), and the shape of a row of its table of variants. */
#ifndef LAB_H
#define LAB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum lab_status {
    LAB_OK = 0,
    LAB_EINVAL = -1, /* an argument is NULL, too large or otherwise invalid */
    LAB_ECUDA = -2,  /* a CUDA call or kernel launch failed (message already printed) */
    LAB_WRONG = -3   /* checks only: the result differs from the CPU reference */
};

const char *lab_strerror(int status);
const char *lab_status_name(int status); /* "LAB_EINVAL", for messages */

/* What the last LAB_ECUDA was (file:line: call: CUDA's message), kept like errno by
 * check.h's cuda_report, so a test's message can say it; "" before any. */
const char *lab_cuda_failure(void);
void lab_set_cuda_failure(const char *message);

/* A variant as the driver, the tests and the points files know it. Each lab's header has
 * one table of them (an X-macro, so that the enum, the names and the lab's own launch
 * facts come from the same lines). */
struct lab_variant {
    const char *name;    /* the test's name, --variant's value, the bench row, the points */
    const char *teaches; /* one line: the idea, and what it costs */
};

/* The uses of an X-macro row X(id, name, (facts...), teaches): the enum constant, the row
 * of the struct lab_variant table, and the lab's own struct of facts. */
#define LAB_ENUM(id, ...) id,
#define LAB_VARIANT(id, name, facts, teaches) {name, teaches},
#define LAB_FACTS(id, name, facts, teaches) {LAB_UNPACK facts},
#define LAB_UNPACK(...) __VA_ARGS__

/* Index of the first element of got that differs from want bit for bit, or n. */
size_t lab_first_diff(const void *got, const void *want, size_t n, size_t elem_bytes);

#ifdef __cplusplus
}
#endif
#endif
