/* oshrun.c: the single-host launcher of sshmem.
 *
 *   oshrun [options] program [args...]
 *
 * oshrun is a PMIx server host: it starts N processes (PEs) of one program on this host, each
 * a PMIx client, forwards their output, and exits with the status of the first PE that fails
 * (ending the others), or 0. The phases, each in its own file:
 *   options.c, program.c   the command line and the program to run (nothing started yet)
 *   signals.c              SIGCHLD/SIGINT/SIGTERM/SIGHUP through a signalfd
 *   guard.c, janitor.c     oshrun runs as three processes: the launcher the user started, a
 *                          guard that cleans up whatever ends the job, and the worker that
 *                          runs it (everything below); tmpdir.c: the job's private
 *                          directories (PMIx server, UCX shared memory), made by the guard
 *   pmix_host.c            the PMIx server and the job's namespace (pmix_log.c: its output)
 *   topology.c             the host's topology, read once for the binding and the server
 *   launch.c, children.c   environment (environ.c), binding (binding.c), output pipes
 *                          (output.c, input.c), lifelines (lifeline.c), fork/exec
 *   job.c, verdict.c       the main loop: reaping, which failure came first, abort, timeout,
 *                          signals
 *   orphans.c              processes the PEs started in sessions of their own end with the job
 *   failsafe.c             a crash or hang in libpmix cannot change the exit status
 *   external.c             --launcher mpirun|prterun|srun: exec that launcher instead
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "external.h"
#include "failsafe.h"
#include "guard.h"
#include "orphans.h"
#include "job.h"
#include "options.h"
#include "pmix_host.h"
#include "pmix_log.h"
#include "program.h"
#include "signals.h"
#include "sysv.h"
#include "tmpdir.h"
#include "topology.h"
#include "util.h"

/* Deregistering the job and finalizing the PMIx server take milliseconds; longer means
 * libpmix is stuck (failsafe.c: measured with test/pe/fault-test.sh, a PE killed in its PMIx
 * start-up leaves PMIx_server_finalize waiting forever on a lock a few times in a hundred).
 * Short enough that such a job still ends within 2 s of the failure. */
#define TEARDOWN_TIMEOUT_MS 800

/* With a closed stdin, stdout or stderr, the first pipe oshrun creates would take its number
 * and end up as a PE's stdio by accident. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) >= 0)
            continue;
        int nul = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (nul >= 0 && nul != fd) {
            dup2(nul, fd);
            close(nul);
        }
    }
}

/* Everything after the PMIx server is up; returns the exit status. */
static int run_job(struct osh_job *job, const struct osh_options *opts, const char *path,
                   int sigfd, const char *tmpdir)
{
    osh_job_init(job, opts, path, sigfd, tmpdir);
    if (osh_pmix_register_job(opts->np) != 0 || osh_job_launch(job) != 0)
        osh_job_end(job, OSH_EXIT_INTERNAL);
    return osh_job_wait(job);
}

/* The server, the job, then the cleanup that every path goes through (the guard repeats it
 * whatever happens to this process). */
static int serve(const struct osh_options *opts, const char *path, int sigfd,
                 const struct osh_job_dirs *dirs)
{
    (void)osh_orphans_adopt(); /* before the first PE */
    osh_failsafe_arm();
    osh_pmix_log_setup();
    int status = OSH_EXIT_INTERNAL;
    struct osh_job job;
    bool ran = osh_pmix_start(dirs->tmpdir, opts->np) == 0;
    if (ran)
        status = run_job(&job, opts, path, sigfd, dirs->tmpdir);
    osh_failsafe_teardown(status, TEARDOWN_TIMEOUT_MS);
    osh_pmix_stop();
    osh_failsafe_done();
    osh_topology_free(); /* the server used it */
    /* After the server, whose abort callback reads the job; and as late as this, because
     * the kernel retires the lifelines' inotify watch meanwhile (lifeline.c). */
    if (ran)
        osh_job_free(&job);
    osh_pmix_log_finish(status != 0);
    osh_pmix_log_close();
    osh_sysv_sweep(dirs->tmpdir); /* before the directory: the PEs' pids are noted there */
    if (osh_tmpdir_remove(dirs->tmpdir) != 0)
        osh_msg("warning: could not remove all of %s", dirs->tmpdir);
    if (osh_tmpdir_remove(dirs->shmdir) != 0)
        osh_msg("warning: could not remove all of %s", dirs->shmdir);
    return status;
}

/* --dry-run without an external launcher: nothing to print but that oshrun runs the job. */
static int dry_run_builtin(const struct osh_options *opts)
{
    printf("oshrun runs %d PEs of %s on this host with its own PMIx server\n", opts->np,
           opts->argv[0]);
    return 0;
}

int main(int argc, char **argv)
{
    ensure_std_fds();
    struct osh_options opts;
    int status;
    if (!osh_parse_options(argc, argv, &opts, &status)) {
        osh_options_free(&opts);
        return status;
    }
    char *path = osh_find_program(opts.argv[0]);
    if (!path) {
        osh_options_free(&opts);
        return OSH_EXIT_USAGE;
    }
    if (opts.launcher != OSH_LAUNCHER_OSHRUN || opts.dry_run) {
        status = opts.launcher == OSH_LAUNCHER_OSHRUN ? dry_run_builtin(&opts)
                                                      : osh_exec_external(&opts, path);
        free(path);
        osh_options_free(&opts);
        return status;
    }
    struct osh_job_dirs dirs;
    if (osh_guard_split(&dirs) != 0) { /* returns in the worker only */
        free(path);
        osh_options_free(&opts);
        return OSH_EXIT_INTERNAL;
    }
    int sigfd = osh_signals_setup(); /* before any thread: they all inherit the mask */
    status = sigfd < 0 ? OSH_EXIT_INTERNAL : serve(&opts, path, sigfd, &dirs);
    if (sigfd >= 0)
        close(sigfd);
    free(dirs.shmdir);
    free(dirs.tmpdir);
    free(path);
    osh_options_free(&opts);
    return status;
}
