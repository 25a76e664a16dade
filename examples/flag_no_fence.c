/*
 * flag_no_fence.c: data, then a flag, WITHOUT shmem_fence between them. This program is wrong
 * on purpose: it is the classic ordering bug of one-sided programming. flag_fence.c is the
 * same program, corrected.
 *
 * What it teaches
 *   - a put returns when its SOURCE may be reused, not when the data has arrived: the data may
 *     still be on its way when the next call starts;
 *   - two operations to the same PE (here a put of data and an atomic set of a flag) may
 *     arrive in either order unless shmem_fence separates them;
 *   - so a PE that sees the flag may still read old data: "stale data";
 *   - why the bug hides on a laptop: there a put to a PE on the same host is a memcpy that is
 *     complete when the call returns, so the data always lands first. Over a network (RDMA
 *     adapters, several lanes, retransmissions) it does not. sshmem's weak-ordering mode,
 *     oshrun --weak=SEED, delivers puts and atomics as late and in as many pieces as the
 *     OpenSHMEM memory model allows, so the bug shows on the laptop too.
 *
 * Every PE sends ROUNDS rounds to its right neighbour (me + 1, wrapping round): NELEMS longs
 * whose values depend on the round, then the flag set to the round number + 1. Every PE waits
 * for its own flag to reach that value, then checks every element it received from its left
 * neighbour. An element that still holds an older round's value means the flag overtook the
 * data. A barrier ends each round, so the next round's data cannot overwrite what a PE is
 * still checking.
 *
 *   oshcc flag_no_fence.c -o flag_no_fence
 *   oshrun -np 2 ./flag_no_fence              # usually OK: the laptop hides the bug
 *   oshrun -np 2 --weak=3 ./flag_no_fence     # delivered as a network may: stale data
 *
 * Exit status: 0 when every element of every round was fresh, 1 when some PE saw stale data.
 */
#include <shmem.h>
#include <stdio.h>

#define NELEMS 64  /* longs of data per round: 512 bytes, more than one piece on a network */
#define ROUNDS 100 /* many rounds: each is a new chance for the flag to overtake the data */

/*
 * The symmetric buffers (globals are symmetric): data receives the left neighbour's array,
 * flag says which round's data has been sent. flag only grows (round + 1), so a PE waiting for
 * round r is never fooled by the flag of an earlier round.
 */
static long data[NELEMS];
static long flag;
static long stale_rounds, total_stale; /* rounds with stale data: this PE's, then all PEs' */

/* The value element i carries in round r; different in every round, so an old one shows. */
static long value(int r, int i) { return (long)(r + 1) * 1000 + i; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[NELEMS]; /* private: the local side of a put may be any memory */

    if (npes < 2 && me == 0)
        printf("flag_no_fence: run it on 2 or more PEs (oshrun -np 2 ./flag_no_fence): "
               "on 1 PE every put goes to this PE itself and lands at once\n");

    /* Nobody writes into a PE before it has started. */
    shmem_barrier_all();

    int reported = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < NELEMS; i++)
            src[i] = value(r, i);

        /* The data, then the flag. shmem_long_put returns once src may be reused: the data
         * may not have reached the right neighbour yet. */
        shmem_long_put(data, src, NELEMS, right);

        /* THE BUG: nothing orders the flag after the data, so the flag may arrive first.
         * flag_fence.c puts shmem_fence() here. (The flag is set with an atomic: the
         * specification's wait routines expect a variable that other PEs update atomically.) */
        shmem_long_atomic_set(&flag, r + 1, right);

        /* Receive: wait until the left neighbour's flag for this round is here ... */
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 1);

        /* ... and trust that the data is here too. Without a fence that is a gamble. */
        for (int i = 0; i < NELEMS; i++) {
            if (data[i] != value(r, i)) {
                if (!reported)
                    printf("PE %d saw stale data at element %d in round %d: the flag arrived "
                           "before the data (found %ld, expected %ld, from PE %d). Put "
                           "shmem_fence() between the data and the flag.\n",
                           me, i, r, data[i], value(r, i), left);
                reported = 1;
                stale_rounds++;
                break;
            }
        }

        /* The barrier completes every put and atomic of this round (a barrier includes a
         * quiet) and keeps the next round's data from landing while a PE still checks. */
        shmem_barrier_all();
    }

    /* Every PE learns how many rounds went wrong anywhere, so all exit with the same status. */
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total_stale, &stale_rounds, 1);
    if (me == 0) {
        if (total_stale == 0)
            printf("flag_no_fence: %d rounds of %d longs to the right neighbour on %d PEs, "
                   "every element fresh: OK (this time: the program lacks a shmem_fence, "
                   "which oshrun --weak=SEED shows)\n", ROUNDS, NELEMS, npes);
        else
            printf("flag_no_fence: stale data in %ld rounds (summed over the PEs) of %d: "
                   "FAILED. flag_fence.c is the corrected program.\n", total_stale, ROUNDS);
    }
    /* Out before shmem_finalize: once a PE exits with 1, oshrun ends the others, and a line
     * still in a PE's buffer would be lost. */
    fflush(stdout);
    shmem_finalize();
    return total_stale != 0;
}
