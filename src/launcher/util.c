/* util.c: small helpers shared by the parts of oshrun. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

void osh_msg(const char *fmt, ...)
{
    char line[2048];
    int n = snprintf(line, sizeof line, "oshrun: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    line[len++] = '\n';
    (void)osh_write_all(STDERR_FILENO, line, len);
}

double osh_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void out_of_memory(size_t size)
{
    osh_msg("out of memory (asked for %zu bytes)", size);
    exit(OSH_EXIT_INTERNAL);
}

void *osh_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *osh_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *osh_xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        out_of_memory(size);
    return q;
}

char *osh_xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        out_of_memory(strlen(s) + 1);
    return d;
}

int osh_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* Someone made our stdout non-blocking (it may be shared with other programs):
             * wait until it drains instead of dropping output. */
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
                return -1;
            continue;
        }
        if (w < 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int osh_set_nonblock(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}
