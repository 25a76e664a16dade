/* failsafe.h: oshrun's result must survive a crash or hang inside libpmix. */
#ifndef OSHRUN_FAILSAFE_H
#define OSHRUN_FAILSAFE_H

/* From now on a crash of oshrun (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) reports an internal
 * error and exits with status 1; the guard then ends the PEs and removes the directories. */
void osh_failsafe_arm(void);

/* The job is over with this status: from now on a crash, or a PMIx teardown that takes longer
 * than `ms` milliseconds, ends oshrun with that status instead. */
void osh_failsafe_teardown(int status, unsigned ms);

/* The teardown finished: no more deadline. */
void osh_failsafe_done(void);

#endif
