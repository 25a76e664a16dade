/*
 * flag_fence.c: data, shmem_fence, then a flag: the correct form of flag_no_fence.c (the two
 * programs differ only in the fence and these comments: diff them).
 *
 * What it teaches
 *   - shmem_fence() orders delivery: every put, atomic and put-with-signal this PE issued to a
 *     PE before the fence is delivered to that PE before any it issues to the same PE after
 *     the fence. So a PE that sees the flag is sure to see the data too;
 *   - a fence does NOT wait for anything to arrive (that is shmem_quiet): it only keeps the
 *     order, which is often cheaper;
 *   - the one-call alternative: shmem_long_put_signal writes the data and then updates a
 *     signal word, which changes only after the data has landed (see the end of this file
 *     and heat.c).
 *
 * Every PE sends ROUNDS rounds to its right neighbour (me + 1, wrapping round): NELEMS longs
 * whose values depend on the round, a fence, then the flag set to the round number + 1. Every
 * PE waits for its own flag to reach that value, then checks every element it received from
 * its left neighbour. A barrier ends each round, so the next round's data cannot overwrite
 * what a PE is still checking.
 *
 *   oshcc flag_fence.c -o flag_fence
 *   oshrun -np 2 ./flag_fence                 # OK
 *   oshrun -np 2 --weak=3 ./flag_fence        # OK too, under every seed: the fence holds
 *
 * Exit status: 0 when every element of every round was fresh, 1 when some PE saw stale data
 * (which would be a bug in the library, not in this program).
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
        printf("flag_fence: run it on 2 or more PEs (oshrun -np 2 ./flag_fence): "
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

        /* THE FIX: the fence keeps the order. The flag below reaches the right neighbour only
         * after the data above; the data may still be on its way when the fence returns, but
         * it can no longer be overtaken. (shmem_quiet would work too, but it waits until the
         * data has arrived: more than this program needs.) */
        shmem_fence();

        /* The flag is set with an atomic: the specification's wait routines expect a variable
         * that other PEs update atomically. */
        shmem_long_atomic_set(&flag, r + 1, right);

        /* Receive: wait until the left neighbour's flag for this round is here; the fence on
         * the left neighbour means its data is here too. */
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r + 1);

        for (int i = 0; i < NELEMS; i++) {
            if (data[i] != value(r, i)) {
                if (!reported)
                    printf("PE %d saw stale data at element %d in round %d although a "
                           "shmem_fence separates the data from the flag (found %ld, "
                           "expected %ld, from PE %d): a bug in the library, please report "
                           "it.\n", me, i, r, data[i], value(r, i), left);
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
            printf("flag_fence: %d rounds of %d longs to the right neighbour on %d PEs, "
                   "every element fresh: OK\n", ROUNDS, NELEMS, npes);
        else
            printf("flag_fence: stale data in %ld rounds (summed over the PEs) of %d: "
                   "FAILED\n", total_stale, ROUNDS);
    }
    /* Out before shmem_finalize: once a PE exits with 1, oshrun ends the others, and a line
     * still in a PE's buffer would be lost. */
    fflush(stdout);
    shmem_finalize();
    return total_stale != 0;
}

/*
 * The one-call alternative, put-with-signal. The signal word must be a uint64_t, and
 * shmem_signal_wait_until waits on it:
 *
 *     static uint64_t sig;
 *     ...
 *     shmem_long_put_signal(data, src, NELEMS, &sig, r + 1, SHMEM_SIGNAL_SET, right);
 *     shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, r + 1);
 *
 * The library guarantees that sig changes only after the data has landed: no fence and no
 * flag call of your own, and no way to forget them. (OpenSHMEM lets an implementation send
 * the data and the signal as one network message; sshmem sends the data, makes sure it has
 * landed, then updates the signal.)
 */
