/* output.c: --tag-output. Each PE writes its stdout and stderr into two pipes; oshrun forwards
 * them line by line to its own stdout and stderr, each line prefixed with "[PE n] " and written
 * with one write, so lines of different PEs never mix. A line longer than the buffer is cut
 * into several tagged lines; a last line without a newline gets one. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "util.h"

#define LINE_MAX_BYTES 8192
#define TAG_MAX 24              /* "[PE 4095] " and then some */
#define FINISH_MAX_READS 64     /* bounded drain: a process the PEs left behind may keep writing */

struct stream {
    int fd;     /* read end of the pipe, -1 once closed */
    int rank;
    int dest;   /* STDOUT_FILENO or STDERR_FILENO */
    size_t len; /* bytes of an unfinished line in buf */
    char buf[LINE_MAX_BYTES];
};

struct osh_output {
    int nstreams;
    struct stream *streams;  /* 2 per PE: stdout, then stderr */
    int *polled;             /* polled[k]: the stream behind pollfd k */
};

struct osh_output *osh_output_new(int np)
{
    struct osh_output *o = osh_xcalloc(1, sizeof *o);
    o->nstreams = 2 * np;
    o->streams = osh_xcalloc((size_t)o->nstreams, sizeof *o->streams);
    o->polled = osh_xcalloc((size_t)o->nstreams, sizeof *o->polled);
    for (int i = 0; i < o->nstreams; i++) {
        o->streams[i].fd = -1;
        o->streams[i].rank = i / 2;
        o->streams[i].dest = i % 2 ? STDERR_FILENO : STDOUT_FILENO;
    }
    return o;
}

int osh_output_open(struct osh_output *o, int rank, int *out_w, int *err_w)
{
    int *wr[2] = { out_w, err_w };
    for (int k = 0; k < 2; k++) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            osh_msg("cannot create the output pipes of PE %d: %s", rank, strerror(errno));
            return -1;
        }
        osh_set_nonblock(p[0]); /* one busy PE must not block the forwarding of the others */
        o->streams[2 * rank + k].fd = p[0];
        *wr[k] = p[1];
    }
    return 0;
}

/* Write "[PE n] " + text + "\n" in one write. */
static void emit_line(const struct stream *s, const char *text, size_t len)
{
    char line[TAG_MAX + LINE_MAX_BYTES + 1];
    int n = snprintf(line, TAG_MAX, "[PE %d] ", s->rank);
    memcpy(line + n, text, len);
    line[n + len] = '\n';
    (void)osh_write_all(s->dest, line, (size_t)n + len + 1); /* a closed stdout loses output */
}

/* Forward the complete lines in the buffer; keep the unfinished rest. */
static void emit_complete_lines(struct stream *s)
{
    size_t start = 0;
    for (;;) {
        char *nl = memchr(s->buf + start, '\n', s->len - start);
        if (!nl)
            break;
        size_t end = (size_t)(nl - s->buf);
        emit_line(s, s->buf + start, end - start);
        start = end + 1;
    }
    if (start == 0 && s->len == LINE_MAX_BYTES) { /* one overlong line: cut it */
        emit_line(s, s->buf, s->len);
        start = s->len;
    }
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
}

static void close_stream(struct stream *s)
{
    if (s->len > 0)
        emit_line(s, s->buf, s->len);
    s->len = 0;
    close(s->fd);
    s->fd = -1;
}

/* One read. Returns 1 when data came, 0 when nothing is waiting, -1 at end of stream. */
static int read_stream(struct stream *s)
{
    ssize_t r = read(s->fd, s->buf + s->len, LINE_MAX_BYTES - s->len);
    if (r > 0) {
        s->len += (size_t)r;
        emit_complete_lines(s);
        return 1;
    }
    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    close_stream(s);
    return -1;
}

size_t osh_output_pollfds(struct osh_output *o, struct pollfd *pfds)
{
    size_t n = 0;
    for (int i = 0; i < o->nstreams; i++) {
        if (o->streams[i].fd < 0)
            continue;
        pfds[n].fd = o->streams[i].fd;
        pfds[n].events = POLLIN;
        pfds[n].revents = 0;
        o->polled[n++] = i;
    }
    return n;
}

void osh_output_handle(struct osh_output *o, const struct pollfd *pfds, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        struct stream *s = &o->streams[o->polled[k]];
        if (pfds[k].revents && s->fd == pfds[k].fd)
            (void)read_stream(s);
    }
}

void osh_output_finish(struct osh_output *o)
{
    for (int i = 0; i < o->nstreams; i++) {
        struct stream *s = &o->streams[i];
        for (int reads = 0; s->fd >= 0 && reads < FINISH_MAX_READS; reads++)
            if (read_stream(s) <= 0)
                break;
        if (s->fd >= 0)
            close_stream(s);
    }
}

void osh_output_free(struct osh_output *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->nstreams; i++)
        if (o->streams[i].fd >= 0)
            close(o->streams[i].fd);
    free(o->streams);
    free(o->polled);
    free(o);
}
