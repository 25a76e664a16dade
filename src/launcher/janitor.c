/* janitor.c: the guard's work: end every process of the job and remove its directories.
 *
 * SIGKILL (the OOM killer, `timeout -s KILL`, `kill -9 -PGID` of oshrun's process group, a
 * batch system) gives oshrun no chance to clean up, and processes the PEs started in
 * sessions of their own (setsid, daemons) are in no group anyone kills. The guard survives
 * all of that: it is in a process group of its own, and it is a child subreaper ancestor of
 * every process of the job, so each one whose parent dies becomes the guard's child, whatever
 * its session or environment. When the job is over it kills its children until it has none
 * left: the last of them is the last process of the job. Then it removes the directories. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "janitor.h"
#include "orphans.h"
#include "sysv.h"
#include "tmpdir.h"
#include "util.h"

/* A process that survives SIGKILL this long is stuck in the kernel; the guard stops waiting. */
#define GIVE_UP_S 5.0

/* The guard must not hold oshrun's stdin/stdout/stderr (a reader of oshrun's output would
 * wait for it) nor be stopped or killed by the signals meant for the job. */
static void detach(void)
{
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        dup2(devnull, STDOUT_FILENO);
        dup2(devnull, STDERR_FILENO);
        close(devnull);
    }
    int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE };
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        signal(ignored[i], SIG_IGN);
    prctl(PR_SET_NAME, "oshrun-guard");
}

/* For a kernel without the list of children: every process whose parent is the guard. */
static void kill_children_by_scan(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && osh_live_parent_of(e->d_name) == getpid())
            kill((pid_t)atoi(e->d_name), SIGKILL);
    closedir(d);
}

/* SIGKILL every child (from the kernel's list of the guard's children: it has one thread).
 * A child's pid cannot be reused before the guard reaps it, so no stranger is hit. */
static void kill_children(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "re");
    long pid;
    if (!f) {
        kill_children_by_scan();
        return;
    }
    while (fscanf(f, "%ld", &pid) == 1)
        kill((pid_t)pid, SIGKILL);
    fclose(f);
}

/* Reap what has exited; the worker's status goes to *status. 1 once no child is left. */
static int reap(pid_t worker, int *status)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
        if (pid == worker)
            *status = st;
    return pid < 0 && errno == ECHILD;
}

/* Kill children until there are none: killing one hands its own children to the guard. */
static void end_descendants(pid_t worker, int *status)
{
    double give_up = osh_now() + GIVE_UP_S;
    while (!reap(worker, status) && osh_now() < give_up) {
        kill_children();
        nanosleep(&(struct timespec){ .tv_nsec = 2 * 1000 * 1000 }, NULL);
    }
}

/* Wait for the end of the worker (1) or of the launcher (0). */
static int wait_for_end(pid_t worker, int launcher_fd, int sigfd, int *status)
{
    struct pollfd pfd[2] = { { .fd = launcher_fd, .events = POLLIN },
                             { .fd = sigfd, .events = POLLIN } };
    for (;;) {
        if (poll(pfd, 2, -1) < 0 && errno != EINTR)
            return 0; /* cannot watch: end the job rather than leave it unguarded */
        if (pfd[0].revents)
            return 0; /* end of file: the launcher is gone (it never writes) */
        struct signalfd_siginfo si;
        while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
        }
        int st;
        pid_t pid;
        while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
            if (pid == worker) {
                *status = st;
                return 1;
            }
    }
}

int osh_janitor_run(pid_t worker, int launcher_fd, const char *tmpdir, const char *shmdir)
{
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    int sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
    detach();
    int status = -1;
    if (sigfd < 0 || !wait_for_end(worker, launcher_fd, sigfd, &status)) {
        kill(worker, SIGKILL); /* the launcher is gone: so is the job */
        status = -1;
    }
    end_descendants(worker, &status);
    osh_sysv_sweep(tmpdir);
    osh_tmpdir_remove(tmpdir);
    osh_tmpdir_remove(shmdir);
    return status;
}
