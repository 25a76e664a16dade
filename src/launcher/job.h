/* job.h: one run of N PEs, from launch to the exit status of oshrun. */
#ifndef OSHRUN_JOB_H
#define OSHRUN_JOB_H
#include <stdbool.h>
#include <sys/types.h>

#include "input.h"
#include "options.h"

struct osh_output;
struct osh_binding;
struct osh_lifelines;
struct osh_verdict;

struct osh_job {
    /* what runs */
    const struct osh_options *opts;
    const char *path;            /* resolved program */
    const char *tmpdir;          /* the job's directory (the PMIx server's) */
    int np;
    /* the PEs, indexed by rank */
    pid_t *pids;
    bool *running;               /* started and not yet reaped */
    int *exec_errno;             /* errno of a failed execve, 0 if none */
    int nrunning;
    pid_t pgid;                  /* the PEs' process group (PE 0's pid) */
    /* event sources of the main loop */
    int sigfd;
    int exec_error[2];           /* pipe on which children report a failed execve */
    struct osh_lifelines *lifelines; /* NULL when the kernel cannot provide them */
    int lifelines_seen;          /* closing index of the last lifeline handed to the verdict */
    struct osh_output *output;   /* NULL without --tag-output */
    struct osh_input input;
    struct osh_binding *binding; /* NULL when the PEs are not bound */
    /* the end */
    struct osh_verdict *verdict; /* which failure came first */
    bool ending;                 /* the PEs are being ended; the status is decided */
    int exit_status;
    double timeout_at;           /* --timeout deadline, 0 if none */
    double kill_at;              /* when SIGTERM turns into SIGKILL, 0 if not pending */
    double give_up_at;           /* when to stop waiting for PEs that ignore SIGKILL */
};

/* tmpdir: the PMIx server's directory, where the lifelines go too. */
void osh_job_init(struct osh_job *j, const struct osh_options *opts, const char *path, int sigfd,
                  const char *tmpdir);

/* Start all PEs (launch.c). Returns 0, or -1 after printing why: the PEs started so far are
 * then in the job and must be ended. */
int osh_job_launch(struct osh_job *j);

/* Decide the exit status and end every PE still running: SIGTERM now, SIGKILL a little later.
 * The first call wins; later ones change nothing. */
void osh_job_end(struct osh_job *j, int status);

/* The main loop: until every PE is reaped, handle signals, output, aborts and deadlines.
 * Returns oshrun's exit status. */
int osh_job_wait(struct osh_job *j);

void osh_job_free(struct osh_job *j);

#endif
