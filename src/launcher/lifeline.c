/* lifeline.c: the order in which the PEs' processes end, as the kernel saw it.
 *
 * Reaping order is not causal order (verdict.c): a dying PE's files, its PMIx socket among
 * them, are released before its parent can reap it, and peers may fail and be reaped in
 * between. So each PE gets a lifeline: a file it keeps open on a high descriptor and never
 * uses. The kernel releases it when the process ends and inotify queues an IN_CLOSE_WRITE
 * event for it, in the order the releases happen, across all PEs: no ties, however late oshrun
 * looks. A dying process releases its files from the highest descriptor down (measured here:
 * fd 900 before fd 5), so the lifeline goes before the PMIx socket, whose loss is what makes
 * the peers fail. A PE that closes the descriptor itself only makes its order less precise.
 *
 * The lifeline also carries one fact forward: shmem_finalize writes a byte into it
 * (src/boot/finalize_mark.c), so a PE that exits with 0 is known to have finalized when it
 * is reaped. PMIx's own notice is not enough: libpmix's client waits at most 2 s for the
 * server's answer to PMIx_Finalize and then exits anyway, so with hundreds of PEs finishing
 * at once on a busy host the server may read a PE's notice only after oshrun reaped it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lifeline.h"
#include "util.h"

struct osh_lifelines {
    int np;
    int inotify_fd;
    int watch;            /* the directory's watch, -1 once removed */
    char *dir;
    pthread_mutex_t lock; /* the main loop and the abort callback both pull events */
    bool *closed;
    int *order;           /* ranks, in the order their lifelines closed */
    int nclosed;
    int nhanded;          /* entries of order[] handed out by osh_lifelines_next */
};

struct osh_lifelines *osh_lifelines_new(int np, const char *dir)
{
    int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK), watch = -1;
    if (fd < 0 || mkdir(dir, 0700) != 0 ||
        (watch = inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_ONLYDIR)) < 0) {
        osh_msg("warning: no lifelines (%s); a failure may be blamed on a PE it caused",
                strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct osh_lifelines *l = osh_xcalloc(1, sizeof *l);
    l->np = np;
    l->inotify_fd = fd;
    l->watch = watch;
    l->dir = osh_xstrdup(dir);
    pthread_mutex_init(&l->lock, NULL);
    l->closed = osh_xcalloc((size_t)np, sizeof *l->closed);
    l->order = osh_xcalloc((size_t)np, sizeof *l->order);
    return l;
}

void osh_lifelines_free(struct osh_lifelines *l)
{
    if (!l)
        return;
    close(l->inotify_fd); /* the files go with the temporary directory */
    pthread_mutex_destroy(&l->lock);
    free(l->dir);
    free(l->closed);
    free(l->order);
    free(l);
}

int osh_lifeline_open(struct osh_lifelines *l, int rank)
{
    if (!l)
        return -1;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%d", l->dir, rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        osh_msg("warning: no lifeline for PE %d: %s", rank, strerror(errno));
    return fd;
}

bool osh_lifeline_env(struct osh_lifelines *l, int fd, int target, char *buf, size_t size)
{
    struct stat st;
    if (!l || fd < 0 || fstat(fd, &st) != 0)
        return false;
    snprintf(buf, size, "SSHMEM_LIFELINE=%d:%llu", target, (unsigned long long)st.st_ino);
    return true;
}

bool osh_lifeline_marked(const struct osh_lifelines *l, int rank)
{
    if (!l)
        return false;
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%d", l->dir, rank);
    return stat(path, &st) == 0 && st.st_size > 0;
}

int osh_lifelines_fd(const struct osh_lifelines *l)
{
    return l ? l->inotify_fd : -1;
}

/* "17" -> 17, or -1 for anything that is not a rank of this job. */
static int rank_of_name(const struct osh_lifelines *l, const char *name)
{
    char *end;
    long r = strtol(name, &end, 10);
    return (end != name && *end == '\0' && r >= 0 && r < l->np) ? (int)r : -1;
}

/* Move the kernel's queued events into order[]. Called with the lock held. */
static void pull(struct osh_lifelines *l)
{
    char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t n;
    while ((n = read(l->inotify_fd, buf, sizeof buf)) > 0) {
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            int r = e->len ? rank_of_name(l, e->name) : -1;
            if (r >= 0 && !l->closed[r]) {
                l->closed[r] = true;
                l->order[l->nclosed++] = r;
            }
            p += sizeof *e + e->len;
        }
    }
    /* Every lifeline has closed: nothing more to learn. Removing the watch now lets the
     * kernel retire it (an RCU grace period) while the job ends; left for the close in
     * osh_lifelines_free, it held oshrun's exit back that long. */
    if (l->nclosed == l->np && l->watch >= 0) {
        inotify_rm_watch(l->inotify_fd, l->watch);
        l->watch = -1;
    }
}

int osh_lifelines_position(struct osh_lifelines *l)
{
    if (!l)
        return 0;
    pthread_mutex_lock(&l->lock);
    pull(l);
    int n = l->nclosed;
    pthread_mutex_unlock(&l->lock);
    return n;
}

bool osh_lifelines_next(struct osh_lifelines *l, int *rank, int *index)
{
    if (!l)
        return false;
    pthread_mutex_lock(&l->lock);
    pull(l);
    bool have = l->nhanded < l->nclosed;
    if (have) {
        *rank = l->order[l->nhanded++];
        *index = l->nhanded;
    }
    pthread_mutex_unlock(&l->lock);
    return have;
}
