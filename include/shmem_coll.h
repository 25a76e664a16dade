/*
 * shmem_coll.h: part of shmem.h (include <shmem.h>, not this file): teams and collectives.
 * The typed routines are declared by expanding the type lists of shmem_typetable.h.
 */
#ifndef SHMEM_COLL_H
#define SHMEM_COLL_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ collectives */
void shmem_barrier_all(void);
void shmem_sync_all(void);


#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
