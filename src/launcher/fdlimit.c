/* fdlimit.c: enough file descriptors for large jobs. oshrun holds descriptors per PE (the PMIx
 * server's socket, two output pipes with --tag-output): 4096 PEs need far more than the usual
 * soft limit of 1024. The PEs get the original limit back, since
 * programs that use select() break above 1024 descriptors. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <sys/resource.h>

#include "fdlimit.h"
#include "util.h"

static struct rlimit original;
static bool changed;

void osh_fdlimit_raise(long needed)
{
    if (getrlimit(RLIMIT_NOFILE, &original) != 0 || (rlim_t)needed <= original.rlim_cur)
        return;
    struct rlimit raised = original;
    raised.rlim_cur = (original.rlim_max == RLIM_INFINITY || (rlim_t)needed < original.rlim_max)
                          ? (rlim_t)needed : original.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
        changed = true;
    if (!changed || raised.rlim_cur < (rlim_t)needed)
        osh_msg("warning: this job needs about %ld file descriptors in oshrun but the limit is "
                "%lu (raise it with 'ulimit -n')", needed,
                (unsigned long)(changed ? raised.rlim_cur : original.rlim_cur));
}

int osh_fdlimit_child_top(void)
{
    struct rlimit now;
    rlim_t soft = changed ? original.rlim_cur
                          : (getrlimit(RLIMIT_NOFILE, &now) == 0 ? now.rlim_cur : 1024);
    return (int)(soft > 1024 ? 1024 : soft) - 1;
}

void osh_fdlimit_restore_in_child(void)
{
    if (changed)
        setrlimit(RLIMIT_NOFILE, &original);
}
