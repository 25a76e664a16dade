/*
 * lock.c: shmem_set_lock, shmem_test_lock, shmem_clear_lock: an MCS queue lock.
 *
 * The user's symmetric long on PE 0 is the queue's tail: 0 when the lock is free, else the
 * queue node of the last PE that asked for it. Each PE has a few queue nodes in the
 * library's symmetric scratch (one per lock it holds or waits for, so locks nest):
 *  - set: reset our node, swap it into the tail. A previous tail means a queue: tell the
 *    previous PE who comes next (an atomic add into its node's `next`), then wait on OUR
 *    OWN node until it is granted. Waiting is local (no polling of PE 0, which over a
 *    network would be a round trip per poll), and the queue is served in the order the
 *    swaps reached PE 0: first come, first served, as the specification asks.
 *  - clear: quiet (the critical section's stores complete first). No successor known: try
 *    to swing the tail from us back to 0; if that fails one is just linking in, so wait for
 *    it. Then grant the successor's node (an atomic add). Nothing is lost: a grant lands in
 *    the successor's node whether or not it is waiting yet, and it only ever waits on it.
 *  - test: take the lock only if the tail is 0 (compare-and-swap), never wait.
 * The link and the grant are non-fetching atomics: no round trip on the UCX path.
 *
 * Threads (SHMEM_THREAD_MULTIPLE): a lock is held by a PE, so two threads of one PE that
 * want the same lock must not both queue for it. Whether this PE has a node on a lock is
 * asked and answered (claim_node) in one turn of table_mutex; a thread that finds another
 * thread of its PE on the lock waits on table_freed until that node is given back, then
 * queues itself. The same thread asking twice is the non-recursive misuse, reported.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "amo/amo.h"
#include "core/api_defs.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "sync/lock.h"
#include "sync/wait.h"

void pshmem_quiet(void); /* quiet.c */

#define LOCK_HOME_PE 0
#define SLOT_BITS 16 /* of a node's name (SSHMEM_LOCKS_MAX_LIMIT fits) */

/* One queue node; a cache line each, so neighbours' updates do not collide. */
typedef struct {
    uint64_t next;    /* the successor's node (encoded), 0 while none has linked in */
    uint64_t granted; /* non-zero once the predecessor has handed the lock over */
    uint64_t pad[6];
} lock_node_t;
_Static_assert(sizeof(lock_node_t) == SSHMEM_LOCK_NODE_BYTES, "the internal space's unit");
_Static_assert(SSHMEM_LOCKS_MAX_LIMIT < (1 << SLOT_BITS), "a slot fits its name");

static lock_node_t *nodes; /* symmetric: n_nodes on every PE */
static int n_nodes;        /* SSHMEM_LOCKS_MAX: locks one PE may hold or wait for at once */

/* A node's name in the tail and in `next`: (pe + 1) << SLOT_BITS | slot; never 0. */
static uint64_t encode(int pe, unsigned slot) { return (uint64_t)(pe + 1) << SLOT_BITS | slot; }
static int pe_of(uint64_t code) { return (int)(code >> SLOT_BITS) - 1; }
static unsigned slot_of(uint64_t code) { return (unsigned)(code & ((1u << SLOT_BITS) - 1)); }

/* ------------------------------------------------------------------ this PE's bookkeeping */
/* Which nodes are in use, which lock each one is queued on, and which thread queued it
 * (n_nodes entries). Entries from nodes_high on are all free, so the searches stop there: a
 * PE that holds a lock or two looks at one or two entries, however large SSHMEM_LOCKS_MAX is. */
static long **node_lock;
static pthread_t *node_thread;
static int nodes_high;
static pthread_mutex_t table_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t table_freed = PTHREAD_COND_INITIALIZER; /* a node was given back */

