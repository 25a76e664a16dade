/* children.h: starting, signalling and reaping the PE processes. */
#ifndef OSHRUN_CHILDREN_H
#define OSHRUN_CHILDREN_H
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Everything a PE needs, prepared before fork: the child only makes system calls with it. */
struct osh_child_spec {
    int rank;
    const char *path;          /* what execve runs */
    char *const *argv;
    char *const *envp;
    const cpu_set_t *cpuset;   /* NULL: not bound */
    size_t cpusetsize;
    pid_t pgid;                /* 0: this child starts the job's process group */
    int stdio[3];              /* descriptors for 0, 1, 2; -1 keeps oshrun's own */
    int exec_error_fd;         /* where the child reports a failed execve */
    int lifeline_fd;           /* -1, or moved to lifeline_target in the child (lifeline.c) */
    int lifeline_target;
};

/* Fork and exec one PE. Returns its pid, or -1 after printing why. */
pid_t osh_child_start(const struct osh_child_spec *spec);

/* What a child writes to exec_error_fd when execve fails (before exiting with 126). */
struct osh_exec_error {
    int rank;
    int err; /* errno of execve */
};

/* Signal the whole job: its process group (processes the PEs started included) and each PE
 * still running, in case one left the group. */
void osh_children_signal(pid_t pgid, const pid_t *pids, const bool *running, int np, int sig);

/* After the last PE is reaped: kill what the PEs left behind in the job's process group
 * (background processes they started). */
void osh_children_sweep(pid_t pgid);

#endif
