/* job.c: the main loop of oshrun and the policy for ending a job.
 *
 * One thread (the main one) decides everything. Events come from descriptors: the signalfd
 * (SIGCHLD, SIGINT, SIGTERM, SIGHUP), the abort pipe written by PMIx's thread, the pipe on which
 * children report a failed execve, the PEs' lifelines, their output pipes, libpmix's log and
 * the terminal; deadlines (timeout, settling a verdict, SIGTERM -> SIGKILL) become the poll
 * timeout. Nothing sleeps: a job that ends well costs no time here.
 *
 * Failures go to the verdict (verdict.c), which says which one came first; only then does the
 * job end, so the others' deaths cannot hide the cause. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
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
#include "lifeline.h"
#include "orphans.h"
#include "output.h"
#include "pmix_host.h"
#include "pmix_log.h"
#include "signals.h"
#include "util.h"
#include "verdict.h"

/* Between SIGTERM and SIGKILL: time for a PE to leave cleanly, short enough that a failed
 * job is over well within a second. */
#define KILL_GRACE_S 0.3
/* A process that survives SIGKILL this long is stuck in the kernel; oshrun stops waiting. */
#define GIVE_UP_AFTER_KILL_S 3.0
/* How long oshrun spends ending the processes the PEs left in sessions of their own. */
#define ORPHANS_END_S 1.0

static int abort_probe(void *ctx);

void osh_job_init(struct osh_job *j, const struct osh_options *opts, const char *path, int sigfd,
                  const char *tmpdir)
{
    memset(j, 0, sizeof *j);
    j->opts = opts;
    j->path = path;
    j->tmpdir = tmpdir;
    j->np = opts->np;
    j->sigfd = sigfd;
    j->pids = osh_xcalloc((size_t)j->np, sizeof *j->pids);
    j->running = osh_xcalloc((size_t)j->np, sizeof *j->running);
    j->exec_errno = osh_xcalloc((size_t)j->np, sizeof *j->exec_errno);
    j->exec_error[0] = j->exec_error[1] = -1;
    j->input.pe0_fd = j->input.others_fd = j->input.forward_w = -1;
    char *dir = osh_xmalloc(strlen(tmpdir) + sizeof "/lifelines");
    sprintf(dir, "%s/lifelines", tmpdir);
    j->lifelines = osh_lifelines_new(j->np, dir);
    free(dir);
    j->verdict = osh_verdict_new(j->np);
    osh_pmix_set_abort_probe(abort_probe, j);
}

void osh_job_free(struct osh_job *j)
{
    osh_pmix_set_abort_probe(NULL, NULL); /* before the lifelines go */
    osh_output_free(j->output);
    osh_lifelines_free(j->lifelines);
    osh_verdict_free(j->verdict);
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
    osh_pmix_log_hold(); /* ending PEs makes libpmix complain about their connections */
    signal_job(j, SIGTERM);
    signal_job(j, SIGCONT); /* stopped PEs (Ctrl-Z) must run to act on SIGTERM */
    j->kill_at = osh_now() + KILL_GRACE_S;
}

/* ------------------------------------------------------------------ reports */

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

static void report_failure(const struct osh_job *j, const struct osh_failure *f)
{
    const char *name;
    switch (f->kind) {
    case OSH_FAIL_EXIT:
        osh_msg("PE %d (pid %d) exited with status %d", f->rank, (int)f->pid, f->code);
        break;
    case OSH_FAIL_SIGNAL:
        name = strsignal(f->code);
        osh_msg("PE %d (pid %d) was killed by signal %d (%s)", f->rank, (int)f->pid, f->code,
                name ? name : "unknown");
        break;
    case OSH_FAIL_EXEC:
        osh_msg("PE %d (pid %d) could not start '%s': %s", f->rank, (int)f->pid, j->path,
                strerror(f->code));
        break;
    case OSH_FAIL_NO_FINALIZE:
        osh_msg("PE %d (pid %d) exited (status 0) without calling shmem_finalize; call "
                "shmem_finalize() before returning from main", f->rank, (int)f->pid);
        break;
    case OSH_FAIL_ABORT:
        /* shmem_global_exit(0) is a normal way to end a job: nothing to say. */
        if (f->code != 0 && f->msg[0])
            osh_msg("PE %d called abort with status %d: %s", f->rank, f->code, f->msg);
        break;
    }
}

