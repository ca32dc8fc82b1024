/* Messages between the judge and the worker: typed fields, framed by their length. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "remote.h"

static void grow(struct remote_msg *m, size_t n)
{
    if (m->len + n <= m->cap)
        return;
    m->cap = (m->len + n) * 2 + 256;
    m->data = realloc(m->data, m->cap);
    if (!m->data)
        abort(); /* the judge's own inputs: out of memory is not the student's doing */
}

void remote_put(struct remote_msg *m, const void *p, size_t n)
{
    grow(m, n);
    if (n > 0)
        memcpy(m->data + m->len, p, n);
    m->len += n;
}

void remote_put_u64(struct remote_msg *m, uint64_t x)
{
    remote_put(m, &x, sizeof x);
}

void remote_put_str(struct remote_msg *m, const char *s)
{
    if (!s) {
        remote_put_u64(m, UINT64_MAX);
        return;
    }
    remote_put_u64(m, strlen(s));
    remote_put(m, s, strlen(s));
}

const void *remote_get(struct remote_msg *m, size_t n)
{
    const void *p = m->data + m->pos;
    if (m->bad || n > m->len - m->pos) {
        m->bad = 1;
        return NULL;
    }
    m->pos += n;
    return p;
}

uint64_t remote_get_u64(struct remote_msg *m)
{
    uint64_t x = 0;
    const void *p = remote_get(m, sizeof x);
    if (p)
        memcpy(&x, p, sizeof x);
    return x;
}

char *remote_get_str(struct remote_msg *m)
{
    uint64_t n = remote_get_u64(m);
    const char *p;
    char *s;
    if (n == UINT64_MAX || m->bad)
        return NULL;
    p = remote_get(m, n);
    if (!p || !(s = malloc(n + 1))) {
        m->bad = 1;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

void remote_free(struct remote_msg *m)
{
    free(m->data);
    memset(m, 0, sizeof *m);
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

int remote_send(int fd, const struct remote_msg *m)
{
    uint64_t len = m->len;
    return write_all(fd, &len, sizeof len) || write_all(fd, m->data, m->len) ? -1 : 0;
}

int remote_recv(int fd, struct remote_msg *m, size_t max)
{
    uint64_t len;
    remote_free(m);
    if (read_all(fd, &len, sizeof len) || len > max)
        return -1;
    grow(m, len);
    m->len = len;
    return read_all(fd, m->data, len);
}
