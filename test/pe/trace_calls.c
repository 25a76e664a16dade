/*
 * trace_calls.c: known calls for the timeline's test (trace-test.sh counts them in the
 * trace). On every PE: a ring of three shmem_long_p to the right neighbour, one shmem_long_g
 * from the left one, one shmem_long_atomic_add on PE 0, one shmem_long_put_nbi to the right
 * and its shmem_quiet, three shmem_barrier_all and one shmem_long_wait_until; and between
 * shmem_pcontrol(0) and shmem_pcontrol(1) a fourth shmem_long_p the trace must not show.
 * It fails when its environment would pass the recorder on to programs it starts.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 3

static long box[ROUNDS];
static long counter;
static long landed = -1;
static long unseen;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmem_barrier_all();
    for (int i = 0; i < ROUNDS; i++)
        shmem_long_p(&box[i], me * 10 + i, right);
    shmem_barrier_all();
    long from_left = shmem_long_g(&box[0], left); /* what left's left neighbour wrote */
    shmem_long_atomic_add(&counter, 1, 0);
    long value = me;
    shmem_long_put_nbi(&landed, &value, 1, right);
    shmem_quiet();
    shmem_barrier_all();
    shmem_long_wait_until(&landed, SHMEM_CMP_EQ, left);
    shmem_pcontrol(0); /* the trace pauses ... */
    shmem_long_p(&unseen, 1, right);
    shmem_pcontrol(1); /* ... and goes on */
    int bad = from_left != ((left + npes - 1) % npes) * 10 || (me == 0 && counter != npes);
    if (bad)
        printf("PE %d: wrong values: g %ld, counter %ld\n", me, from_left, counter);
    /* The recorder is in this process, but programs it starts must not inherit it. */
    const char *preload = getenv("LD_PRELOAD");
    if ((preload && strstr(preload, "libsshmem_trace")) || getenv("SSHMEM_TRACE_LOADER")) {
        printf("PE %d: LD_PRELOAD=%s: the recorder would be inherited\n", me, preload);
        bad = 1;
    }
    shmem_finalize();
    return bad;
}
