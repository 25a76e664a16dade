/* pmix_log.h: what libpmix and its libevent print, routed through oshrun. */
#ifndef OSHRUN_PMIX_LOG_H
#define OSHRUN_PMIX_LOG_H

/* Before PMIx_server_init: capture libpmix's error output and libevent's warnings. */
void osh_pmix_log_setup(void);

/* The descriptor the main loop polls for libpmix output, or -1. */
int osh_pmix_log_fd(void);

/* A PE has ended: from now on hold the output instead of printing it. */
void osh_pmix_log_hold(void);

/* A PE aborted (shmem_global_exit, even with status 0): the others are killed, and what
 * libpmix says about their cut connections is noise; the held output is dropped at the end. */
void osh_pmix_log_drop_held(void);

/* Read what libpmix wrote: print it, or keep it while held. */
void osh_pmix_log_forward(void);

/* The job is over: print what was held if the job succeeded, else drop it. */
void osh_pmix_log_finish(int job_failed);

/* After PMIx_server_finalize: no more writers. */
void osh_pmix_log_close(void);

#endif
