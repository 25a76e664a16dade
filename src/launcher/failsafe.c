/* failsafe.c: oshrun's result must survive a crash or hang inside libpmix.
 *
 * libpmix 4.2.2 has bugs on the paths taken when PEs die during a collective and oshrun ends
 * the others (measured under CPU load: a few runs in a hundred crash in PMIx_server_finalize or
 * deadlock in its progress thread). By then the job's result is decided and reported, so a
 * crash or a hang during the PMIx teardown must neither change the exit status nor leave
 * anything behind: the handlers only call _exit with the decided status, and the guard
 * (guard.c, janitor.c), seeing the worker gone, kills what is left of the job and removes the
 * temporary directories. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "failsafe.h"
#include "util.h"

/* -1 while the job runs; afterwards the status oshrun exits with. */
static volatile sig_atomic_t decided_status = -1;

static void write_str(const char *s)
{
    ssize_t w = write(STDERR_FILENO, s, strlen(s));
    (void)w;
}

static void on_crash(int sig)
{
    if (decided_status < 0) {
        write_str("oshrun: internal error: oshrun crashed; ending the job\n");
        _exit(OSH_EXIT_INTERNAL);
    }
    _exit(decided_status);
}

static void on_teardown_deadline(int sig)
{
    _exit(decided_status < 0 ? OSH_EXIT_INTERNAL : decided_status);
}

static void install(int sig, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a crash inside the handler ends the process for good */
    sigaction(sig, &sa, NULL);
}

void osh_failsafe_arm(void)
{
    int crashes[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        install(crashes[i], on_crash);
}

static void set_alarm_ms(unsigned ms)
{
    struct itimerval t = { .it_value = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 } };
    setitimer(ITIMER_REAL, &t, NULL);
}

void osh_failsafe_teardown(int status, unsigned ms)
{
    decided_status = status;
    install(SIGALRM, on_teardown_deadline);
    set_alarm_ms(ms);
}

void osh_failsafe_done(void)
{
    set_alarm_ms(0);
}
