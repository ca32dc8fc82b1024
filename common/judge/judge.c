/* The judge's side of the wire (remote.h): a lab's tests linked with this file instead of
 * the lab's code make every GPU call, lab call and backend hook in the worker that the
 * grader started beside them. The grader gives the pipe's two ends in TESTKIT_REMOTE
 * ("READ_FD,WRITE_FD"). Nothing the worker answers is trusted: a short, long or malformed
 * answer fails the test, and the worker's text is cut to a line. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lab.h"
#include "remote.h"
#include "testkit.h"

enum { TEXT_MAX = 512 }; /* the longest CUDA failure text kept from an answer */

static int to_worker = -1, from_worker = -1;
static int worker_gone; /* it stopped answering: the tests after this one cannot run */

static void connect_worker(const char *name)
{
    const char *fds = getenv("TESTKIT_REMOTE");
    if (to_worker >= 0)
        return;
    if (!fds || sscanf(fds, "%d,%d", &from_worker, &to_worker) != 2)
        fail_msg("%s: this is the grader's judge, which runs the code under test in a worker "
                 "that the grader starts beside it (TESTKIT_REMOTE unset); make labNN test "
                 "runs the tests on their own",
                 name);
    signal(SIGPIPE, SIG_IGN); /* a worker gone is an answer missing, not a signal here */
}

/* What the call sends: the name, the format and every argument. */
static void put_args(struct remote_msg *m, const char *name, const char *format, va_list ap,
                     size_t *answer_max)
{
    remote_put_str(m, name);
    remote_put_str(m, format);
    for (const char *f = format; *f; f++) {
        switch (*f) {
        case 'i':
            remote_put_u64(m, (uint64_t)(long long)va_arg(ap, int));
            break;
        case 'u':
            remote_put_u64(m, va_arg(ap, unsigned));
            break;
        case 'v':
            remote_put_u64(m, (uint64_t)va_arg(ap, long long));
            break;
        case 'z':
            remote_put_u64(m, va_arg(ap, size_t));
            break;
        case 'b': {
            struct gpu_buf b = va_arg(ap, struct gpu_buf);
            remote_put_u64(m, (uint64_t)(uintptr_t)b.ptr);
            remote_put_u64(m, b.bytes);
            break;
        }
        case 's':
            remote_put_str(m, va_arg(ap, const char *));
            break;
        case 'r':
        case 'o':
        case 'a': {
            const void *p = va_arg(ap, const void *);
            size_t bytes = va_arg(ap, size_t);
            remote_put_u64(m, p != NULL);
            remote_put_u64(m, bytes);
            if (p && *f != 'o')
                remote_put(m, p, bytes);
            if (p && *f != 'r')
                *answer_max += 8 + bytes;
            break;
        }
        case 'Z': {
            size_t *p = va_arg(ap, size_t *);
            remote_put_u64(m, p != NULL);
            remote_put_u64(m, p ? *p : 0);
            *answer_max += 8;
            break;
        }
        default:
            fail_msg("remote_call(%s): no argument type '%c' (common/judge/remote.h)", name, *f);
        }
    }
}

/* The outputs in the answer, into the caller's arrays: each exactly as long as it was. */
static int take_outputs(struct remote_msg *m, const char *format, va_list ap)
{
    for (const char *f = format; *f && !m->bad; f++) {
        switch (*f) {
        case 'i':
        case 'u':
            (void)va_arg(ap, int);
            break;
        case 'z':
            (void)va_arg(ap, size_t);
            break;
        case 'v':
            (void)va_arg(ap, long long);
            break;
        case 'b':
            (void)va_arg(ap, struct gpu_buf);
            break;
        case 's':
            (void)va_arg(ap, const char *);
            break;
        case 'r':
            (void)va_arg(ap, const void *);
            (void)va_arg(ap, size_t);
            break;
        case 'o':
        case 'a': {
            void *p = va_arg(ap, void *);
            size_t bytes = va_arg(ap, size_t);
            const void *got;
            if (!p)
                break;
            if (remote_get_u64(m) != bytes || !(got = remote_get(m, bytes)))
                return -1;
            memcpy(p, got, bytes);
            break;
        }
        case 'Z': {
            size_t *p = va_arg(ap, size_t *);
            if (p)
                *p = (size_t)remote_get_u64(m);
            break;
        }
        }
    }
    return m->bad || m->pos != m->len ? -1 : 0;
}

