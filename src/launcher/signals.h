/* signals.h: the signals oshrun handles, read from a signalfd by the main loop. */
#ifndef OSHRUN_SIGNALS_H
#define OSHRUN_SIGNALS_H

/* Block SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT and return a signalfd that reports them (or -1 after
 * printing why); ignore SIGPIPE. Call before any thread is created: threads inherit the mask,
 * so none of them (PMIx's progress thread included) can take these signals. */
int osh_signals_setup(void);

/* The next pending signal from the signalfd, or 0 when none is pending. */
int osh_signals_next(int sigfd);

/* Stop oshrun itself (what SIGTSTP would have done), until SIGCONT. */
void osh_signals_stop_self(void);

/* In a forked child, before execve: give back the signal mask and the SIGPIPE disposition oshrun
 * started with. Only async-signal-safe calls. */
void osh_signals_restore_in_child(void);

#endif
