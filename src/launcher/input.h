/* input.h: standard input goes to PE 0; the other PEs read /dev/null. */
#ifndef OSHRUN_INPUT_H
#define OSHRUN_INPUT_H

struct osh_input {
    int pe0_fd;   /* stdin of PE 0: -1 keeps oshrun's own */
    int others_fd; /* stdin of the other PEs: /dev/null */
    int forward_w; /* when forwarding a terminal: the pipe end oshrun writes to, else -1 */
};

/* Decide where the PEs' stdin comes from. Returns 0, or -1 after printing why. */
int osh_input_setup(struct osh_input *in);

/* The descriptor the child of rank should get as stdin (-1: keep oshrun's own). */
int osh_input_fd_for(const struct osh_input *in, int rank);

/* After PE 0 is started: the parent no longer needs the child's end. */
void osh_input_started(struct osh_input *in);

/* The descriptor the main loop should poll for input to forward, or -1. */
int osh_input_pollfd(const struct osh_input *in);

/* Forward what is waiting on oshrun's stdin to PE 0 (stops at end of input). */
void osh_input_forward(struct osh_input *in);

/* PE 0 is gone: stop forwarding (oshrun no longer reads its stdin). */
void osh_input_stop(struct osh_input *in);

/* The job is over: close everything. */
void osh_input_close(struct osh_input *in);

#endif