/* Once the verdict knows the first failure, report it and end the job with its status. */
static void check_verdict(struct osh_job *j, double now)
{
    struct osh_failure f;
    if (j->ending || !osh_verdict_ready(j->verdict, now, &f))
        return;
    report_failure(j, &f);
    osh_job_end(j, osh_failure_status(&f));
}

/* ------------------------------------------------------------------ events */

static void lifeline_closed(struct osh_job *j, int rank)
{
    osh_pmix_log_hold();
    if (!j->ending)
        osh_verdict_lifeline_closed(j->verdict, rank);
}

/* Hand the lifelines that closed to the verdict, in closing order, up to the index `until`. */
static void absorb_lifelines(struct osh_job *j, int until)
{
    int rank, index;
    while (until > j->lifelines_seen && osh_lifelines_next(j->lifelines, &rank, &index)) {
        j->lifelines_seen = index;
        lifeline_closed(j, rank);
    }
}

/* In PMIx's thread, when an abort arrives: how many PEs had ended by then. */
static int abort_probe(void *ctx)
{
    struct osh_job *j = ctx;
    return osh_lifelines_position(j->lifelines);
}

/* A PE called PMIx_Abort (shmem_global_exit). The PEs that had ended when the abort came
 * died before it, even if the main loop has not seen them yet: they go first. */
static void absorb_abort(struct osh_job *j)
{
    struct osh_abort a;
    if (!osh_pmix_take_abort(&a) || j->ending)
        return;
    absorb_lifelines(j, a.position);
    osh_verdict_aborted(j->verdict, a.rank, a.status, a.msg, osh_now());
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

static int rank_of(const struct osh_job *j, pid_t pid)
{
    for (int r = 0; r < j->np; r++)
        if (j->pids[r] == pid && j->running[r])
            return r;
    return -1; /* an orphan oshrun adopted, or nothing of ours */
}

static void pe_exited(struct osh_job *j, pid_t pid, int wstatus)
{
    int rank = rank_of(j, pid);
    if (rank < 0)
        return;
    j->running[rank] = false;
    j->nrunning--;
    osh_pmix_log_hold();
    if (rank == 0)
        osh_input_stop(&j->input);
    if (j->ending) /* once ending, deaths are oshrun's own doing */
        return;
    /* Exiting with 0 is success only for a PE that left the job properly (or never joined:
     * oshrun also runs programs that are not OpenSHMEM ones). */
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && osh_pmix_left_unfinalized(rank) &&
        !osh_lifeline_marked(j->lifelines, rank))
        osh_verdict_unfinalized(j->verdict, rank, pid, osh_now());
    else
        osh_verdict_exited(j->verdict, rank, pid, wstatus, j->exec_errno[rank], osh_now());
}

