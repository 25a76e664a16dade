/* util.h: small helpers shared by the parts of oshrun (messages, clock, memory, descriptors). */
#ifndef OSHRUN_UTIL_H
#define OSHRUN_UTIL_H
#include <stddef.h>

/* Exit statuses of oshrun that do not come from a PE. */
#define OSH_EXIT_INTERNAL 1  /* oshrun itself failed (PMIx, fork, out of memory) */
#define OSH_EXIT_USAGE    2  /* bad command line, program not found */
#define OSH_EXIT_TIMEOUT  124 /* --timeout expired (the value timeout(1) uses) */
#define OSH_EXIT_NOEXEC   126 /* a PE's execve failed (the value shells use) */

/* Print "oshrun: <message>\n" on stderr in one write, so it does not interleave with PE output. */
void osh_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Seconds on the monotonic clock. */
double osh_now(void);

/* Allocation that cannot fail: on exhaustion oshrun prints a message and exits (the guard
 * process then removes the temporary directories and ends what is left of the job). */
void *osh_xmalloc(size_t size);
void *osh_xcalloc(size_t n, size_t size);
void *osh_xrealloc(void *p, size_t size);
char *osh_xstrdup(const char *s);

/* write() until everything is written or a real error occurs; returns 0 or -1. */
int osh_write_all(int fd, const void *buf, size_t len);

/* Set O_NONBLOCK on fd; returns 0 or -1. */
int osh_set_nonblock(int fd);

#endif
