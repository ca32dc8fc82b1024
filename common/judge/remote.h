/* The wire between the grader's judge and the worker that runs a student's kernels.
 *
 * The judge (judge.c) is a lab's cmocka tests linked without any student code: each call
 * the tests make to the GPU (gpu.h), to the lab's host API and to the backend's test hooks
 * becomes a request to the worker (worker.c), a separate process, which makes the call and
 * answers with the status and the outputs. The judge chooses every input and checks every
 * output, so the verdict never depends on what the student's process says about itself.
 *
 * A call is described by a format string, one letter per argument:
 *   i  int (or enum)           u  unsigned            z  size_t
 *   v  any integer or enum, passed as long long (remote_api.h's VAL)
 *   b  struct gpu_buf           s  a string (may be NULL)
 *   r  host array read by the call:          (const void *p, size_t bytes)
 *   o  host array written by the call:       (void *p, size_t bytes)
 *   a  host array read and written:          (void *p, size_t bytes)
 *   Z  size_t read and written (may be NULL) (size_t *p)
 * A message on the pipe: its length (8 bytes), then its fields in this machine's byte
 * order (both ends are built from the same sources, for the same machine).
 * A request: the call's name, its format, then the arguments. An answer: the call's value
 * (its status, or a device pointer), the lab's last CUDA failure text, then the outputs
 * ('o', 'a' and 'Z' arguments), in the format's order. */
#ifndef REMOTE_H
#define REMOTE_H

#include <stddef.h>
#include <stdint.h>
#include "gpu.h"

/* A message being written or read. */
struct remote_msg {
    unsigned char *data;
    size_t len, cap, pos;
    int bad; /* a read past the end, or a field that makes no sense */
};

void remote_put(struct remote_msg *m, const void *p, size_t n);
void remote_put_u64(struct remote_msg *m, uint64_t x);
void remote_put_str(struct remote_msg *m, const char *s); /* NULL is kept */
uint64_t remote_get_u64(struct remote_msg *m);
const void *remote_get(struct remote_msg *m, size_t n); /* NULL, and bad set, past the end */
char *remote_get_str(struct remote_msg *m);             /* malloc'd; NULL for NULL */
void remote_free(struct remote_msg *m);

/* Whole messages on a file descriptor. 0 on success; -1 when the other end is gone, or
 * (remote_recv) the message is longer than max bytes. */
int remote_send(int fd, const struct remote_msg *m);
int remote_recv(int fd, struct remote_msg *m, size_t max);

/* An argument as the worker decodes it. */
struct remote_arg {
    long long i;        /* i, u */
    size_t z;           /* z, and the value behind Z */
    struct gpu_buf buf; /* b */
    void *p;            /* r o a: the array (NULL stays NULL); s: the string; Z: &z or NULL */
    size_t bytes;       /* r o a: the array's size */
};

/* A call the worker serves: its name, its format, and the function that makes the call
 * from the decoded arguments and returns its value. */
struct remote_op {
    const char *name;
    const char *format;
    long long (*call)(struct remote_arg *arg);
};

/* The line that starts a test in the judge's and the worker's output, then the test's name:
 * the grader splits their output by test where it runs several tests in one pair. */
#define TESTKIT_MARK "@@ testkit: test "

/* The lab's calls (tests/remote_labNN_*.c through remote_api.h, the worker's half). */
extern const struct remote_op remote_lab_ops[];
extern const size_t remote_lab_nops;

/* The judge's side: makes the call in the worker and returns its value. When the worker is
 * gone or answers out of protocol, the current test fails with a message saying so. */
long long remote_call(const char *name, const char *format, ...);

#endif
