/* orphans.c: no process a PE started outlives the job, even one in a session of its own.
 *
 * The PEs share a process group that oshrun kills at the end (children.c), but a process that
 * calls setsid() (a daemon, `setsid cmd &`) leaves it, and once its parent PE is gone it would
 * normally be adopted by init and live on. As a child subreaper, oshrun adopts such processes
 * instead. At the end it kills its own children (never anyone else's: a child's pid cannot be
 * reused before oshrun reaps it), reaps them, and repeats, since killing one hands its own
 * children over to oshrun in turn. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "orphans.h"
#include "util.h"

int osh_orphans_adopt(void)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        osh_msg("warning: cannot become the subreaper of the job (%s): processes the PEs "
                "start in a session of their own may outlive it", strerror(errno));
        return -1;
    }
    return 0;
}

/* The parent pid of live process `pid` from /proc/PID/stat, or -1 (gone, or a zombie that
 * only waits to be reaped). The command name in parentheses may hold spaces and parentheses:
 * the fields follow its last ')'. */
static pid_t parent_of(const char *pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *end = strrchr(buf, ')');
    char state;
    int ppid;
    if (!end || sscanf(end + 1, " %c %d", &state, &ppid) != 2 || state == 'Z')
        return -1;
    return (pid_t)ppid;
}

/* SIGKILL every live process but oshrun itself for which doomed(its /proc name, ctx) holds;
 * returns how many. */
static int kill_where(int (*doomed)(const char *pid, const void *ctx), const void *ctx)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int killed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid != self && doomed(e->d_name, ctx) && kill(pid, SIGKILL) == 0)
            killed++;
    }
    closedir(d);
    return killed;
}

/* A live child of oshrun other than *(pid_t *)keep. */
static int child_but(const char *pid, const void *keep)
{
    return (pid_t)atoi(pid) != *(const pid_t *)keep && parent_of(pid) == getpid();
}

static int kill_children(pid_t keep)
{
    return kill_where(child_but, &keep);
}

/* Reap every child that has exited, except `keep`. */
static void reap_children(pid_t keep)
{
    siginfo_t si;
    for (;;) {
        memset(&si, 0, sizeof si);
        /* WNOWAIT first: look before reaping, so the janitor is never reaped here. */
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
            return;
        if (si.si_pid == keep)
            return; /* the janitor only exits once dismissed, after this */
        waitpid(si.si_pid, NULL, WNOHANG);
    }
}

/* Does oshrun have a child but `keep`? From the kernel's list of each of its threads'
 * children (an orphan is adopted by any thread of the subreaper): by the time the PEs are all
 * reaped, every orphan has been adopted and the list no longer changes. 1 when the lists
 * cannot be read (a kernel without them): then the scan of /proc decides. */
static int any_child_but(pid_t keep)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 1;
    int found = 0, readable = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300];
        long pid;
        snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        readable = 1;
        while (!found && fscanf(f, "%ld", &pid) == 1)
            found = pid != keep;
        fclose(f);
    }
    closedir(d);
    return found || !readable;
}

int osh_orphans_end(pid_t keep, double seconds)
{
    double deadline = osh_now() + seconds;
    int total = 0;
    for (;;) {
        reap_children(keep);
        /* Nearly always nobody is left: scanning every process of the host, the only
         * reliable way to find the rest, took 1.4 ms at the end of every job. */
        if (!any_child_but(keep))
            return total;
        int killed = kill_children(keep);
        total += killed;
        if (killed == 0 || osh_now() >= deadline)
            return total;
        nanosleep(&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
    }
}

/* Does the environment of process `pid` (its /proc/PID/environ, NUL-separated) hold the entry
 * `entry` ("NAME=value") word for word? Only processes of our own user are looked at: others'
 * environments are unreadable, and never ours to kill. */
static int environ_holds(const char *pid, uid_t uid, const char *entry)
{
    char path[sizeof "/proc//environ" + 256]; /* a /proc entry's name: 255 bytes at most */
    struct stat st;
    snprintf(path, sizeof path, "/proc/%s", pid);
    if (stat(path, &st) != 0 || st.st_uid != uid)
        return 0;
    snprintf(path, sizeof path, "/proc/%s/environ", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    static char buf[1 << 18]; /* environments past 256 KiB are cut: the marker comes early */
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    size_t len = strlen(entry);
    for (char *e = buf; e < buf + n; e += strlen(e) + 1)
        if (strlen(e) == len && memcmp(e, entry, len) == 0)
            return 1;
    return 0;
}

/* A live process whose environment holds the entry (const char *) ctx. */
static int marked(const char *pid, const void *entry)
{
    return parent_of(pid) >= 0 && environ_holds(pid, getuid(), entry);
}

int osh_orphans_end_marked(const char *entry, double seconds)
{
    double deadline = osh_now() + seconds;
    int total = 0;
    for (;;) {
        int killed = kill_where(marked, entry);
        total += killed;
        if (killed == 0 || osh_now() >= deadline)
            return total;
        nanosleep(&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
    }
}
