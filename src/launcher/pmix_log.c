/* pmix_log.c: what libpmix and its libevent print, routed through oshrun.
 *
 * After a PE dies during a collective, libpmix 4.2.2 prints errors about the dead PE's
 * connection ("PMIX ERROR: ... dstore_base.c", "INVALID-NAMESPACE", libevent's "Epoll MOD ...
 * Bad file descriptor"). They say nothing the user can act on and bury oshrun's own report of
 * the failure. So libpmix's error stream (PMIX_OUTPUT_STDERR_FD) goes into a pipe that oshrun
 * reads, and libevent's log into a callback: while every PE runs, both are printed at once,
 * prefixed; once a PE has ended they are held, and printed at the end only if the job
 * succeeded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix_log.h"
#include "util.h"

#define HELD_MAX (64 * 1024)

static int log_pipe[2] = { -1, -1 };
static atomic_bool held;
static char *held_text;    /* only the main thread touches it */
static size_t held_len;

static bool at_line_start = true;
static atomic_bool drop_held; /* a PE aborted: the rest were killed, their noise is not news */

/* Print libpmix output with "oshrun: libpmix: " at the start of every line. */
static void print_lines(const char *text, size_t len)
{
    static const char prefix[] = "oshrun: libpmix: ";
    while (len > 0) {
        if (at_line_start)
            (void)osh_write_all(STDERR_FILENO, prefix, sizeof prefix - 1);
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) + 1 : len;
        (void)osh_write_all(STDERR_FILENO, text, n);
        at_line_start = nl != NULL;
        text += n;
        len -= n;
    }
}

/* Print now, or keep for the end of the job. */
static void take(const char *text, size_t len)
{
    if (!atomic_load(&held)) {
        print_lines(text, len);
        return;
    }
    if (held_len + len > HELD_MAX)
        return;
    held_text = osh_xrealloc(held_text, held_len + len);
    memcpy(held_text + held_len, text, len);
    held_len += len;
}

/* libevent calls this from PMIx's thread; it writes into the same pipe, so that only the
 * main thread decides what is printed. */
static void on_libevent_log(int severity, const char *msg)
{
    char line[512];
    int n = snprintf(line, sizeof line, "[libevent] %s\n", msg);
    if (log_pipe[1] >= 0 && n > 0) {
        ssize_t w = write(log_pipe[1], line, (size_t)n < sizeof line ? (size_t)n : sizeof line);
        (void)w;
    }
}

/* libevent is libpmix's dependency, not oshrun's: look its hook up at run time. */
static void hook_libevent(void)
{
    void (*set_log)(void (*)(int, const char *)) =
        (void (*)(void (*)(int, const char *)))dlsym(RTLD_DEFAULT, "event_set_log_callback");
    if (set_log)
        set_log(on_libevent_log);
}

void osh_pmix_log_setup(void)
{
    if (pipe2(log_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        log_pipe[0] = log_pipe[1] = -1;
        return; /* libpmix then prints to stderr itself */
    }
    /* Non-blocking write end: when nobody reads, libpmix loses lines instead of blocking. */
    char fd[16];
    snprintf(fd, sizeof fd, "%d", log_pipe[1]);
    setenv("PMIX_OUTPUT_STDERR_FD", fd, 1); /* a PMIX_ variable: the PEs do not inherit it */
    hook_libevent();
}

int osh_pmix_log_fd(void)
{
    return log_pipe[0];
}

void osh_pmix_log_hold(void)
{
    atomic_store(&held, true);
}

void osh_pmix_log_forward(void)
{
    char buf[4096];
    ssize_t r;
    while (log_pipe[0] >= 0 && (r = read(log_pipe[0], buf, sizeof buf)) > 0)
        take(buf, (size_t)r);
}

void osh_pmix_log_drop_held(void)
{
    atomic_store(&drop_held, true);
    osh_pmix_log_hold();
}

void osh_pmix_log_finish(int job_failed)
{
    osh_pmix_log_forward();
    if (!job_failed && !atomic_load(&drop_held) && held_len > 0)
        print_lines(held_text, held_len);
    if (!at_line_start)
        (void)osh_write_all(STDERR_FILENO, "\n", 1);
    free(held_text);
    held_text = NULL;
    held_len = 0;
}

void osh_pmix_log_close(void)
{
    for (int i = 0; i < 2; i++) {
        if (log_pipe[i] >= 0)
            close(log_pipe[i]);
        log_pipe[i] = -1;
    }
}
