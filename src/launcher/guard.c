/* guard.c: oshrun as three processes, so that nothing of a job outlives it, however it ends.
 *
 *   launcher  the process the user started (its pid is oshrun's pid to the shell, to kill,
 *             to the job's directory names): waits, passes signals sent to it alone on to the
 *             worker, and exits with the worker's status
 *   guard     its child, in a process group of its own and a child subreaper: makes the
 *             job's directories, starts the worker, and cleans up after it (janitor.c)
 *   worker    the guard's child, back in the launcher's process group (so the terminal's
 *             Ctrl-C and Ctrl-Z and a kill of the group reach it as they reached oshrun):
 *             the PMIx server and the parent of the PEs, everything oshrun.c describes
 *
 * Why three: only an ancestor adopts the processes whose parents die, and a process that
 * leaves the job's session (setsid) and drops its environment (env -i) can be found by
 * nothing else. The ancestor must also outlive `kill -9 -PGID` of oshrun's group, which ends
 * both the launcher and the worker: the guard, in a group of its own, sees the launcher's
 * pipe close and ends everything below it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guard.h"
#include "janitor.h"
#include "tmpdir.h"
#include "util.h"

enum { MSG_WORKER = 1, MSG_STATUS = 2 };

struct guard_msg {
    int kind;
    int value; /* the worker's pid, or its wait status */
};

static pid_t launcher_pid;
static pid_t launcher_group;

pid_t osh_guard_launcher(void) { return launcher_pid; }

/* ------------------------------------------------------------------ the launcher */

static volatile sig_atomic_t worker_pid;
static volatile sig_atomic_t pending_signal; /* came before the worker's pid */

/* A signal sent to the launcher alone (kill PID) must reach the job. One sent to the whole
 * group reaches the worker directly as well: the worker drops the second (signals.c). */
static void pass_on(int sig)
{
    if (worker_pid > 0)
        kill(worker_pid, sig);
    else
        pending_signal = sig;
}

static void install_pass_on(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_on;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    int passed[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) {
        struct sigaction old;
        /* An ignored SIGHUP (nohup) stays ignored, and the worker inherits that. SIGINT and
         * SIGTERM always end the job: a shell without job control starts background commands
         * with SIGINT ignored, and a kill -INT must still reach the job (as before the guard). */
        if (passed[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue;
        sigaction(passed[i], &sa, NULL);
    }
}

/* Exit as the worker did: with its status, or killed by its signal. */
__attribute__((noreturn)) static void exit_like(int wstatus)
{
    if (WIFEXITED(wstatus))
        exit(WEXITSTATUS(wstatus));
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        signal(sig, SIG_DFL);
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, sig);
        sigprocmask(SIG_UNBLOCK, &one, NULL);
        raise(sig);
        exit(128 + sig);
    }
    exit(OSH_EXIT_INTERNAL);
}

__attribute__((noreturn)) static void launcher_main(pid_t guard, int from_guard)
{
    install_pass_on();
    struct guard_msg m;
    for (;;) {
        ssize_t r = read(from_guard, &m, sizeof m);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != (ssize_t)sizeof m)
            break;
        if (m.kind == MSG_WORKER) {
            worker_pid = m.value;
            if (pending_signal)
                kill(worker_pid, pending_signal);
        } else if (m.kind == MSG_STATUS) {
            waitpid(guard, NULL, 0); /* gone before oshrun is: nothing of the job outlives it */
            exit_like(m.value);
        }
    }
    osh_msg("internal error: oshrun's guard process ended before the job");
    if (worker_pid > 0)
        kill(worker_pid, SIGKILL);
    waitpid(guard, NULL, 0);
    exit(OSH_EXIT_INTERNAL);
}

/* ------------------------------------------------------------------ the guard */

static void tell_launcher(int fd, int kind, int value)
{
    struct guard_msg m = { .kind = kind, .value = value };
    (void)osh_write_all(fd, &m, sizeof m);
}

/* Close every descriptor from 3 up but a and b (a < b): the guard holds nothing of the
 * user's (a pipe it held open would keep a reader of oshrun's output waiting). */
static void keep_only(int a, int b)
{
    if (a > 3)
        close_range(3, (unsigned)a - 1, 0);
    if (b > a + 1)
        close_range((unsigned)a + 1, (unsigned)b - 1, 0);
    close_range((unsigned)b + 1, ~0U, 0);
}

/* In the worker, right after its fork: back in the launcher's group, and gone with the guard
 * (then nobody would clean up after it). */
static int become_worker(pid_t guard, int alive_fd, int to_launcher)
{
    close(alive_fd);
    close(to_launcher);
    setpgid(0, launcher_group);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != guard)
        _exit(OSH_EXIT_INTERNAL);
    return 0;
}

/* Returns in the worker only. */
static int guard_main(int alive_fd, int to_launcher, struct osh_job_dirs *dirs)
{
    setpgid(0, 0);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        osh_msg("warning: cannot become the subreaper of the job (%s): processes the PEs "
                "start in a session of their own may outlive it", strerror(errno));
    dirs->tmpdir = osh_tmpdir_create(launcher_pid);
    dirs->shmdir = dirs->tmpdir ? osh_shmdir_create(launcher_pid) : NULL;
    pid_t guard = getpid(), worker = dirs->tmpdir ? fork() : -1;
    if (worker == 0)
        return become_worker(guard, alive_fd, to_launcher);
    if (worker < 0) {
        if (dirs->tmpdir)
            osh_msg("cannot start oshrun's worker process: fork: %s", strerror(errno));
        osh_tmpdir_remove(dirs->tmpdir);
        osh_tmpdir_remove(dirs->shmdir);
        tell_launcher(to_launcher, MSG_STATUS, OSH_EXIT_INTERNAL << 8);
        _exit(0);
    }
    setpgid(worker, launcher_group); /* also from here: in place whichever runs first */
    tell_launcher(to_launcher, MSG_WORKER, worker);
    keep_only(alive_fd < to_launcher ? alive_fd : to_launcher,
              alive_fd < to_launcher ? to_launcher : alive_fd);
    int status = osh_janitor_run(worker, alive_fd, dirs->tmpdir, dirs->shmdir);
    if (status != -1)
        tell_launcher(to_launcher, MSG_STATUS, status);
    _exit(0);
}

int osh_guard_split(struct osh_job_dirs *dirs)
{
    launcher_pid = getpid();
    launcher_group = getpgrp();
    int alive[2], status[2];
    if (pipe2(alive, O_CLOEXEC) != 0) {
        osh_msg("cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(status, O_CLOEXEC) != 0) {
        osh_msg("cannot create a pipe: %s", strerror(errno));
        close(alive[0]);
        close(alive[1]);
        return -1;
    }
    pid_t guard = fork();
    if (guard < 0) {
        osh_msg("cannot start oshrun's guard process: fork: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            close(alive[i]);
            close(status[i]);
        }
        return -1;
    }
    if (guard == 0) {
        close(alive[1]); /* only the launcher holds it: end of file when it is gone */
        close(status[0]);
        return guard_main(alive[0], status[1], dirs);
    }
    setpgid(guard, guard);
    close(alive[0]);
    close(status[1]);
    launcher_main(guard, status[0]);
}
