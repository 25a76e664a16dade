/* lifeline.h: the order in which the PEs' processes end, as the kernel saw it. */
#ifndef OSHRUN_LIFELINE_H
#define OSHRUN_LIFELINE_H
#include <stdbool.h>
#include <stddef.h>

struct osh_lifelines;

/* Prepare lifelines for np PEs in dir (created). Returns NULL, after a warning, when the
 * kernel cannot provide them: the job then runs without (failures are ordered by reaping). */
struct osh_lifelines *osh_lifelines_new(int np, const char *dir);
void osh_lifelines_free(struct osh_lifelines *l);

/* The descriptor PE rank keeps until it ends (close-on-exec here; the child moves it), or -1. */
int osh_lifeline_open(struct osh_lifelines *l, int rank);

/* The variable telling PE rank's library where its lifeline is ("SSHMEM_LIFELINE=FD:INODE",
 * fd being the descriptor it has in the PE, lifeline_target), written into buf; false when
 * the PE has no lifeline. */
bool osh_lifeline_env(struct osh_lifelines *l, int fd, int target, char *buf, size_t size);

/* PE rank wrote its mark into the lifeline: it called shmem_finalize (src/boot/finalize_mark.c). */
bool osh_lifeline_marked(const struct osh_lifelines *l, int rank);

/* Readable when lifelines have closed (for poll), or -1. */
int osh_lifelines_fd(const struct osh_lifelines *l);

/* How many lifelines have closed by now. Safe from any thread: the abort callback uses it to
 * place an abort among the deaths. */
int osh_lifelines_position(struct osh_lifelines *l);

/* The next closed lifeline not handed out yet, in closing order: true with *rank and *index
 * (1 for the first lifeline that closed), false when there is none for now. */
bool osh_lifelines_next(struct osh_lifelines *l, int *rank, int *index);

#endif
