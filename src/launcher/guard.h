/* guard.h: oshrun as three processes, so that nothing of a job outlives it, however it ends. */
#ifndef OSHRUN_GUARD_H
#define OSHRUN_GUARD_H
#include <sys/types.h>

/* The job's private directories (tmpdir.c), made by the guard before the worker starts. */
struct osh_job_dirs {
    char *tmpdir; /* the PMIx server's */
    char *shmdir; /* UCX's shared memory; NULL when the user chose UCX_POSIX_DIR */
};

/* Split oshrun: the process the user started stays as the launcher, which only waits and
 * passes signals on; its child, the guard, makes the job's directories and starts the worker,
 * which runs the job. Returns only in the worker, with the directories. Returns -1 (nothing
 * split) after printing why when the processes could not be made. The launcher exits with
 * the worker's status and never returns. Call before any thread exists. */
int osh_guard_split(struct osh_job_dirs *dirs);

/* The pid of the oshrun the user started: the job's directories carry it, and signals from
 * it are ones it passed on. */
pid_t osh_guard_launcher(void);

#endif
