/* job.c: the main loop of oshrun and the policy for ending a job.
 *
 * One thread (the main one) decides everything. Events come from descriptors: the signalfd
 * (SIGCHLD, SIGINT, SIGTERM, SIGHUP), the abort pipe written by PMIx's thread, the pipe on which
 * children report a failed execve, the PEs' output pipes and the terminal; deadlines (timeout,
 * SIGTERM -> SIGKILL) become the poll timeout. No sleeping anywhere: a job that ends well
 * costs no time here. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "binding.h"
#include "children.h"
#include "job.h"
#include "output.h"
#include "pmix_host.h"
#include "signals.h"
#include "util.h"

/* Between SIGTERM and SIGKILL: time for a PE to leave cleanly, short enough that a failed
 * job is over within well under a second. */
#define KILL_GRACE_S 0.3
/* A process that survives SIGKILL this long is stuck in the kernel; oshrun stops waiting. */
#define GIVE_UP_AFTER_KILL_S 3.0

void osh_job_init(struct osh_job *j, const struct osh_options *opts, const char *path, int sigfd)
{
    memset(j, 0, sizeof *j);
    j->opts = opts;
    j->path = path;
    j->np = opts->np;
    j->sigfd = sigfd;
    j->pids = osh_xcalloc((size_t)j->np, sizeof *j->pids);
    j->running = osh_xcalloc((size_t)j->np, sizeof *j->running);
    j->exec_errno = osh_xcalloc((size_t)j->np, sizeof *j->exec_errno);
    j->exec_error[0] = j->exec_error[1] = -1;
    j->input.pe0_fd = j->input.others_fd = j->input.forward_w = -1;
}

void osh_job_free(struct osh_job *j)
{
    osh_output_free(j->output);
    osh_input_close(&j->input);
    osh_binding_free(j->binding);
    for (int i = 0; i < 2; i++)
        if (j->exec_error[i] >= 0)
            close(j->exec_error[i]);
    free(j->pids);
    free(j->running);
    free(j->exec_errno);
}

static void signal_job(struct osh_job *j, int sig)
{
    osh_children_signal(j->pgid, j->pids, j->running, j->np, sig);
}

void osh_job_end(struct osh_job *j, int status)
{
    if (j->ending)
        return;
    j->ending = true;
    j->exit_status = status;
    signal_job(j, SIGTERM);
    j->kill_at = osh_now() + KILL_GRACE_S;
}

/* ------------------------------------------------------------------ events */

/* "0 2 3", with runs of three or more as "4-9", of the PEs not yet reaped. */
static void running_list(const struct osh_job *j, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int r = 0; r < j->np && len + 24 < size; r++) {
        if (!j->running[r])
            continue;
        int last = r;
        while (last + 1 < j->np && j->running[last + 1])
            last++;
        const char *sep = len ? " " : "";
        if (last - r >= 2) {
            len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", sep, r, last);
            r = last;
        } else {
            len += (size_t)snprintf(buf + len, size - len, "%s%d", sep, r);
        }
    }
}

/* A PE called PMIx_Abort (shmem_global_exit): its status becomes the job's. */
static void absorb_abort(struct osh_job *j)
{
    struct osh_abort a;
    if (!osh_pmix_take_abort(&a) || j->ending)
        return;
    if (a.status != 0 && a.msg[0])
        osh_msg("PE %d called abort with status %d: %s", a.rank, a.status, a.msg);
    /* exit() keeps 8 bits: a status that is a multiple of 256 must not turn into success. */
    int status = a.status & 0xff;
    if (status == 0 && a.status != 0)
        status = 1;
    osh_job_end(j, status);
}

static void absorb_exec_errors(struct osh_job *j)
{
    struct osh_exec_error e;
    while (j->exec_error[0] >= 0) {
        ssize_t r = read(j->exec_error[0], &e, sizeof e);
        if (r == (ssize_t)sizeof e && e.rank >= 0 && e.rank < j->np) {
            j->exec_errno[e.rank] = e.err;
            continue;
        }
        if (r == 0) { /* every child has exec'd or exited: nothing more can come */
            close(j->exec_error[0]);
            j->exec_error[0] = -1;
        }
        break;
    }
}

/* The first PE to fail decides the exit status and ends the others. */
static void report_failure(struct osh_job *j, int rank, pid_t pid, int wstatus)
{
    if (WIFEXITED(wstatus) && j->exec_errno[rank]) {
        osh_msg("PE %d (pid %d) could not start '%s': %s", rank, (int)pid, j->path,
                strerror(j->exec_errno[rank]));
        osh_job_end(j, OSH_EXIT_NOEXEC);
    } else if (WIFEXITED(wstatus)) {
        osh_msg("PE %d (pid %d) exited with status %d", rank, (int)pid, WEXITSTATUS(wstatus));
        osh_job_end(j, WEXITSTATUS(wstatus));
    } else {
        int sig = WTERMSIG(wstatus);
        const char *name = strsignal(sig);
        osh_msg("PE %d (pid %d) was killed by signal %d (%s)", rank, (int)pid, sig,
                name ? name : "unknown");
        osh_job_end(j, 128 + sig);
    }
}

