/*
 * reduce_handoff.h: how the message-passing reductions (reduce.c, reduce_tree.c) hand a
 * vector to a member: into the receiver's landing buffer once it says the buffer is free (a
 * READY flag), or, where the receiver is reached by messages, straight into a place of its
 * own that it names in the READY value.
 */
#ifndef SSHMEM_COLL_REDUCE_HANDOFF_H
#define SSHMEM_COLL_REDUCE_HANDOFF_H

#include <stdint.h>

#include "coll/engine.h"
#include "coll/slots.h"

/* Send len bytes into member q's work buffer once q says it is free, then flag it. Where q
 * is reached by messages, q may name another address of its own instead (recv_in_place). */
static inline void send_to_work(coll_t *c, int q, int ready_slot, int data_slot,
                                const void *data, size_t len)
{
    const long where = coll_recv_value(c, ready_slot); /* 0: the work buffer */
    if (where)
        coll_put_signal_at(c, q, (uint64_t)where, data, len, data_slot);
    else
        coll_put_signal(c, q, &c->land, 0, data, len, data_slot);
}

/* Tell member q our work buffer is free, and wait for its data there. */
static inline void recv_in_work(coll_t *c, int q, int ready_slot, int data_slot)
{
    coll_signal(c, q, ready_slot);
    coll_wait(c, data_slot, 1);
}

/* Where member q's writes are messages, ask q to send straight into `at` (any memory of this
 * PE) and wait for the data there: returns 1. 0 where q's writes are puts (they need
 * symmetric memory); then use recv_in_work. */
static inline int recv_in_place(coll_t *c, int q, int ready_slot, int data_slot, char *at)
{
    if (!coll_messages_to(c, q))
        return 0;
    coll_send_value(c, q, ready_slot, (long)(uintptr_t)at);
    coll_wait(c, data_slot, 1);
    return 1;
}

#endif