void sshmem_lock_init(void)
{
    n_nodes = (int)sshmem_env.locks_max;
    nodes = sshmem_heap_space(SSHMEM_SPACE_LOCKS);
    memset(nodes, 0, (size_t)n_nodes * sizeof *nodes);
    free(node_lock);
    free(node_thread);
    node_lock = calloc((size_t)n_nodes, sizeof *node_lock);
    node_thread = calloc((size_t)n_nodes, sizeof *node_thread);
    nodes_high = 0;
    if (!node_lock || !node_thread)
        sshmem_fatal("shmem_init", "out of memory for %d lock slots (SSHMEM_LOCKS_MAX)", n_nodes);
}

/* The node this PE uses for lock, or -1; called with table_mutex taken. */
static int find_node(const long *lock)
{
    for (int s = 0; s < nodes_high; s++)
        if (node_lock[s] == lock)
            return s;
    return -1;
}

/* A free node, or -1 when all n_nodes are in use; called with table_mutex taken. */
static int free_node_index(void)
{
    int s = find_node(NULL);
    if (s < 0 && nodes_high < n_nodes)
        s = nodes_high++;
    return s;
}

SSHMEM_NORETURN SSHMEM_COLD static void recursive(const long *lock, const char *call)
{
    sshmem_fatal(call, "this PE already holds or waits for the lock at %p; OpenSHMEM locks "
                 "are not recursive (this call would wait for itself forever)", (void *)lock);
}

SSHMEM_NORETURN SSHMEM_COLD static void too_many(const char *call)
{
    sshmem_fatal(call, "this PE already holds or waits for %d locks, the most at once "
                 "(SSHMEM_LOCKS_MAX=%d): clear a lock first, or raise SSHMEM_LOCKS_MAX (at "
                 "most %d; each lock costs %d bytes of symmetric memory per PE)", n_nodes,
                 n_nodes, SSHMEM_LOCKS_MAX_LIMIT, SSHMEM_LOCK_NODE_BYTES);
}

/* Claim a node for lock, reset and marked as queued on it by this thread, in one turn of
 * the table: -1 if this PE already has one on lock and `wait` is 0. With `wait`, another
 * thread's node on lock is waited out (only under SHMEM_THREAD_MULTIPLE: otherwise no other
 * thread can be inside a lock routine to give it back, and it is the misuse reported). */
static int claim_node(long *lock, int wait, const char *call)
{
    const int threads = sshmem.thread_level == SHMEM_THREAD_MULTIPLE;
    pthread_mutex_lock(&table_mutex);
    int s;
    while ((s = find_node(lock)) >= 0) {
        const int mine = !threads || pthread_equal(node_thread[s], pthread_self());
        if (!wait || mine) {
            pthread_mutex_unlock(&table_mutex);
            if (wait)
                recursive(lock, call);
            return -1;
        }
        pthread_cond_wait(&table_freed, &table_mutex);
    }
    s = free_node_index();
    if (s >= 0) {
        node_lock[s] = lock;
        node_thread[s] = pthread_self();
    }
    pthread_mutex_unlock(&table_mutex);
    if (SSHMEM_UNLIKELY(s < 0))
        too_many(call);
    /* Nobody can write to the node before the tail names it (after this). */
    __atomic_store_n(&nodes[s].next, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&nodes[s].granted, 0, __ATOMIC_RELAXED);
    return s;
}

static void free_node(unsigned slot)
{
    pthread_mutex_lock(&table_mutex);
    node_lock[slot] = NULL;
    while (nodes_high > 0 && !node_lock[nodes_high - 1])
        nodes_high--;
    pthread_cond_broadcast(&table_freed);
    pthread_mutex_unlock(&table_mutex);
}

