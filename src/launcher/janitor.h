/* janitor.h: the guard's work: end every process of the job and remove its directories. */
#ifndef OSHRUN_JANITOR_H
#define OSHRUN_JANITOR_H
#include <sys/types.h>

/* Run in the guard (a child subreaper, ancestor of the worker and so of every process of the
 * job) until the job is over: when the worker ends, or when `launcher_fd` reaches end of file
 * (the launcher is gone: the worker is killed first). Then kill every remaining descendant,
 * whatever it did (setsid, an empty environment), and remove both directories (NULL: none).
 * Returns the worker's wait status, or -1 when the launcher went first. */
int osh_janitor_run(pid_t worker, int launcher_fd, const char *tmpdir, const char *shmdir);

#endif
