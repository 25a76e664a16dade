/*
 * memfile.h: the one way a PE shares memory with the other PEs of its host: a memory file
 * (memfd) that it maps MAP_SHARED and that node mates map through /proc/<pid>/fd/<fd>.
 *
 * A memory file has no name in any table of the host (no SysV segment, no /dev/shm entry):
 * it vanishes with the last process that holds or maps it, however the job ends, so nothing
 * of a job killed at any moment is left behind, and there is no per-host count of segments
 * to run out of. Only the same user can open another process's /proc/<pid>/fd. Pages are
 * made when first touched: a large heap costs address space, not memory, until used.
 * Used for the global data (globals.c) and the symmetric heap (heap.c).
 */
#ifndef SSHMEM_MEMFILE_H
#define SSHMEM_MEMFILE_H
#include <stddef.h>
#include <sys/types.h>

/* A memory file of size bytes (its pages not made yet); its descriptor, or -1 with a
 * sentence in why[] that names the failing call and the limit to raise. what: what the
 * file is for, for the message ("symmetric heap"). */
int sshmem_memfile_create(const char *name, size_t size, const char *what, char *why,
                          size_t why_len);
/* Map the file fd (size bytes) shared, at `at` exactly when at is not NULL (replacing what is
 * mapped there, e.g. a reservation). NULL with why[] filled on failure. */
void *sshmem_memfile_map(int fd, size_t size, void *at, const char *what, char *why,
                         size_t why_len);
/* Map an on-node peer's memory file (pid and fd from its card); NULL on failure, with why[]
 * filled and errno kept. */
void *sshmem_memfile_map_peer(pid_t pid, int fd, size_t size, const char *what, char *why,
                              size_t why_len);
/* Whether a failure (errno) is a limit of this process or host that the user can raise,
 * rather than a node mate's files being out of reach (another user, no /proc). */
int sshmem_memfile_limit(int err);

#endif
