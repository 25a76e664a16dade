/* verdict.c: which failure of a job came first.
 *
 * When one PE dies, its PMIx connection closes and the peers waiting in a collective fail
 * right after it: they exit or call PMIx_Abort themselves. On a loaded host these consequences
 * can become visible to oshrun (reaped, or their abort received) before the PE that caused them
 * is reaped: the kernel closes a dying process's files early in its exit, but its parent can
 * reap it only when its last thread is gone. Reaping order is therefore not causal order.
 *
 * The order in which the PEs' lifelines close is (lifeline.c): the kernel releases a dying
 * PE's lifeline just before its PMIx socket, before anything can react to the death. So every
 * failure is ranked by when its PE's lifeline closed (or, without one, when it was observed),
 * and an observed failure is not final while a PE whose lifeline closed earlier is still being
 * reaped: that PE may be the real cause. The wait is bounded by OSH_VERDICT_SETTLE_S. Pure
 * logic: no system calls here. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "util.h"
#include "verdict.h"

struct osh_verdict {
    int np;
    unsigned long clock;        /* observation counter: the causal order */
    unsigned long *closed_at;   /* per PE: when its lifeline closed, 0 if not yet */
    bool *reaped;
    bool have_best;
    unsigned long best_at;
    struct osh_failure best;
    double first_seen;          /* when the first failure was observed */
};

struct osh_verdict *osh_verdict_new(int np)
{
    struct osh_verdict *v = osh_xcalloc(1, sizeof *v);
    v->np = np;
    v->closed_at = osh_xcalloc((size_t)np, sizeof *v->closed_at);
    v->reaped = osh_xcalloc((size_t)np, sizeof *v->reaped);
    return v;
}

void osh_verdict_free(struct osh_verdict *v)
{
    if (!v)
        return;
    free(v->closed_at);
    free(v->reaped);
    free(v);
}

void osh_verdict_lifeline_closed(struct osh_verdict *v, int rank)
{
    if (v->closed_at[rank] == 0)
        v->closed_at[rank] = ++v->clock;
}

/* Keep f if it happened before the best failure so far. */
static void consider(struct osh_verdict *v, const struct osh_failure *f, unsigned long at,
                     double now)
{
    if (!v->have_best)
        v->first_seen = now;
    if (!v->have_best || at < v->best_at) {
        v->have_best = true;
        v->best_at = at;
        v->best = *f;
    }
}

void osh_verdict_exited(struct osh_verdict *v, int rank, pid_t pid, int wstatus, int exec_errno,
                        double now)
{
    v->reaped[rank] = true;
    /* Without a lifeline close (another process kept it open), the reap is the first sign. */
    unsigned long at = v->closed_at[rank] ? v->closed_at[rank] : ++v->clock;
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
        return;
    /* A PE that called abort exits afterwards because of it: the abort explains its exit. */
    if (v->have_best && v->best.kind == OSH_FAIL_ABORT && v->best.rank == rank)
        return;
    struct osh_failure f = { .rank = rank, .pid = pid };
    if (WIFEXITED(wstatus) && exec_errno) {
        f.kind = OSH_FAIL_EXEC;
        f.code = exec_errno;
    } else if (WIFEXITED(wstatus)) {
        f.kind = OSH_FAIL_EXIT;
        f.code = WEXITSTATUS(wstatus);
    } else {
        f.kind = OSH_FAIL_SIGNAL;
        f.code = WTERMSIG(wstatus);
    }
    consider(v, &f, at, now);
}

void osh_verdict_unfinalized(struct osh_verdict *v, int rank, pid_t pid, double now)
{
    v->reaped[rank] = true;
    unsigned long at = v->closed_at[rank] ? v->closed_at[rank] : ++v->clock;
    struct osh_failure f = { .kind = OSH_FAIL_NO_FINALIZE, .rank = rank, .pid = pid };
    consider(v, &f, at, now);
}

void osh_verdict_aborted(struct osh_verdict *v, int rank, int status, const char *msg,
                         double now)
{
    struct osh_failure f = { .kind = OSH_FAIL_ABORT, .rank = rank, .code = status };
    snprintf(f.msg, sizeof f.msg, "%s", msg ? msg : "");
    /* The aborting PE is alive until oshrun answers; its own lifeline closes later. */
    unsigned long at = ++v->clock;
    if (v->have_best && v->best.rank == rank && v->best.kind != OSH_FAIL_ABORT) {
        v->best = f; /* its exit was already seen (it did not wait for the answer) */
        return;
    }
    consider(v, &f, at, now);
}

/* A PE whose lifeline closed before the best failure but that is not reaped yet may be the
 * real first failure. */
static bool earlier_pe_pending(const struct osh_verdict *v)
{
    for (int r = 0; r < v->np; r++)
        if (!v->reaped[r] && v->closed_at[r] != 0 && v->closed_at[r] < v->best_at)
            return true;
    return false;
}

bool osh_verdict_ready(const struct osh_verdict *v, double now, struct osh_failure *out)
{
    if (!v->have_best)
        return false;
    if (earlier_pe_pending(v) && now < v->first_seen + OSH_VERDICT_SETTLE_S)
        return false;
    *out = v->best;
    return true;
}

double osh_verdict_deadline(const struct osh_verdict *v)
{
    return v->have_best ? v->first_seen + OSH_VERDICT_SETTLE_S : 0;
}

int osh_failure_status(const struct osh_failure *f)
{
    switch (f->kind) {
    case OSH_FAIL_SIGNAL:
        return 128 + f->code;
    case OSH_FAIL_EXEC:
        return OSH_EXIT_NOEXEC;
    case OSH_FAIL_NO_FINALIZE:
        return 1;
    case OSH_FAIL_ABORT: {
        /* exit() keeps 8 bits: a status that is a multiple of 256 must not become success. */
        int s = f->code & 0xff;
        return (s == 0 && f->code != 0) ? 1 : s;
    }
    case OSH_FAIL_EXIT:
    default:
        return f->code;
    }
}
