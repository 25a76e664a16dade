/*
 * exchange_blocks.h: the moves of blocks that every path of the exchange makes alike (the
 * linear exchange in exchange.c and the Bruck steps of allgather_bruck.c and
 * alltoall_bruck.c): the block from a PE to itself, a block put with a signal, and the names
 * of counts in messages. Private to src/mpix.
 */
#ifndef SSHMEM_MPIX_EXCHANGE_BLOCKS_H
#define SSHMEM_MPIX_EXCHANGE_BLOCKS_H
#include <stddef.h>

#include "mpix/exchange_slots.h"

/* The block from member i, count elements by its sender: checked against this PE's count for
 * it (a clear error naming both otherwise), and unpacked into dest from data unless data is
 * NULL (a block that comes, or came, another way). */
void xchg_take(const xchg_t *x, int i, uint64_t count, const void *data);
/* The block from this PE to itself (reports a count that does not match). */
void xchg_self_block(xchg_t *x);

/* count elements from local origin to the same layout at tgt on member j, then a signal to
 * j's flag slot (one message where UCX emulates RMA). */
void xchg_put_block_signal(xchg_t *x, int j, const coll_buf_t *tgt, const char *origin,
                           size_t count, int slot);

#endif
