/* lock.h: start-up of the distributed locks (their queue nodes live in symmetric scratch). */
#ifndef SSHMEM_LOCK_H
#define SSHMEM_LOCK_H

/* Reserve this PE's queue nodes; during start-up, on every PE, in the same order. */
void sshmem_lock_init(void);

#endif
