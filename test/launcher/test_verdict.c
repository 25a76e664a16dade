/* test_verdict.c: the rules that decide which failure of a job came first (src/launcher/verdict.c).
 * Pure logic, no processes: each case feeds observations in a given order and checks the verdict.
 * Output: TAP. Built and run by run-launcher-tests.sh when the sources are next to it, or by hand:
 *   cc -Isrc/launcher test/launcher/test_verdict.c src/launcher/verdict.c src/launcher/util.c */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "verdict.h"

static int ntests, nfailed;

static void check(int cond, const char *what)
{
    ntests++;
    if (!cond)
        nfailed++;
    printf("%sok %d - verdict: %s\n", cond ? "" : "not ", ntests, what);
}

static int exited(int code) { return (code & 0xff) << 8; } /* a wstatus for exit(code) */
static int killed(int sig) { return sig; }                  /* a wstatus for death by sig */

/* The first failure reaped is the cause when nothing else happened. */
static void single_failure(void)
{
    struct osh_verdict *v = osh_verdict_new(4);
    struct osh_failure f;
    check(!osh_verdict_ready(v, 0, &f), "no failure, no verdict");
    osh_verdict_lifeline_closed(v, 2);
    osh_verdict_exited(v, 2, 102, exited(0), 0, 1.0);
    check(!osh_verdict_ready(v, 1.0, &f), "a PE exiting with 0 is no failure");
    osh_verdict_lifeline_closed(v, 1);
    osh_verdict_exited(v, 1, 101, exited(3), 0, 1.0);
    check(osh_verdict_ready(v, 1.0, &f) && f.rank == 1 && f.kind == OSH_FAIL_EXIT && f.code == 3,
          "one PE exits with 3: that is the verdict, at once");
    check(osh_failure_status(&f) == 3, "exit status 3");
    osh_verdict_free(v);
}

/* PE 1 died first (its lifeline closed first) but PE 0, whose fence failed because of it, is
 * reaped first: the verdict waits for PE 1 and names it. */
static void cause_reaped_after_consequence(void)
{
    struct osh_verdict *v = osh_verdict_new(4);
    struct osh_failure f;
    osh_verdict_lifeline_closed(v, 1);
    osh_verdict_lifeline_closed(v, 0);
    osh_verdict_exited(v, 0, 100, exited(12), 0, 5.0);
    check(!osh_verdict_ready(v, 5.01, &f), "a consequence reaped first: wait for the cause");
    check(osh_verdict_deadline(v) > 5.0, "... with a deadline");
    osh_verdict_exited(v, 1, 101, killed(SIGSEGV), 0, 5.02);
    check(osh_verdict_ready(v, 5.02, &f) && f.rank == 1 && f.kind == OSH_FAIL_SIGNAL &&
              f.code == SIGSEGV, "... then the cause is the verdict");
    check(osh_failure_status(&f) == 128 + SIGSEGV, "death by SIGSEGV: status 139");
    osh_verdict_free(v);
}

/* A PE whose lifeline closed earlier but that is never reaped (it closed the descriptor and
 * lives on) does not hold the verdict back forever. */
static void settle_time_is_bounded(void)
{
    struct osh_verdict *v = osh_verdict_new(3);
    struct osh_failure f;
    osh_verdict_lifeline_closed(v, 0);
    osh_verdict_lifeline_closed(v, 2);
    osh_verdict_exited(v, 2, 102, exited(4), 0, 10.0);
    check(!osh_verdict_ready(v, 10.0 + OSH_VERDICT_SETTLE_S / 2, &f), "within the settle time: wait");
    check(osh_verdict_ready(v, 10.0 + OSH_VERDICT_SETTLE_S, &f) && f.rank == 2,
          "after the settle time: the failure known");
    osh_verdict_free(v);
}

/* An abort before any death is the cause; the aborting PE's own exit afterwards changes
 * nothing, nor do the others' failures. */
