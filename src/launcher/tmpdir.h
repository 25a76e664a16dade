/* tmpdir.h: the private directory of the PMIx server. */
#ifndef OSHRUN_TMPDIR_H
#define OSHRUN_TMPDIR_H

/* Create $TMPDIR/oshrun.XXXXXX (or /tmp/...) with mode 0700. Returns a malloc'ed path, or NULL
 * after printing why. */
char *osh_tmpdir_create(void);

/* Remove path and everything below it. Returns 0, or -1 when something could not be removed. */
int osh_tmpdir_remove(const char *path);

#endif
