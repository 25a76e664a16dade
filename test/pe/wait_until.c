/*
 * wait_until.c: point-to-point synchronization. A token goes round the ring many times,
 * each hop a put of data then a flag that the next PE waits for with wait_until (int and
 * long); and a PE spinning with plain loads on a local flag sees a put arrive.
 */
#include "check.h"

#define LAPS 50

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes;
    long *flag = shmem_calloc(1, sizeof *flag);
    int *iflag = shmem_calloc(1, sizeof *iflag);
    long *data = shmem_calloc(16, sizeof *data);
    shmem_barrier_all();

    /* Token ring: PE 0 starts each lap; each hop carries the lap number in the data. */
    for (long lap = 1; lap <= LAPS; lap++) {
        if (!(me == 0 && lap == 1)) {
            shmem_long_wait_until(flag, SHMEM_CMP_GE, me == 0 ? lap - 1 : lap);
            for (int i = 0; i < 16; i++)
                CHECK(data[i] == (me == 0 ? lap - 1 : lap) * 100 + i, "lap %ld data %d = %ld",
                      lap, i, data[i]);
        }
        long out[16];
        for (int i = 0; i < 16; i++)
            out[i] = lap * 100 + i;
        shmem_long_put(data, out, 16, right);
        shmem_fence(); /* data before flag */
        shmem_long_p(flag, lap, right);
    }
    if (me == 0)
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, LAPS);
    shmem_barrier_all();

    /* int flag with every comparison operator */
    shmem_int_p(iflag, 5, right);
    shmem_int_wait_until(iflag, SHMEM_CMP_EQ, 5);
    shmem_int_wait_until(iflag, SHMEM_CMP_NE, 4);
    shmem_int_wait_until(iflag, SHMEM_CMP_GT, 4);
    shmem_int_wait_until(iflag, SHMEM_CMP_GE, 5);
    shmem_int_wait_until(iflag, SHMEM_CMP_LT, 6);
    shmem_int_wait_until(iflag, SHMEM_CMP_LE, 5);
    CHECK(shmem_int_test(iflag, SHMEM_CMP_EQ, 5), "test EQ");
    CHECK(!shmem_int_test(iflag, SHMEM_CMP_NE, 5), "test NE");
    shmem_barrier_all();

    /* plain loads: a volatile spin on the local flag (no library call) sees the put */
    *iflag = 0;
    shmem_barrier_all();
    if (npes > 1 && !on_tcp()) {
        shmem_int_p(iflag, 42, right);
        volatile int *v = iflag;
        while (*v != 42)
            ;
        CHECK(*v == 42, "plain-load spin");
    }
    shmem_barrier_all();
    shmem_free(flag);
    shmem_free(iflag);
    shmem_free(data);
    return check_finish();
}
