/* launch.c: starting the N PEs of a job. Everything a child needs (environment from PMIx, CPU
 * set, pipes) is prepared here in the parent before its fork. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "binding.h"
#include "children.h"
#include "environ.h"
#include "fdlimit.h"
#include "job.h"
#include "lifeline.h"
#include "output.h"
#include "pmix_host.h"
#include "sysv.h"
#include "util.h"

static int prepare(struct osh_job *j)
{
    if (j->opts->timeout > 0)
        j->timeout_at = osh_now() + j->opts->timeout;
    /* Per PE in oshrun: the PMIx server's socket, and two output pipes with --tag-output. */
    osh_fdlimit_raise(64 + (long)j->np * (j->opts->tag_output ? 3 : 1));
    if (pipe2(j->exec_error, O_CLOEXEC) != 0) {
        osh_msg("cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    osh_set_nonblock(j->exec_error[0]);
    if (osh_input_setup(&j->input) != 0)
        return -1;
    if (j->opts->tag_output)
        j->output = osh_output_new(j->np);
    j->binding = osh_binding_plan(j->opts->bind, j->np);
    return 0;
}

static void close_if_open(int fd)
{
    if (fd >= 0)
        close(fd);
}

/* One PE: its environment with the PMIx variables, its lifeline and output pipes, then fork
 * and exec. */
static int start_pe(struct osh_job *j, char *const base_env[], int rank)
{
    struct osh_child_spec spec = {
        .rank = rank,
        .path = j->path,
        .argv = j->opts->argv,
        .pgid = j->pgid,
        .stdio = { osh_input_fd_for(&j->input, rank), -1, -1 },
        .exec_error_fd = j->exec_error[1],
    };
    spec.cpuset = osh_binding_cpuset(j->binding, rank, &spec.cpusetsize);
    char **env = osh_env_copy(base_env);
    pid_t pid = -1;
    spec.lifeline_fd = osh_lifeline_open(j->lifelines, rank); /* -1: runs without */
    spec.lifeline_target = osh_fdlimit_child_top();
    char lifeline_var[64];
    if (osh_lifeline_env(j->lifelines, spec.lifeline_fd, spec.lifeline_target, lifeline_var,
                         sizeof lifeline_var))
        osh_env_set(&env, lifeline_var);
    if (osh_pmix_setup_fork(rank, &env) == 0 &&
        (!j->output || osh_output_open(j->output, rank, &spec.stdio[1], &spec.stdio[2]) == 0)) {
        spec.envp = env;
        pid = osh_child_start(&spec);
    }
    /* The child's ends: end of file comes when the PE is gone. */
    close_if_open(spec.lifeline_fd);
    close_if_open(spec.stdio[1]);
    close_if_open(spec.stdio[2]);
    osh_env_free(env);
    if (pid < 0)
        return -1;
    j->pids[rank] = pid;
    osh_sysv_note_pe(j->tmpdir, pid);
    j->running[rank] = true;
    j->nrunning++;
    if (rank == 0)
        j->pgid = pid;
    return 0;
}

int osh_job_launch(struct osh_job *j)
{
    if (prepare(j) != 0)
        return -1;
    char **base_env = osh_env_base(j->opts->exports, j->opts->nexports);
    int rc = 0;
    for (int rank = 0; rank < j->np && rc == 0; rank++)
        rc = start_pe(j, base_env, rank);
    osh_env_free(base_env);
    osh_input_started(&j->input);
    close(j->exec_error[1]); /* only the children write there */
    j->exec_error[1] = -1;
    return rc;
}
