/* fdlimit.h: enough file descriptors for large jobs. */
#ifndef OSHRUN_FDLIMIT_H
#define OSHRUN_FDLIMIT_H

/* Raise the soft RLIMIT_NOFILE so that oshrun can hold `needed` descriptors (up to the hard
 * limit; warns when that is not enough). */
void osh_fdlimit_raise(long needed);

/* The highest descriptor number a PE can have under the limit it starts with (at most 1023:
 * a higher number would make the kernel grow the PE's descriptor table for nothing). */
int osh_fdlimit_child_top(void);

/* In a forked child: give back the soft limit oshrun started with (async-signal-safe). */
void osh_fdlimit_restore_in_child(void);

#endif