static void reap(struct osh_job *j)
{
    /* An aborting PE exits only after its abort is recorded, a PE's lifeline closes before it
     * can be reaped, and a failed execve is reported before the child exits: take these
     * first, so that the exits are understood. */
    absorb_abort(j);
    absorb_lifelines(j, INT_MAX);
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

/* Ctrl-Z stops only oshrun's process group, not the PEs' own: stop them, then oshrun. After
 * fg or bg, oshrun gets SIGCONT and lets them continue. */
static void suspended(struct osh_job *j)
{
    signal_job(j, SIGSTOP);
    osh_signals_stop_self();
}

static void handle_signals(struct osh_job *j)
{
    int sig;
    while ((sig = osh_signals_next(j->sigfd)) != 0) {
        if (sig == SIGCHLD)
            reap(j);
        else if (sig == SIGTSTP)
            suspended(j);
        else if (sig == SIGCONT)
            signal_job(j, SIGCONT);
        else
            interrupted(j, sig);
    }
}

/* ------------------------------------------------------------------ deadlines */

static void check_deadlines(struct osh_job *j, double now)
{
    check_verdict(j, now);
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
    double candidates[] = { j->ending ? 0 : j->timeout_at, j->ending ? 0
                            : osh_verdict_deadline(j->verdict), j->kill_at, j->give_up_at };
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (candidates[i] > 0 && (next == 0 || candidates[i] < next))
            next = candidates[i];
    if (next == 0)
        return -1;
    double ms = (next - now) * 1000.0;
    return ms <= 0 ? 0 : (int)ms + 1;
}

/* ------------------------------------------------------------------ the loop */

enum { P_SIGNAL, P_ABORT, P_LIFELINES, P_EXEC_ERROR, P_INPUT, P_PMIX_LOG, P_FIXED };

static size_t fill_pollfds(struct osh_job *j, struct pollfd *pfds, bool essentials_only)
{
    int fixed[P_FIXED] = { j->sigfd, osh_pmix_abort_fd(), osh_lifelines_fd(j->lifelines),
                           j->exec_error[0], osh_input_pollfd(&j->input), osh_pmix_log_fd() };
    for (int i = 0; i < P_FIXED; i++) /* a negative fd is skipped by poll */
        pfds[i] = (struct pollfd){ .fd = fixed[i], .events = POLLIN };
    size_t nout = j->output && !essentials_only ? osh_output_pollfds(j->output, pfds + P_FIXED)
                                                : 0;
    return P_FIXED + nout;
}

/* Handle what poll reported, causes before effects: aborts (which place the deaths before
 * them themselves), lifelines (deaths), then exits. */
static void dispatch(struct osh_job *j, const struct pollfd *pfds, size_t n)
{
    if (pfds[P_ABORT].revents)
        absorb_abort(j);
    if (pfds[P_LIFELINES].revents)
        absorb_lifelines(j, INT_MAX);
    if (pfds[P_EXEC_ERROR].revents)
        absorb_exec_errors(j);
    if (pfds[P_SIGNAL].revents)
        handle_signals(j);
    if (pfds[P_PMIX_LOG].revents)
        osh_pmix_log_forward();
    if (n > P_FIXED)
        osh_output_handle(j->output, pfds + P_FIXED, n - P_FIXED);
    if (pfds[P_INPUT].revents && osh_input_pollfd(&j->input) >= 0)
        osh_input_forward(&j->input);
}

static void poll_once(struct osh_job *j, struct pollfd *pfds)
{
    static bool poll_failed;
    size_t n = fill_pollfds(j, pfds, poll_failed);
    int ready = poll(pfds, n, poll_timeout_ms(j, osh_now()));
    if (ready < 0 && errno != EINTR && !poll_failed) {
        /* E.g. too many descriptors for the limit: end the job, and watch only what is
         * needed for that (the PEs' output is lost). */
        osh_msg("poll: %s; ending the job", strerror(errno));
        poll_failed = true;
        osh_job_end(j, OSH_EXIT_INTERNAL);
    } else if (ready > 0) {
        dispatch(j, pfds, n);
    }
}

int osh_job_wait(struct osh_job *j)
{
    struct pollfd *pfds = osh_xcalloc(P_FIXED + 2 * (size_t)j->np, sizeof *pfds);
    /* Events that came during the launch are waiting in the descriptors already. */
    while (j->nrunning > 0) {
        poll_once(j, pfds);
        double now = osh_now();
        check_deadlines(j, now);
        if (gave_up(j, now))
            break;
    }
    free(pfds);
    osh_children_sweep(j->pgid);
    /* Then what left the group (setsid) and was adopted by oshrun: before the output ends,
     * since such a process may hold a PE's output pipe open. */
    osh_orphans_end(ORPHANS_END_S);
    absorb_abort(j); /* e.g. shmem_global_exit by the last PE */
    /* The loop is over: decide with what is known, without waiting to settle. */
    check_verdict(j, osh_now() + OSH_VERDICT_SETTLE_S);
    if (j->output)
        osh_output_finish(j->output);
    return j->exit_status;
}
