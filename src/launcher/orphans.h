/* orphans.h: processes the PEs started that left the job's process group (setsid, daemons).
 * oshrun adopts them when their parents die, and ends them with the job. */
#ifndef OSHRUN_ORPHANS_H
#define OSHRUN_ORPHANS_H
#include <sys/types.h>

/* Make oshrun the subreaper of everything it starts: a process whose parent dies is then
 * reparented to oshrun rather than to init. Call before the first PE starts. Returns 0, or -1
 * after a warning (the job runs, but such processes may outlive it). */
int osh_orphans_adopt(void);

/* After the PEs are reaped: kill every process still below oshrun except `keep` (the
 * janitor, -1: none) and reap it, for at most `seconds`. Returns how many were killed. */
int osh_orphans_end(pid_t keep, double seconds);

/* When oshrun itself was killed (SIGKILL: no chance to run the above), its subreaper role dies
 * with it and processes the PEs started in sessions of their own are adopted by init. The
 * janitor finds them by an entry of the environment every process of the job inherits
 * (`entry`, "NAME=value", unique to the job: the PMIx server's private directory) and kills
 * them, repeating for at most `seconds` while it still finds some. Returns how many. */
int osh_orphans_end_marked(const char *entry, double seconds);

#endif
