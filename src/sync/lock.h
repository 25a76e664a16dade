/* lock.h: start-up of the distributed locks (their queue nodes live in symmetric scratch). */
#ifndef SSHMEM_LOCK_H
#define SSHMEM_LOCK_H

/* One queue node (a cache line): the unit of the internal space's lock part, of which there
 * are SSHMEM_LOCKS_MAX (core/space.h). */
#define SSHMEM_LOCK_NODE_BYTES 64

/* Take this PE's queue nodes from the internal space (start-up, every PE). */
void sshmem_lock_init(void);

#endif
