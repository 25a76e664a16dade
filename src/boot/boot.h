/*
 * boot.h: bootstrap through PMIx. Who am I, how many are we, who shares my host, and one
 * exchange of "business cards" (UCX address, rkeys, region bases), each fetched when needed.
 * Only src/boot/ includes pmix.h.
 */
#ifndef SSHMEM_BOOT_H
#define SSHMEM_BOOT_H
#include <stddef.h>

/* Connect to the launcher. Without one (a plain ./a.out) this PE is a singleton job of 1. */
void sshmem_boot_init(int *rank, int *size, int *singleton);
/* An id shared by the PEs of one host. */
int sshmem_boot_node_id(void);
/* How many hosts the job spans as the launcher says (SSHMEM_PES_PER_NODE groups do not
 * count), known before any exchange; 0 when the launcher does not say. */
int sshmem_boot_host_count(void);
/* Every PE's host id into ids[0..n_pes), before any exchange: the position of the PE's host
 * in the job's host list, the same on every PE. Only from what the launcher gave this PE at
 * start (no request to it); -1 when that does not name every PE's host (ids then
 * unspecified). */
int sshmem_boot_host_ids(int *ids, int n_pes);
/* Publish this PE's card, then wait until every PE has published theirs. Without collect the
 * fence collects nothing: each card stays with the launcher until a PE asks for it. collect
 * brings every card to every host (for a PE that must read them all); every PE of the job
 * must pass the same. */
void sshmem_boot_exchange(const void *card, size_t len, int collect);
/* Fetch PE pe's card after the exchange, from the launcher on the first call (the boot layer
 * keeps none); the buffer is the caller's to free(). */
void *sshmem_boot_card(int pe, size_t *len);
/* A barrier through the launcher (slow; for start-up and shut-down only). */
void sshmem_boot_barrier(void);
/* The same barrier, calling poll() (when not NULL) while it waits: at shut-down, peers whose
 * last operations need this PE's progress (emulated over tcp) still get it from a PE that has
 * finished its own, even without a progress thread. */
void sshmem_boot_barrier_polling(void (*poll)(void));
/* End the whole job with this status; the launcher ends every other PE. */
void sshmem_boot_abort(int status, const char *msg);
void sshmem_boot_finalize(void);
/* Tell oshrun, if it started this PE, that shmem_finalize was called (finalize_mark.c). */
void sshmem_boot_mark_finalized(void);

#endif
