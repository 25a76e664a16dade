/*
 * hold.c: the program behind test/pe/security-test.sh. Every PE starts (shmem_init, a
 * symmetric allocation, a barrier), then PE 0 creates the file argv[1] and all wait until the
 * file argv[2] exists (at most 60 s), so the test can look at a running job from outside:
 * its shared memory, its sockets, its PMIx server. Then a put around the ring checks the job
 * still works, and every PE finalizes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "check.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: hold READY_FILE GO_FILE\n");
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *slot = shmem_malloc(sizeof *slot);
    *slot = -1;
    shmem_barrier_all();
    if (me == 0)
        close(open(argv[1], O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
    for (int i = 0; i < 6000 && access(argv[2], F_OK) != 0; i++)
        usleep(10000);
    shmem_long_p(slot, me, (me + 1) % n);
    shmem_barrier_all();
    CHECK_EQ_LONG(*slot, (me + n - 1) % n, "the left neighbour's put");
    shmem_free(slot);
    return check_finish();
}