long long remote_call(const char *name, const char *format, ...)
{
    struct remote_msg m = {0};
    size_t answer_max = 8 + 8 + TEXT_MAX;
    long long value;
    char *text;
    va_list ap;
    connect_worker(name);
    va_start(ap, format);
    put_args(&m, name, format, ap, &answer_max);
    va_end(ap);
    if (remote_send(to_worker, &m) || remote_recv(from_worker, &m, answer_max)) {
        remote_free(&m);
        worker_gone = 1;
        fail_msg("%s: the code under test stopped answering (it crashed, or exited): the "
                 "grader says how it ended",
                 name);
    }
    value = (long long)remote_get_u64(&m);
    text = remote_get_str(&m);
    va_start(ap, format);
    if (take_outputs(&m, format, ap)) {
        va_end(ap);
        free(text);
        remote_free(&m);
        worker_gone = 1; /* what it says next cannot be trusted to be an answer */
        fail_msg("%s: the code under test answered out of protocol", name);
    }
    va_end(ap);
    lab_set_cuda_failure(text ? text : "");
    free(text);
    remote_free(&m);
    return value;
}

/* ---------------------------------------------------------------- gpu.h, in the worker */

struct gpu_buf gpu_alloc(size_t bytes)
{
    struct gpu_buf buf = {NULL, bytes};
    buf.ptr = (void *)(uintptr_t)remote_call("gpu_alloc", "z", bytes);
    return buf;
}

struct gpu_buf gpu_alloc_zeroed(size_t bytes)
{
    struct gpu_buf buf = {NULL, bytes};
    buf.ptr = (void *)(uintptr_t)remote_call("gpu_alloc_zeroed", "z", bytes);
    return buf;
}

void gpu_free(struct gpu_buf *buf)
{
    remote_call("gpu_free", "b", *buf);
    buf->ptr = NULL;
    buf->bytes = 0;
}

/* Copies go in pieces of CHUNK bytes, so that neither end holds more than a piece in a
 * message, whatever the size (lab01's hidden test moves 8.6 GB). */
enum { CHUNK = 32 << 20 };

static struct gpu_buf from(struct gpu_buf buf, size_t offset)
{
    struct gpu_buf rest = {(char *)buf.ptr + offset, buf.bytes - offset};
    return rest;
}

void gpu_upload(struct gpu_buf dst, const void *src, size_t bytes)
{
    if (bytes > dst.bytes)
        fail_msg("gpu_upload: %zu bytes into a buffer of %zu", bytes, dst.bytes);
    for (size_t done = 0; done < bytes; done += CHUNK) {
        size_t k = bytes - done < CHUNK ? bytes - done : CHUNK;
        remote_call("gpu_upload", "brz", from(dst, done), (const char *)src + done, k, k);
    }
}

void gpu_download(void *dst, struct gpu_buf src, size_t bytes)
{
    if (bytes > src.bytes)
        fail_msg("gpu_download: %zu bytes from a buffer of %zu", bytes, src.bytes);
    for (size_t done = 0; done < bytes; done += CHUNK) {
        size_t k = bytes - done < CHUNK ? bytes - done : CHUNK;
        remote_call("gpu_download", "obz", (char *)dst + done, k, from(src, done), k);
    }
}

void gpu_poison(struct gpu_buf buf)
{
    remote_call("gpu_poison", "b", buf);
}

void gpu_sync(void)
{
    remote_call("gpu_sync", "");
}

/* ---------------------------------------------------------------- testkit's hooks */

void testkit_setenv(const char *name, const char *value)
{
    remote_call("setenv", "ss", name, value);
}

/* Which build the worker is, the grader knows (it built both): never the worker's word,
 * since the race checker's build caps the tests' sizes. */
int testkit_race_checker(void)
{
    const char *build = getenv("TESTKIT_RACE_CHECKER");
    if (!build || (strcmp(build, "0") && strcmp(build, "1")))
        fail_msg("judge: TESTKIT_RACE_CHECKER is not 0 or 1: the grader says which build the "
                 "worker is; this judge runs only under the grader");
    return build[0] == '1';
}

void testkit_counts(uint64_t counts[2])
{
    remote_call("counts", "o", counts, 2 * sizeof counts[0]);
}

void testkit_held(int64_t held[2])
{
    remote_call("held", "o", held, 2 * sizeof held[0]);
}

int64_t testkit_launch_smem(void)
{
    int64_t bytes = -1;
    remote_call("launch_smem", "o", &bytes, sizeof bytes);
    return bytes;
}

void testkit_mark(const char *test)
{
    fprintf(stderr, "%s%s\n", TESTKIT_MARK, test);
    remote_call("mark", "s", test);
}

int testkit_worker_gone(void)
{
    return worker_gone;
}
