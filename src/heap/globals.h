/*
 * globals.h: global and static variables are symmetric too.
 *
 * At start-up (before PMIx or UCX start any thread) the executable's writable data and bss
 * are copied into a memory file (heap/memfile.h) and mapped back over the same addresses,
 * MAP_SHARED. On-node peers map that file as they map the heap's, which gives globals the
 * heap's direct load/store path; UCX registration serves remote peers.
 */
#ifndef SSHMEM_GLOBALS_H
#define SSHMEM_GLOBALS_H
#include <stddef.h>

/* Remap this process's global data; sets *base, *size and the memory file's descriptor. */
int sshmem_globals_share(void **base, size_t *size, int *fd);

#endif
