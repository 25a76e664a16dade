/*
 * ring.c: a token travels round the ring of PEs, several laps.
 *
 * What it teaches
 *   - a symmetric variable (a global here) is the mailbox every PE has at the same address;
 *   - shmem_int_p writes ONE value straight into another PE's memory (a one-sided put: the
 *     target does not call anything to receive it);
 *   - shmem_int_wait_until is how the target notices: it waits until its own copy changes.
 *
 * PE 0 starts with the token 0. Each PE that receives the token adds one and passes it to its
 * right neighbour (me + 1, wrapping round). After LAPS laps the token is back on PE 0 and must
 * equal LAPS * npes: every PE added one on every lap, none twice, none skipped.
 *
 *   oshcc ring.c -o ring && oshrun -np 4 ./ring
 */
#include <shmem.h>
#include <stdio.h>

#define LAPS 3

/*
 * The mailbox. A global (or static) variable is symmetric: it exists on every PE, so a PE can
 * name "the mailbox on PE 3" with &mailbox and the number 3. -1 means "empty".
 * The token value of each visit is different (it grows), so a waiting PE can wait for the
 * exact value it expects and is never fooled by an old one.
 */
static int mailbox = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes;

    /* Nobody may write into a mailbox before its owner has started: the first barrier makes
     * sure every PE is past shmem_init and has mailbox == -1. */
    shmem_barrier_all();

    int ok = 1;
    for (int lap = 0; lap < LAPS; lap++) {
        /* The value this PE receives on this lap: PE 0 made lap * npes hops so far, and the
         * token was incremented once per hop; PE me receives it me hops later. */
        int expected = lap * npes + me;
        if (me == 0 && lap == 0) {
            mailbox = 0; /* PE 0 holds the token at the start */
        } else {
            /* Block until our copy of mailbox holds the token for this lap. wait_until polls
             * local memory: the put from the left neighbour changes it behind our back. */
            shmem_int_wait_until(&mailbox, SHMEM_CMP_EQ, expected);
        }
        if (mailbox != expected) {
            printf("PE %d lap %d: token %d, expected %d\n", me, lap, mailbox, expected);
            ok = 0;
        }
        /* Pass it on, one larger. A single int: shmem_int_p is the cheapest put there is. */
        shmem_int_p(&mailbox, expected + 1, right);
    }

    /* The last hop lands on PE 0: wait for it (LAPS laps of npes hops each). */
    if (me == 0) {
        shmem_int_wait_until(&mailbox, SHMEM_CMP_EQ, LAPS * npes);
        printf("token after %d laps of %d PEs: %d (expected %d): %s\n", LAPS, npes, mailbox,
               LAPS * npes, mailbox == LAPS * npes && ok ? "OK" : "WRONG");
        ok = ok && mailbox == LAPS * npes;
    }

    /* Do not leave while a neighbour may still be writing to us. */
    shmem_barrier_all();
    shmem_finalize();
    return !ok;
}
