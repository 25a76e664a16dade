/* output.h: --tag-output, the PEs' stdout and stderr forwarded line by line with "[PE n] ". */
#ifndef OSHRUN_OUTPUT_H
#define OSHRUN_OUTPUT_H
#include <poll.h>
#include <stddef.h>

struct osh_output;

struct osh_output *osh_output_new(int np);

/* Create the pipes of PE rank; *out_w and *err_w are the ends the child writes to (the parent
 * closes them after fork). Returns 0, or -1 after printing why. */
int osh_output_open(struct osh_output *o, int rank, int *out_w, int *err_w);

/* Fill pfds (room for 2*np entries) with the open pipes; returns how many. */
size_t osh_output_pollfds(struct osh_output *o, struct pollfd *pfds);

/* Forward what the pipes reported ready in pfds[0..n) (as filled by osh_output_pollfds). */
void osh_output_handle(struct osh_output *o, const struct pollfd *pfds, size_t n);

/* After the PEs are gone: forward what is left in the pipes, end partial last lines, close. */
void osh_output_finish(struct osh_output *o);

void osh_output_free(struct osh_output *o);

#endif
