/*
 * channel.h: ordered byte messages between two PEs, through the library's symmetric scratch.
 * The collectives of the MPI-style layer are written as message-passing algorithms on these.
 *
 * Every PE has one slot per sender in its scratch. A message is cut into slot-sized chunks
 * (a zero-length message is one empty chunk: a signal). The sender waits until the receiver
 * has freed its slot, puts the chunk, then (ordered after it) a counter; the receiver waits
 * for the counter, copies the chunk out and puts back a "freed" counter. Both sides count the
 * chunks per peer, so messages match in order, whatever team or collective they belong to,
 * as long as two PEs call their common collectives in the same order (which OpenSHMEM asks).
 *
 * A slot per pair holds two chunks; a send waits while both are unconsumed. So algorithms
 * exchange with mpix_sendrecv (chunks interleaved) and never let PEs wait in a cycle, each
 * blocked sending to the next (see alltoallv in vcoll.c).
 */
#ifndef SSHMEM_MPIX_CHANNEL_H
#define SSHMEM_MPIX_CHANNEL_H
#include <stddef.h>

/* Reserve the slots and counters; during start-up, on every PE (core/init.c). */
void sshmem_mpix_init(void);

/* Send len bytes to world PE `pe`; returns when buf may be reused. */
void mpix_send(int pe, const void *buf, size_t len);
/* Receive exactly len bytes (the length the sender sent) from world PE `pe`. */
void mpix_recv(int pe, void *buf, size_t len);
/* Send to `to` and receive from `from` at the same time, chunk by chunk. */
void mpix_sendrecv(int to, const void *sbuf, size_t slen, int from, void *rbuf, size_t rlen);

/* Complete every put this PE issued on the default context (before signalling "done"). */
void mpix_quiet(void);

#endif
