/* input.c: standard input goes to PE 0 (programs read their input on one PE); the other PEs
 * read /dev/null.
 *
 * A file or pipe is handed to PE 0 directly. A terminal is not: the PEs have a process group
 * of their own, not the terminal's foreground group, so a PE reading the terminal would be
 * stopped by SIGTTIN and the job would hang. So oshrun, which is in the foreground, reads the
 * terminal and forwards it to PE 0 through a pipe. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "util.h"

static int open_devnull(void)
{
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        osh_msg("cannot open /dev/null: %s", strerror(errno));
    return fd;
}

/* Only a foreground oshrun may read its terminal (in the background it would be stopped). */
static int setup_terminal(struct osh_input *in)
{
    if (tcgetpgrp(STDIN_FILENO) != getpgrp()) {
        in->pe0_fd = in->others_fd;
        return 0;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        osh_msg("cannot create the input pipe: %s", strerror(errno));
        return -1;
    }
    /* A PE 0 that reads nothing must not block oshrun once the pipe is full. */
    osh_set_nonblock(p[1]);
    in->pe0_fd = p[0];
    in->forward_w = p[1];
    return 0;
}

int osh_input_setup(struct osh_input *in)
{
    in->pe0_fd = -1;
    in->forward_w = -1;
    in->others_fd = open_devnull();
    if (in->others_fd < 0)
        return -1;
    if (isatty(STDIN_FILENO))
        return setup_terminal(in);
    return 0;
}

int osh_input_fd_for(const struct osh_input *in, int rank)
{
    return rank == 0 ? in->pe0_fd : in->others_fd;
}

void osh_input_started(struct osh_input *in)
{
    if (in->forward_w >= 0 && in->pe0_fd >= 0) {
        close(in->pe0_fd);
        in->pe0_fd = -1;
    }
}

int osh_input_pollfd(const struct osh_input *in)
{
    /* Only in the foreground: after Ctrl-Z and bg, reading the terminal would stop oshrun. */
    if (in->forward_w < 0 || tcgetpgrp(STDIN_FILENO) != getpgrp())
        return -1;
    return STDIN_FILENO;
}

void osh_input_forward(struct osh_input *in)
{
    char buf[4096];
    ssize_t r = read(STDIN_FILENO, buf, sizeof buf);
    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) { /* end of input (Ctrl-D) or the terminal is gone: PE 0 sees end of file */
        osh_input_stop(in);
        return;
    }
    /* Input beyond what the pipe holds (64 KiB unread by PE 0) is dropped, not waited for. */
    ssize_t w = write(in->forward_w, buf, (size_t)r);
    (void)w;
}

void osh_input_stop(struct osh_input *in)
{
    if (in->forward_w >= 0)
        close(in->forward_w);
    in->forward_w = -1;
}

void osh_input_close(struct osh_input *in)
{
    osh_input_stop(in);
    if (in->pe0_fd >= 0 && in->pe0_fd != in->others_fd)
        close(in->pe0_fd);
    if (in->others_fd >= 0)
        close(in->others_fd);
    in->pe0_fd = in->others_fd = -1;
}
