/* signals.c: the signals oshrun handles. They are blocked in every thread and read from a
 * signalfd, so the main loop handles them in order with everything else and no code runs in a
 * signal handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "signals.h"
#include "util.h"

static sigset_t original_mask;
static struct sigaction original_sigpipe;

int osh_signals_setup(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGTSTP); /* Ctrl-Z: suspend the PEs too (job.c) */
    sigaddset(&set, SIGCONT); /* blocking it does not stop it from continuing oshrun */
    if (sigprocmask(SIG_BLOCK, &set, &original_mask) != 0) {
        osh_msg("cannot block signals: %s", strerror(errno));
        return -1;
    }
    /* Writing tagged output to a closed pipe must give EPIPE, not kill oshrun before it has
     * ended the PEs and cleaned up. */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &original_sigpipe);
    int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0)
        osh_msg("cannot create a signalfd: %s", strerror(errno));
    return fd;
}

int osh_signals_next(int sigfd)
{
    struct signalfd_siginfo si;
    for (;;) {
        ssize_t r = read(sigfd, &si, sizeof si);
        if (r == (ssize_t)sizeof si)
            return (int)si.ssi_signo;
        if (r < 0 && errno == EINTR)
            continue;
        return 0;
    }
}

void osh_signals_stop_self(void)
{
    /* SIGSTOP cannot be blocked or caught: oshrun stops here until SIGCONT. */
    raise(SIGSTOP);
}

void osh_signals_restore_in_child(void)
{
    /* The mask and ignored dispositions survive execve: without this the PEs could not be
     * interrupted and would not die of a broken pipe. */
    sigaction(SIGPIPE, &original_sigpipe, NULL);
    sigprocmask(SIG_SETMASK, &original_mask, NULL);
}
