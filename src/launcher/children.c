/* children.c: starting and signalling the PE processes.
 *
 * PMIx runs a progress thread in oshrun, so between fork and execve a child may only make
 * async-signal-safe calls: everything (argv, environment, CPU set, descriptors) is prepared by
 * the parent, and the child only makes system calls. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "children.h"
#include "fdlimit.h"
#include "signals.h"
#include "util.h"

/* Put the PE's descriptors in place. dup2 clears FD_CLOEXEC on the copy, so the originals
 * (all created close-on-exec) vanish at execve and only 0, 1, 2 stay. */
static void child_stdio(const int stdio[3])
{
    for (int fd = 0; fd < 3; fd++)
        if (stdio[fd] >= 0 && stdio[fd] != fd)
            dup2(stdio[fd], fd);
}

/* The lifeline moves to a high descriptor: a dying process releases its files from the
 * highest down, so it goes before the PMIx socket the program opens (lifeline.c). */
static void child_lifeline(int fd, int target)
{
    if (fd < 0)
        return;
    if (fd == target)
        fcntl(fd, F_SETFD, 0);
    else
        dup2(fd, target); /* the copy is not close-on-exec */
}

static void child_report_exec_error(const struct osh_child_spec *spec, int err)
{
    struct osh_exec_error e = { .rank = spec->rank, .err = err };
    ssize_t w = write(spec->exec_error_fd, &e, sizeof e); /* atomic: smaller than PIPE_BUF */
    (void)w;
}

/* Keep only 0-2 and the lifeline across execve: libpmix leaves sockets without
 * close-on-exec, and descriptors oshrun inherited are none of the PEs' business. Marking
 * instead of closing keeps the exec error pipe usable until execve. */
static void child_close_others(int keep)
{
    if (keep > 3)
        close_range(3, (unsigned)keep - 1, CLOSE_RANGE_CLOEXEC);
    close_range(keep >= 3 ? (unsigned)keep + 1 : 3, ~0U, CLOSE_RANGE_CLOEXEC);
}

static void child_main(const struct osh_child_spec *spec, pid_t parent)
{
    /* Own process group shared by all PEs: oshrun signals the job with one kill, and the
     * terminal's Ctrl-C reaches oshrun only, which then ends the job in order. */
    setpgid(0, spec->pgid);
    /* If oshrun dies, even by SIGKILL, the PE dies too. The check after it closes the race
     * where oshrun died before the prctl. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(128 + SIGKILL);
    if (spec->cpuset)
        sched_setaffinity(0, spec->cpusetsize, spec->cpuset); /* a failure only costs speed */
    struct osh_child_spec s = *spec;
    child_stdio(s.stdio);
    if (s.lifeline_fd >= 0 && s.exec_error_fd == s.lifeline_target) /* about to be replaced */
        s.exec_error_fd = fcntl(s.exec_error_fd, F_DUPFD_CLOEXEC, 3);
    child_lifeline(s.lifeline_fd, s.lifeline_target);
    child_close_others(s.lifeline_fd >= 0 ? s.lifeline_target : -1);
    osh_fdlimit_restore_in_child();
    osh_signals_restore_in_child();
    execve(s.path, s.argv, s.envp);
    child_report_exec_error(&s, errno);
    _exit(OSH_EXIT_NOEXEC);
}

pid_t osh_child_start(const struct osh_child_spec *spec)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        osh_msg("cannot start PE %d: fork: %s", spec->rank, strerror(errno));
        return -1;
    }
    if (pid == 0)
        child_main(spec, parent);
    /* The parent sets the group too, so that it is in place before oshrun could signal the
     * job, whichever process runs first. It fails harmlessly once the child has exec'd. */
    setpgid(pid, spec->pgid ? spec->pgid : pid);
    return pid;
}

void osh_children_signal(pid_t pgid, const pid_t *pids, const bool *running, int np, int sig)
{
    /* The group id stays valid while a PE (even a zombie one) is unreaped, so only a running
     * PE allows the group kill: never hit an unrelated group that reused the number. */
    bool any = false;
    for (int r = 0; r < np; r++) {
        if (running[r]) {
            any = true;
            kill(pids[r], sig);
        }
    }
    if (any && pgid > 0)
        kill(-pgid, sig);
}

void osh_children_sweep(pid_t pgid)
{
    /* Members keep the group id in use, so the number cannot belong to anyone else; with no
     * member left this fails with ESRCH. */
    if (pgid > 0)
        kill(-pgid, SIGKILL);
}
