/*
 * watch.h: the watchers: tools that observe the layers below without being part of them.
 * They sit above the layers they watch (they use the heap, RMA, the collective engine and
 * barriers), and the layers reach them only through hooks kept in src/core:
 *   - the traffic profile (SSHMEM_PROFILE): the layers count into core/profile.h's row;
 *     profile_gather.c sets the row up and gathers it to PE 0, profile_report.c writes the files;
 *   - the SHMEM_DEBUG agreement checks: the collectives and allocation routines call
 *     core/debug_hooks.h's hooks, which debug_check.c fills in.
 * (The hang reports, src/sync/hang.c, need only the heap and the transport, so they stay
 * beside the waits they report on.) shmem_init and shmem_finalize (src/api/init.c) call
 * what follows, on every PE in the same order.
 */
#ifndef SSHMEM_WATCH_H
#define SSHMEM_WATCH_H

/* SSHMEM_PROFILE is set and not empty (read from the environment table). */
int sshmem_profile_wanted(void);
/* During start-up, on every PE: takes this PE's row from the internal space. */
void sshmem_profile_init(void);
/* At shmem_finalize, on every PE, before teardown: stop counting, gather, PE 0 writes. */
void sshmem_profile_finalize(void);

/* Start-up, on every PE: takes the checks' flags and mailboxes from the internal space and
 * registers the hooks, only when SHMEM_DEBUG is on (and the job fits). */
void sshmem_debug_check_init(void);

#endif
