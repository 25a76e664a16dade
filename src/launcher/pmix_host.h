/* pmix_host.h: oshrun as a PMIx server host for the PEs of one job on this host. */
#ifndef OSHRUN_PMIX_HOST_H
#define OSHRUN_PMIX_HOST_H
#include <stdbool.h>

struct osh_abort {
    int rank;       /* the PE that called PMIx_Abort */
    int status;
    char msg[512];  /* may be empty */
    int position;   /* what the abort probe said when the abort came, or -1 */
};

/* Called in PMIx's thread when the first abort arrives, to place it among other events (job.c:
 * how many PEs had ended by then). */
typedef int (*osh_abort_probe_fn)(void *ctx);

/* Set (or, with NULL, remove) the abort probe. After removal it is no longer called. */
void osh_pmix_set_abort_probe(osh_abort_probe_fn probe, void *ctx);

/* Start the PMIx server with its files in tmpdir, for a job of np PEs (np chooses where
 * libpmix keeps the job's data). Returns 0, or -1 after printing why. */
int osh_pmix_start(const char *tmpdir, int np);

/* Register the job "oshrun.<pid>" of np PEs, all on this host, and its np clients.
 * Returns 0, or -1 after printing why. */
int osh_pmix_register_job(int np);

/* Add to *env (a malloc'ed array, see osh_env_copy) what PE rank needs to reach the server. */
int osh_pmix_setup_fork(int rank, char ***env);

/* Readable when a PE has called PMIx_Abort (the callback runs in PMIx's thread). */
int osh_pmix_abort_fd(void);

/* The first PMIx_Abort of the job, once: true and *out filled the first time it is asked
 * after the abort happened; false before and after. */
bool osh_pmix_take_abort(struct osh_abort *out);

/* True when PE rank joined the job (PMIx_Init) but neither finalized nor aborted: asked once
 * the PE is reaped, it says the PE exited without shmem_finalize. */
bool osh_pmix_left_unfinalized(int rank);

/* Deregister the job and finalize the server; safe to call in any state, and again. */
void osh_pmix_stop(void);

#endif
