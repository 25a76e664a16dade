/* verdict.h: which failure of a job came first, and so decides oshrun's exit status. */
#ifndef OSHRUN_VERDICT_H
#define OSHRUN_VERDICT_H
#include <stdbool.h>
#include <sys/types.h>

/* How long a verdict waits for PEs known to be exiting before an observed failure. */
#define OSH_VERDICT_SETTLE_S 0.2

enum osh_failure_kind {
    OSH_FAIL_EXIT,    /* exited with a non-zero status */
    OSH_FAIL_SIGNAL,  /* killed by a signal */
    OSH_FAIL_EXEC,    /* could not execve the program */
    OSH_FAIL_ABORT,   /* called PMIx_Abort (shmem_global_exit), any status */
    OSH_FAIL_NO_FINALIZE, /* joined the job, exited with 0 without shmem_finalize */
};

struct osh_failure {
    enum osh_failure_kind kind;
    int rank;
    pid_t pid;
    int code;          /* exit status, signal number, errno or abort status */
    char msg[512];     /* abort message, may be empty */
};

struct osh_verdict;

struct osh_verdict *osh_verdict_new(int np);
void osh_verdict_free(struct osh_verdict *v);

/* Observations, in the order the main loop makes them. */
void osh_verdict_lifeline_closed(struct osh_verdict *v, int rank);
void osh_verdict_exited(struct osh_verdict *v, int rank, pid_t pid, int wstatus, int exec_errno,
                        double now);
/* PE rank exited with status 0 but had joined the job and neither finalized nor aborted: its
 * peers may wait for it forever, so it is a failure (status 1), like a non-zero exit. */
void osh_verdict_unfinalized(struct osh_verdict *v, int rank, pid_t pid, double now);
void osh_verdict_aborted(struct osh_verdict *v, int rank, int status, const char *msg,
                         double now);

/* True when a failure is known and no PE that may have failed before it is still exiting
 * (or the settle time is over): *out is then the first failure. */
bool osh_verdict_ready(const struct osh_verdict *v, double now, struct osh_failure *out);

/* When osh_verdict_ready should be asked again (0: no failure pending). */
double osh_verdict_deadline(const struct osh_verdict *v);

/* oshrun's exit status for a failure (128+n for signal n; aborts keep 8 bits, never 0 when
 * the status was not 0; 1 for a PE that did not finalize). */
int osh_failure_status(const struct osh_failure *f);

#endif