static int rank_of(const struct osh_job *j, pid_t pid)
{
    for (int r = 0; r < j->np; r++)
        if (j->pids[r] == pid && j->running[r])
            return r;
    return -1; /* the janitor, or nothing of ours */
}

static void pe_exited(struct osh_job *j, pid_t pid, int wstatus)
{
    int rank = rank_of(j, pid);
    if (rank < 0)
        return;
    j->running[rank] = false;
    j->nrunning--;
    if (rank == 0)
        osh_input_stop(&j->input);
    bool success = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
    if (!success && !j->ending) /* once ending, deaths are oshrun's own doing */
        report_failure(j, rank, pid, wstatus);
}

static void reap(struct osh_job *j)
{
    /* An aborting PE is told to go on only after the abort is recorded: look at the abort
     * first, so that its exit is not mistaken for a failure of its own. */
    absorb_abort(j);
    absorb_exec_errors(j);
    int wstatus;
    pid_t pid;
    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0)
        pe_exited(j, pid, wstatus);
}

/* Ctrl-C, kill, hang-up: end the job; a second one does not wait for the grace period. */
static void interrupted(struct osh_job *j, int sig)
{
    if (!j->ending) {
        osh_msg("received SIG%s; ending the job", sigabbrev_np(sig));
        osh_job_end(j, 128 + sig);
    } else if (j->kill_at > 0) {
        j->kill_at = osh_now();
    }
}

static void handle_signals(struct osh_job *j)
{
    int sig;
    while ((sig = osh_signals_next(j->sigfd)) != 0) {
        if (sig == SIGCHLD)
            reap(j);
        else
            interrupted(j, sig);
    }
}

/* ------------------------------------------------------------------ deadlines */

static void check_deadlines(struct osh_job *j, double now)
{
    if (!j->ending && j->timeout_at > 0 && now >= j->timeout_at) {
        char list[1024];
        running_list(j, list, sizeof list);
        osh_msg("job timed out after %g s; PEs still running: %s", j->opts->timeout, list);
        osh_job_end(j, OSH_EXIT_TIMEOUT);
    }
    if (j->kill_at > 0 && now >= j->kill_at) {
        signal_job(j, SIGKILL);
        j->kill_at = 0;
        j->give_up_at = now + GIVE_UP_AFTER_KILL_S;
    }
}

static bool gave_up(const struct osh_job *j, double now)
{
    if (j->give_up_at == 0 || now < j->give_up_at)
        return false;
    char list[1024];
    running_list(j, list, sizeof list);
    osh_msg("PEs %s did not end after SIGKILL; leaving them", list);
    return true;
}

/* Milliseconds until the next deadline, or -1 when there is none. */
static int poll_timeout_ms(const struct osh_job *j, double now)
{
    double next = 0;
    double candidates[] = { j->ending ? 0 : j->timeout_at, j->kill_at, j->give_up_at };
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (candidates[i] > 0 && (next == 0 || candidates[i] < next))
            next = candidates[i];
    if (next == 0)
        return -1;
    double ms = (next - now) * 1000.0;
    return ms <= 0 ? 0 : (int)ms + 1;
}

/* ------------------------------------------------------------------ the loop */

enum { P_SIGNAL, P_ABORT, P_EXEC_ERROR, P_INPUT, P_FIXED };

static void poll_once(struct osh_job *j, struct pollfd *pfds)
{
    int fixed[P_FIXED] = { j->sigfd, osh_pmix_abort_fd(), j->exec_error[0],
                           osh_input_pollfd(&j->input) };
    for (int i = 0; i < P_FIXED; i++) /* a negative fd is skipped by poll */
        pfds[i] = (struct pollfd){ .fd = fixed[i], .events = POLLIN };
    size_t nout = j->output ? osh_output_pollfds(j->output, pfds + P_FIXED) : 0;
    int n = poll(pfds, P_FIXED + nout, poll_timeout_ms(j, osh_now()));
    if (n < 0 && errno != EINTR) {
        osh_msg("poll: %s", strerror(errno));
        osh_job_end(j, OSH_EXIT_INTERNAL);
        return;
    }
    if (n <= 0)
        return;
    if (pfds[P_ABORT].revents)
        absorb_abort(j);
    if (pfds[P_EXEC_ERROR].revents)
        absorb_exec_errors(j);
    if (pfds[P_SIGNAL].revents)
        handle_signals(j);
    if (nout)
        osh_output_handle(j->output, pfds + P_FIXED, nout);
    if (pfds[P_INPUT].revents && osh_input_pollfd(&j->input) >= 0)
        osh_input_forward(&j->input);
}

int osh_job_wait(struct osh_job *j)
{
    struct pollfd *pfds = osh_xcalloc(P_FIXED + 2 * (size_t)j->np, sizeof *pfds);
    /* Events that came before the loop (during the launch) are in the descriptors already. */
    while (j->nrunning > 0) {
        poll_once(j, pfds);
        double now = osh_now();
        check_deadlines(j, now);
        if (gave_up(j, now))
            break;
    }
    free(pfds);
    absorb_abort(j); /* global_exit(0) by the last PE: no failure, status stays 0 */
    if (j->output)
        osh_output_finish(j->output);
    return j->exit_status;
}
