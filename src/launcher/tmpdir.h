/* tmpdir.h: the private directories of a job: the PMIx server's and the shared-memory one. */
#ifndef OSHRUN_TMPDIR_H
#define OSHRUN_TMPDIR_H

#include <sys/types.h>

/* Create $TMPDIR/oshrun.PID.XXXXXX (or /tmp/...; PID is `owner`, the oshrun the user
 * started) with mode 0700. Returns a malloc'ed path, or NULL after printing why. */
char *osh_tmpdir_create(pid_t owner);

/* The job's shared-memory directory: /dev/shm/oshrun.PID.XXXXXX (PID: `owner`), mode 0700. UCX's posix
 * transport makes its segment files there (oshrun points UCX_POSIX_DIR at it unless the user
 * set it), so a file left by a PE killed between UCX's create and unlink goes with the
 * directory. Returns a malloc'ed path, or NULL (no /dev/shm, or the user chose UCX_POSIX_DIR):
 * then UCX uses its default. */
char *osh_shmdir_create(pid_t owner);

/* Remove path and everything below it. Returns 0, or -1 when something could not be removed. */
int osh_tmpdir_remove(const char *path);

#endif
