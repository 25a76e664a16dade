/*
 * lock.c: shmem_set_lock, shmem_test_lock, shmem_clear_lock.
 *
 * A ticket lock whose whole state is the user's symmetric long on PE 0 (the copies on the
 * other PEs are not used): the high 32 bits are the next ticket to hand out, the low 32 bits
 * the ticket now served. 0 is "free, nobody waiting", which is why the user initialises the
 * lock to 0.
 *  - set: a fetch-add of one ticket, then poll the word until it serves that ticket. Tickets
 *    are served in the order they were taken: first come, first served, as the
 *    specification asks, and there is no wake-up to lose (waiters read, nobody signals).
 *  - test: take a ticket only if the lock is free (compare-and-swap), never wait.
 *  - clear: quiet (the critical section's stores complete first), then serve the next ticket.
 * Polling a word on PE 0 is a load on the direct path; through UCX each poll is a round trip,
 * so waiters further back in the queue poll less often (proportional back-off).
 *
 * Locks are independent of each other (nesting works); this PE remembers the tickets it holds
 * so that releasing needs no extra round trip and misuse is reported, not deadlocked on.
 */
#include <pthread.h>
#include <stdlib.h>
#include <shmem.h>

#include "amo/amo.h"
#include "core/api_defs.h"
#include "core/error.h"
#include "sync/wait.h"

_Static_assert(sizeof(long) == 8, "the ticket lock packs two 32-bit counters in a long");

void pshmem_quiet(void); /* quiet.c */

#define LOCK_HOME_PE 0
#define ONE_TICKET ((uint64_t)1 << 32)
#define TICKET_OF(word) ((uint32_t)((word) >> 32))
#define SERVING_OF(word) ((uint32_t)(word))

/* ------------------------------------------------------------------ locks this PE holds */
typedef struct {
    long *lock;
    uint32_t ticket;
} held_lock_t;

static held_lock_t *held;
static size_t n_held, cap_held;
static pthread_mutex_t held_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Index of lock in the table, or -1; called with held_mutex taken. */
static long find_held(const long *lock)
{
    for (size_t i = 0; i < n_held; i++)
        if (held[i].lock == lock)
            return (long)i;
    return -1;
}

static int is_held(const long *lock)
{
    pthread_mutex_lock(&held_mutex);
    int found = find_held(lock) >= 0;
    pthread_mutex_unlock(&held_mutex);
    return found;
}

static void remember(long *lock, uint32_t ticket, const char *call)
{
    pthread_mutex_lock(&held_mutex);
    if (n_held == cap_held) {
        size_t cap = cap_held ? 2 * cap_held : 8;
        held_lock_t *grown = realloc(held, cap * sizeof *held);
        if (!grown)
            sshmem_fatal(call, "out of memory for the table of held locks");
        held = grown;
        cap_held = cap;
    }
    held[n_held++] = (held_lock_t){lock, ticket};
    pthread_mutex_unlock(&held_mutex);
}

/* Remove lock from the table and return its ticket; a clear without a set is an error. */
static uint32_t forget(long *lock, const char *call)
{
    pthread_mutex_lock(&held_mutex);
    long i = find_held(lock);
    if (i < 0) {
        pthread_mutex_unlock(&held_mutex);
        sshmem_fatal(call, "this PE does not hold the lock at %p; call shmem_clear_lock only "
                     "after shmem_set_lock, or after shmem_test_lock returned 0", (void *)lock);
    }
    uint32_t ticket = held[i].ticket;
    held[i] = held[--n_held];
    pthread_mutex_unlock(&held_mutex);
    return ticket;
}

/* ------------------------------------------------------------------ the lock word on PE 0 */
static uint64_t word_amo(long *lock, sshmem_amo_op_t op, uint64_t operand, uint64_t compare,
                         const char *call)
{
    return sshmem_amo(SHMEM_CTX_DEFAULT, lock, op, sizeof(long), operand, compare, 1,
                      LOCK_HOME_PE, call);
}

/* Wait for our ticket: poll the word, backing off by our distance from the head. */
static void wait_for_turn(long *lock, uint32_t ticket, uint32_t serving, const char *call)
{
    int polls_are_remote = !sshmem.peers[LOCK_HOME_PE].direct[SSHMEM_REGION_HEAP] ||
                           !sshmem.amo_cpu;
    unsigned polls = 0;
    while (serving != ticket) {
        uint32_t distance = ticket - serving; /* modulo 2^32, like the tickets */
        unsigned steps = polls_are_remote ? 4 * (distance < 16 ? distance : 16) : 1;
        for (unsigned s = 0; s < steps; s++)
            sshmem_wait_step(&polls);
        serving = SERVING_OF(word_amo(lock, SSHMEM_AMO_FETCH, 0, 0, call));
    }
}

SSHMEM_DEFINE(void, shmem_set_lock, (long *lock))
{
    const char *call = "shmem_set_lock";
    if (SSHMEM_UNLIKELY(is_held(lock)))
        sshmem_fatal(call, "this PE already holds the lock at %p; OpenSHMEM locks are not "
                     "recursive (this call would wait for itself forever)", (void *)lock);
    uint64_t word = word_amo(lock, SSHMEM_AMO_ADD, ONE_TICKET, 0, call);
    wait_for_turn(lock, TICKET_OF(word), SERVING_OF(word), call);
    remember(lock, TICKET_OF(word), call);
}

SSHMEM_DEFINE(int, shmem_test_lock, (long *lock))
{
    const char *call = "shmem_test_lock";
    if (is_held(lock))
        return 1;
    uint64_t word = word_amo(lock, SSHMEM_AMO_FETCH, 0, 0, call);
    if (TICKET_OF(word) != SERVING_OF(word))
        return 1; /* held, maybe with waiters */
    /* Free: take the next ticket only if nobody else changed the word in between. */
    uint64_t seen = word_amo(lock, SSHMEM_AMO_CSWAP, word + ONE_TICKET, word, call);
    if (seen != word)
        return 1;
    remember(lock, TICKET_OF(word), call);
    return 0;
}

SSHMEM_DEFINE(void, shmem_clear_lock, (long *lock))
{
    const char *call = "shmem_clear_lock";
    uint32_t ticket = forget(lock, call);
    pshmem_quiet(); /* the critical section's puts and atomics are complete and visible */
    /* Serve the next ticket: add 1 to the low half. When it wraps from 2^32-1 to 0 the carry
     * would bump the ticket half, so add 1 - 2^32 instead (the carry cancels). Fetching, so
     * the release has landed before we return (waiters do not depend on our progress). */
    uint64_t add = ticket == UINT32_MAX ? (uint64_t)1 - ONE_TICKET : 1;
    word_amo(lock, SSHMEM_AMO_ADD, add, 0, call);
}
