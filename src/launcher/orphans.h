/* orphans.h: processes the PEs started that left the job's process group (setsid, daemons).
 * oshrun adopts them when their parents die, and ends them with the job. */
#ifndef OSHRUN_ORPHANS_H
#define OSHRUN_ORPHANS_H
#include <sys/types.h>

/* Make oshrun the subreaper of everything it starts: a process whose parent dies is then
 * reparented to oshrun rather than to init. Call before the first PE starts. Returns 0, or -1
 * after a warning (the job runs, but such processes may outlive it). */
int osh_orphans_adopt(void);

/* After the PEs are reaped: kill every process still below oshrun and reap it, for at most
 * `seconds`. Returns how many were killed. (If oshrun itself is killed, the guard, an
 * ancestor and subreaper too, ends them: janitor.c.) */
int osh_orphans_end(double seconds);

/* The parent pid of live process `pid` (a /proc entry's name), or -1: gone, or a zombie that
 * only waits to be reaped. */
pid_t osh_live_parent_of(const char *pid);

#endif
