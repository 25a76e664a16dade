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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* From /proc/PID/stat (orphans.h). The command name in parentheses may hold spaces and
 * parentheses: the fields follow its last ')'. */
pid_t osh_live_parent_of(const char *pid)
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

/* A live child of oshrun. */
static int child(const char *pid, const void *unused)
{
    (void)unused;
    return osh_live_parent_of(pid) == getpid();
}

static int kill_children(void)
{
    return kill_where(child, NULL);
}

/* Reap every child that has exited. */
static void reap_children(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

/* Does oshrun have a child? From the kernel's list of each of its threads'
 * children (an orphan is adopted by any thread of the subreaper): by the time the PEs are all
 * reaped, every orphan has been adopted and the list no longer changes. 1 when the lists
 * cannot be read (a kernel without them): then the scan of /proc decides. */
static int any_child(void)
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
            found = 1;
        fclose(f);
    }
    closedir(d);
    return found || !readable;
}

int osh_orphans_end(double seconds)
{
    double deadline = osh_now() + seconds;
    int total = 0;
    for (;;) {
        reap_children();
        /* Nearly always nobody is left: scanning every process of the host, the only
         * reliable way to find the rest, would cost every job's end. */
        if (!any_child())
            return total;
        int killed = kill_children();
        total += killed;
        if (killed == 0 || osh_now() >= deadline)
            return total;
        nanosleep(&(struct timespec){ .tv_nsec = 5 * 1000 * 1000 }, NULL);
    }
}

