/* janitor.h: a helper process that cleans up when oshrun dies without doing it itself. */
#ifndef OSHRUN_JANITOR_H
#define OSHRUN_JANITOR_H
#include <sys/types.h>

/* Fork the janitor; it removes tmpdir and shmdir (NULL: none) (and kills the job's process group, once told which) as
 * soon as oshrun dies without dismissing it. Call while oshrun has only one thread. Returns 0,
 * or -1 after printing why (oshrun can run without it). */
int osh_janitor_start(const char *tmpdir, const char *shmdir);

/* Tell the janitor the process group of the PEs. */
void osh_janitor_watch_group(pid_t pgid);

/* The janitor's pid, or -1 when there is none. */
pid_t osh_janitor_pid(void);

/* oshrun cleaned up itself: the janitor leaves without touching anything. */
void osh_janitor_dismiss(void);

#endif