static void abort_first(void)
{
    struct osh_verdict *v = osh_verdict_new(4);
    struct osh_failure f;
    osh_verdict_aborted(v, 3, 5, "bye", 1.0);
    osh_verdict_lifeline_closed(v, 3);
    osh_verdict_lifeline_closed(v, 0);
    osh_verdict_exited(v, 0, 100, exited(1), 0, 1.0);
    osh_verdict_exited(v, 3, 103, exited(5), 0, 1.0);
    check(osh_verdict_ready(v, 1.0, &f) && f.kind == OSH_FAIL_ABORT && f.rank == 3 &&
              f.code == 5 && strcmp(f.msg, "bye") == 0, "an abort before any death is the cause");
    osh_verdict_free(v);
}

/* A PE crashes; another PE's fence fails and it aborts (a fatal error in the library): the
 * crash is the cause, even though the abort is seen before the crash is reaped. */
static void abort_as_consequence(void)
{
    struct osh_verdict *v = osh_verdict_new(4);
    struct osh_failure f;
    osh_verdict_lifeline_closed(v, 2); /* the probe saw it when the abort came */
    osh_verdict_aborted(v, 0, 1, "fatal error (see the message above)", 1.0);
    check(!osh_verdict_ready(v, 1.0, &f), "an abort after a death: wait for that PE");
    osh_verdict_exited(v, 2, 102, killed(SIGBUS), 0, 1.01);
    check(osh_verdict_ready(v, 1.01, &f) && f.rank == 2 && f.kind == OSH_FAIL_SIGNAL,
          "... the crash is the cause");
    osh_verdict_free(v);
}

/* A PE that ended with 0 before an abort does not take the blame. */
static void clean_exit_before_abort(void)
{
    struct osh_verdict *v = osh_verdict_new(2);
    struct osh_failure f;
    osh_verdict_lifeline_closed(v, 1);
    osh_verdict_aborted(v, 0, 7, "", 2.0);
    osh_verdict_exited(v, 1, 101, exited(0), 0, 2.0);
    check(osh_verdict_ready(v, 2.0, &f) && f.kind == OSH_FAIL_ABORT && f.code == 7,
          "a PE that ended well before an abort is not the cause");
    osh_verdict_free(v);
}

/* A PE that exited with 0 without finalizing is a failure (status 1), ranked like the others. */
static void exit_without_finalize(void)
{
    struct osh_verdict *v = osh_verdict_new(3);
    struct osh_failure f;
    osh_verdict_lifeline_closed(v, 2);
    osh_verdict_lifeline_closed(v, 0);
    osh_verdict_exited(v, 0, 100, exited(1), 0, 3.0);
    check(!osh_verdict_ready(v, 3.0, &f), "a failure waits for a PE that ended before it");
    osh_verdict_unfinalized(v, 2, 102, 3.01);
    check(osh_verdict_ready(v, 3.01, &f) && f.kind == OSH_FAIL_NO_FINALIZE && f.rank == 2 &&
          osh_failure_status(&f) == 1,
          "a PE that exited with 0 without finalizing first is the cause, status 1");
    osh_verdict_free(v);
}

/* shmem_global_exit(0): a verdict with status 0; statuses keep 8 bits but never turn into 0. */
static void abort_statuses(void)
{
    struct osh_failure f = { .kind = OSH_FAIL_ABORT, .code = 0 };
    check(osh_failure_status(&f) == 0, "abort with 0: status 0");
    f.code = 256;
    check(osh_failure_status(&f) == 1, "abort with 256: status 1, not 0");
    f.code = 300;
    check(osh_failure_status(&f) == 44, "abort with 300: status 44");
    f.kind = OSH_FAIL_EXEC;
    check(osh_failure_status(&f) == 126, "a failed execve: status 126");
}

/* A failed execve is reported as such. */
static void exec_failure(void)
{
    struct osh_verdict *v = osh_verdict_new(1);
    struct osh_failure f;
    osh_verdict_exited(v, 0, 100, exited(126), 8 /* ENOEXEC */, 0.0);
    check(osh_verdict_ready(v, 0.0, &f) && f.kind == OSH_FAIL_EXEC && f.code == 8,
          "a failed execve is reported with its errno");
    osh_verdict_free(v);
}

int main(void)
{
    single_failure();
    cause_reaped_after_consequence();
    settle_time_is_bounded();
    abort_first();
    abort_as_consequence();
    clean_exit_before_abort();
    abort_statuses();
    exec_failure();
    exit_without_finalize();
    printf("1..%d\n", ntests);
    return nfailed != 0;
}
