/* janitor.c: a helper process that cleans up when oshrun dies without doing it itself.
 *
 * SIGKILL (the OOM killer, `timeout -s KILL`, a batch system) gives oshrun no chance to remove
 * the PMIx server's directory, which holds several MiB. The PEs die with oshrun through
 * PR_SET_PDEATHSIG, but processes they started, and the directory, would stay. The janitor is
 * forked before any thread exists; it waits for the end of a pipe from oshrun. End of file
 * without the "dismiss" message means oshrun is gone: it kills the PEs' process group and the
 * processes they started in sessions of their own, and removes the directory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "janitor.h"
#include "orphans.h"
#include "tmpdir.h"
#include "util.h"

enum janitor_kind { JANITOR_WATCH_GROUP = 1, JANITOR_DISMISS = 2 };

struct janitor_message {
    int kind;
    pid_t pgid;
};

static int janitor_fd = -1;
static pid_t janitor_pid = -1;

/* The janitor must not hold oshrun's stdin/stdout/stderr (a reader of oshrun's output would
 * wait for it) nor be stopped or killed by the keyboard signals meant for oshrun. */
static void janitor_detach(int keep_fd)
{
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
    }
    if (keep_fd > 3)
        close_range(3, (unsigned)keep_fd - 1, 0);
    close_range((unsigned)keep_fd + 1, ~0U, 0);
    int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE };
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        signal(ignored[i], SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_NAME, "oshrun-janitor");
}

/* Processes the PEs started with setsid() are outside the group killed above, and with oshrun
 * gone nobody is their subreaper: find them by the PMIx server directory's name, which every
 * PE's environment carries (PMIX_SERVER_TMPDIR) and is unique to this job. */
static void end_sessions_of_their_own(const char *tmpdir)
{
    char entry[4096];
    if (snprintf(entry, sizeof entry, "PMIX_SERVER_TMPDIR=%s", tmpdir) < (int)sizeof entry)
        (void)osh_orphans_end_marked(entry, 1.0);
}

static void janitor_main(int fd, const char *tmpdir, const char *shmdir)
{
    janitor_detach(fd);
    pid_t pgid = 0;
    struct janitor_message m;
    for (;;) {
        ssize_t r = read(fd, &m, sizeof m);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof m)
            break; /* oshrun is gone */
        if (m.kind == JANITOR_DISMISS)
            _exit(0);
        if (m.kind == JANITOR_WATCH_GROUP)
            pgid = m.pgid;
    }
    if (pgid > 0)
        kill(-pgid, SIGKILL);
    if (tmpdir)
        end_sessions_of_their_own(tmpdir);
    osh_tmpdir_remove(tmpdir);
    osh_tmpdir_remove(shmdir);
    _exit(0);
}

int osh_janitor_start(const char *tmpdir, const char *shmdir)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        osh_msg("warning: cannot create the janitor's pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        osh_msg("warning: cannot fork the janitor: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[1]);
        janitor_main(p[0], tmpdir, shmdir);
    }
    close(p[0]);
    janitor_fd = p[1];
    janitor_pid = pid;
    return 0;
}

static void janitor_send(int kind, pid_t pgid)
{
    if (janitor_fd < 0)
        return;
    struct janitor_message m = { .kind = kind, .pgid = pgid };
    (void)osh_write_all(janitor_fd, &m, sizeof m);
}

void osh_janitor_watch_group(pid_t pgid)
{
    janitor_send(JANITOR_WATCH_GROUP, pgid);
}

pid_t osh_janitor_pid(void)
{
    return janitor_pid;
}

void osh_janitor_dismiss(void)
{
    janitor_send(JANITOR_DISMISS, 0);
    if (janitor_fd >= 0)
        close(janitor_fd);
    janitor_fd = -1;
    /* It leaves at once; waiting for it means no process of the job outlives oshrun. */
    if (janitor_pid > 0)
        waitpid(janitor_pid, NULL, 0);
    janitor_pid = -1;
}
