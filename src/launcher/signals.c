/* signals.c: the signals oshrun handles. They are blocked in every thread and read from a
 * signalfd, so the main loop handles them in order with everything else and no code runs in a
 * signal handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "guard.h"
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

/* The launcher (guard.c) passes on what it is sent, and a signal sent to the whole group
 * (the terminal's Ctrl-C, timeout(1), kill -PGID) reaches both: the worker sees it twice,
 * once from the launcher, once from elsewhere, in either order. The second of such a pair is
 * dropped: a real second signal (which ends the job without the grace period) comes from
 * the same side as the first, or later. */
#define TWIN_WINDOW_S 0.5

struct last_signal {
    double at;
    bool passed_on; /* it came from the launcher */
};

static bool twin(const struct signalfd_siginfo *si)
{
    static struct last_signal last[_NSIG];
    if (si->ssi_signo >= _NSIG || si->ssi_signo == SIGCHLD)
        return false;
    struct last_signal *l = &last[si->ssi_signo];
    bool passed_on = (pid_t)si->ssi_pid == osh_guard_launcher() && si->ssi_pid != 0;
    double now = osh_now();
    bool is_twin = l->at > 0 && now - l->at < TWIN_WINDOW_S && l->passed_on != passed_on;
    l->at = is_twin ? 0 : now; /* a third one counts again */
    l->passed_on = passed_on;
    return is_twin;
}

int osh_signals_next(int sigfd)
{
    struct signalfd_siginfo si;
    for (;;) {
        ssize_t r = read(sigfd, &si, sizeof si);
        if (r == (ssize_t)sizeof si) {
            if (twin(&si))
                continue;
            return (int)si.ssi_signo;
        }
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