/* ------------------------------------------------------------------ remote updates */
static uint64_t tail_amo(long *lock, sshmem_amo_op_t op, uint64_t operand, uint64_t compare,
                         const char *call)
{
    uint64_t old = sshmem_amo_world(SHMEM_CTX_DEFAULT, lock, op, sizeof(long), operand,
                                    compare, 1, LOCK_HOME_PE, call);
    if (SSHMEM_UNLIKELY(old && ((unsigned)pe_of(old) >= (unsigned)sshmem.n_pes ||
                                slot_of(old) >= (unsigned)n_nodes)))
        sshmem_fatal(call, "the lock at %p holds %#llx, which no lock routine wrote: a lock "
                     "must be 0 on every PE before first use and touched only by "
                     "shmem_set_lock, shmem_test_lock and shmem_clear_lock", (void *)lock,
                     (unsigned long long)old);
    return old;
}

/* A non-fetching add into a field of another PE's node (no round trip through UCX). */
static void node_add(uint64_t code, size_t field_offset, uint64_t value, const char *call)
{
    char *field = (char *)&nodes[slot_of(code)] + field_offset;
    sshmem_amo_world(SHMEM_CTX_DEFAULT, field, SSHMEM_AMO_ADD, sizeof(uint64_t), value, 0, 0,
                     pe_of(code), call);
}

/* ------------------------------------------------------------------ the API */
SSHMEM_DEFINE(void, shmem_set_lock, (long *lock))
{
    const char *call = "shmem_set_lock";
    unsigned slot = (unsigned)claim_node(lock, 1, call);
    uint64_t mine = encode(sshmem.my_pe, slot);
    uint64_t prev = tail_amo(lock, SSHMEM_AMO_SWAP, mine, 0, call);
    if (prev == 0)
        return; /* the lock was free */
    node_add(prev, offsetof(lock_node_t, next), mine, call);
    SSHMEM_WAIT_UNTIL_AT(__atomic_load_n(&nodes[slot].granted, __ATOMIC_ACQUIRE) != 0, call, lock);
}

SSHMEM_DEFINE(int, shmem_test_lock, (long *lock))
{
    const char *call = "shmem_test_lock";
    /* Programs loop on test_lock: serve what others ask of this PE meanwhile (the holder may
     * be waiting for an emulated get or put from us, and an operation on our own memory
     * can complete without ever progressing UCX). */
    if (sshmem.ucx_in_use)
        sshmem_tx_progress();
    int s = claim_node(lock, 0, call);
    if (s < 0)
        return 1; /* set, by this PE */
    unsigned slot = (unsigned)s;
    uint64_t mine = encode(sshmem.my_pe, slot);
    if (tail_amo(lock, SSHMEM_AMO_CSWAP, mine, 0, call) != 0) {
        free_node(slot);
        return 1;
    }
    return 0;
}

SSHMEM_DEFINE(void, shmem_clear_lock, (long *lock))
{
    const char *call = "shmem_clear_lock";
    pthread_mutex_lock(&table_mutex);
    int s = find_node(lock);
    pthread_mutex_unlock(&table_mutex);
    if (SSHMEM_UNLIKELY(s < 0))
        sshmem_fatal(call, "this PE does not hold the lock at %p; call shmem_clear_lock only "
                     "after shmem_set_lock, or after shmem_test_lock returned 0", (void *)lock);
    unsigned slot = (unsigned)s;
    uint64_t mine = encode(sshmem.my_pe, slot);

    pshmem_quiet(); /* the critical section's puts and atomics are complete and visible */
    uint64_t next = __atomic_load_n(&nodes[slot].next, __ATOMIC_ACQUIRE);
    if (next == 0) {
        if (tail_amo(lock, SSHMEM_AMO_CSWAP, 0, mine, call) == mine) {
            free_node(slot); /* nobody queued behind us: the lock is free */
            return;
        }
        /* Someone swapped in after us and is about to link: wait for its name. */
        SSHMEM_WAIT_UNTIL_AT((next = __atomic_load_n(&nodes[slot].next, __ATOMIC_ACQUIRE)) != 0,
                             call, lock);
    }
    node_add(next, offsetof(lock_node_t, granted), 1, call);
    free_node(slot);
}
