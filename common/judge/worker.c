/* The worker: the process that runs a student's kernels for the grader's judge (remote.h).
 * It reads a request, makes the call (gpu.h, the lab's host API, the backend's hooks),
 * answers with the value and the outputs, and waits for the next, until the judge closes
 * the pipe. It decides nothing: the judge holds the inputs, the reference and the checks.
 * Usage: worker_labNN READ_FD WRITE_FD (the grader starts it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu.h"
#include "lab.h"
#include "remote.h"
#include "testkit.h"

static long long call_gpu_alloc(struct remote_arg *a)
{
    return (long long)(uintptr_t)gpu_alloc(a[0].z).ptr;
}

static long long call_gpu_alloc_zeroed(struct remote_arg *a)
{
    return (long long)(uintptr_t)gpu_alloc_zeroed(a[0].z).ptr;
}

static long long call_gpu_free(struct remote_arg *a)
{
    gpu_free(&a[0].buf);
    return 0;
}

static long long call_gpu_upload(struct remote_arg *a)
{
    gpu_upload(a[0].buf, a[1].p, a[2].z);
    return 0;
}

static long long call_gpu_download(struct remote_arg *a)
{
    gpu_download(a[0].p, a[1].buf, a[2].z);
    return 0;
}

static long long call_gpu_poison(struct remote_arg *a)
{
    gpu_poison(a[0].buf);
    return 0;
}

static long long call_gpu_sync(struct remote_arg *a)
{
    (void)a;
    gpu_sync();
    return 0;
}

/* testkit's hooks, served by testkit_here.c as in a test linked with the lab. The worker is
 * never asked what it is or what the device is (the judge has those from the grader): only
 * the work it counted and what its runtime holds, which the CPU backend counts in its
 * process. */
static long long call_setenv(struct remote_arg *a)
{
    testkit_setenv(a[0].p, a[1].p);
    return 0;
}

/* A test begins: its name on a line of our output, so that the grader can tell which test
 * the lines after it belong to (what the code under test prints, a sanitizer's report). */
static long long call_mark(struct remote_arg *a)
{
    fflush(stdout);
    fprintf(stderr, "\n%s%s\n", TESTKIT_MARK, a[0].p ? (const char *)a[0].p : "?");
    fflush(stderr);
    return 0;
}

static long long call_counts(struct remote_arg *a)
{
    if (a[0].bytes != 2 * sizeof(uint64_t))
        return LAB_EINVAL;
    testkit_counts(a[0].p);
    return 0;
}

static long long call_held(struct remote_arg *a)
{
    if (a[0].bytes != 2 * sizeof(int64_t))
        return LAB_EINVAL;
    testkit_held(a[0].p);
    return 0;
}

static long long call_launch_smem(struct remote_arg *a)
{
    int64_t bytes;
    if (a[0].bytes != sizeof bytes)
        return LAB_EINVAL;
    bytes = testkit_launch_smem();
    memcpy(a[0].p, &bytes, sizeof bytes);
    return 0;
}

static const struct remote_op common_ops[] = {
    {"gpu_alloc", "z", call_gpu_alloc},
    {"gpu_alloc_zeroed", "z", call_gpu_alloc_zeroed},
    {"gpu_free", "b", call_gpu_free},
    {"gpu_upload", "brz", call_gpu_upload},
    {"gpu_download", "obz", call_gpu_download},
    {"gpu_poison", "b", call_gpu_poison},
    {"gpu_sync", "", call_gpu_sync},
    {"setenv", "ss", call_setenv},
    {"counts", "o", call_counts},
    {"held", "o", call_held},
    {"launch_smem", "o", call_launch_smem},
    {"mark", "s", call_mark},
};

static const struct remote_op *find_op(const char *name, const char *format)
{
    const struct remote_op *op = NULL;
    for (size_t i = 0; i < sizeof common_ops / sizeof common_ops[0]; i++)
        if (!strcmp(common_ops[i].name, name))
            op = &common_ops[i];
    for (size_t i = 0; i < remote_lab_nops; i++)
        if (!strcmp(remote_lab_ops[i].name, name))
            op = &remote_lab_ops[i];
    if (op && strcmp(op->format, format)) {
        fprintf(stderr, "worker: %s called as (%s), served as (%s)\n", name, format, op->format);
        return NULL;
    }
    return op;
}

/* The request's arguments; arrays are copied out of the message (so that they are
 * aligned, and the code under test may keep or free nothing of the message). */
static int decode(struct remote_msg *m, const char *format, struct remote_arg *a)
{
    for (size_t k = 0; format[k]; k++) {
        memset(&a[k], 0, sizeof a[k]);
        switch (format[k]) {
        case 'i':
        case 'u':
        case 'v':
            a[k].i = (long long)remote_get_u64(m);
            break;
        case 'z':
            a[k].z = (size_t)remote_get_u64(m);
            break;
        case 'b':
            a[k].buf.ptr = (void *)(uintptr_t)remote_get_u64(m);
            a[k].buf.bytes = (size_t)remote_get_u64(m);
            break;
        case 's':
            a[k].p = remote_get_str(m);
            break;
        case 'r':
        case 'o':
        case 'a': {
            int present = remote_get_u64(m) != 0;
            a[k].bytes = (size_t)remote_get_u64(m);
            if (!present || m->bad)
                break;
            if (!(a[k].p = malloc(a[k].bytes ? a[k].bytes : 1)))
                return -1;
            if (format[k] != 'o') {
                const void *p = remote_get(m, a[k].bytes);
                if (!p)
                    return -1;
                memcpy(a[k].p, p, a[k].bytes);
            }
            break;
        }
        case 'Z':
            if (remote_get_u64(m))
                a[k].p = &a[k].z;
            a[k].z = (size_t)remote_get_u64(m);
            break;
        default:
            return -1;
        }
    }
    return m->bad || m->pos != m->len ? -1 : 0;
}

static void answer(struct remote_msg *out, long long value, const char *format,
                   struct remote_arg *a)
{
    remote_put_u64(out, (uint64_t)value);
    remote_put_str(out, lab_cuda_failure());
    for (size_t k = 0; format[k]; k++) {
        if ((format[k] == 'o' || format[k] == 'a') && a[k].p) {
            remote_put_u64(out, a[k].bytes);
            remote_put(out, a[k].p, a[k].bytes);
        } else if (format[k] == 'Z' && a[k].p) {
            remote_put_u64(out, a[k].z);
        }
        if (format[k] != 'Z')
            free(a[k].p);
    }
}

int main(int argc, char **argv)
{
    struct remote_msg in = {0}, out = {0};
    int from_judge, to_judge;
    if (argc != 3 || sscanf(argv[1], "%d", &from_judge) != 1 ||
        sscanf(argv[2], "%d", &to_judge) != 1) {
        fprintf(stderr, "usage: %s READ_FD WRITE_FD (the grader starts it)\n", argv[0]);
        return 2;
    }
    while (remote_recv(from_judge, &in, (size_t)1 << 40) == 0) {
        struct remote_arg a[16];
        char *name = remote_get_str(&in), *format = remote_get_str(&in);
        const struct remote_op *op = name && format ? find_op(name, format) : NULL;
        if (!op || strlen(format) > sizeof a / sizeof a[0] || decode(&in, format, a)) {
            fprintf(stderr, "worker: a request it cannot serve: %s\n", name ? name : "?");
            return 3;
        }
        out.len = 0;
        answer(&out, op->call(a), format, a);
        free(name);
        free(format);
        if (remote_send(to_judge, &out))
            return 0;
    }
    return 0;
}
