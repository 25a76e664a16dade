/*
 * heap_file.h: the symmetric heap as a memory file of sshmem's own, for jobs whose on-node
 * peers all reach it by load and store (see heap.c for when UCX allocates it instead).
 */
#ifndef SSHMEM_HEAP_FILE_H
#define SSHMEM_HEAP_FILE_H
#include <stddef.h>

/* Map a new memory file of `size` bytes at an address aligned to `align` (a power of two)
 * when there is room for that, else anywhere. Sets *fd (close-on-exec; peers open it through
 * /proc/PID/fd). On failure ends the job, naming the limit that stopped it. */
void *sshmem_heap_file_map(size_t size, size_t align, int *fd);

#endif
