/*
 * launcher_silent.c: the program of launcher-silent-test.sh. PE 0 first reaches PE 3 (whose
 * card it has not fetched yet: nothing before touches PE 3 from PE 0) only when the test
 * says go, after the test has stopped the launcher; the card fetch then meets a launcher that
 * does not answer and must end the job with a message naming the call and the peer.
 *
 * Usage: launcher_silent DIR, at 2+2 PEs over two hosts (netns-test.sh): PE 3 is on the other
 * host and not its node's leader, so start-up and the collectives before reach it from PE 0
 * neither. (On one host PMIx answers a fetch from its shared store, without the launcher.)
 * PE 0 writes DIR/ready after start-up, waits for DIR/go, then puts to PE 3 and writes
 * DIR/reached. The others wait for DIR/reached outside the library (an sshmem wait would
 * report a hang of its own meanwhile), at most a minute, then meet in a barrier.
 */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

static long target;

static void touch(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

static int exists(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    shmem_init();
    if (shmem_n_pes() < 4) {
        fprintf(stderr, "launcher_silent: needs 4 PEs or more\n");
        shmem_global_exit(2);
    }
    if (shmem_my_pe() == 0) {
        touch(argv[1], "ready");
        while (!exists(argv[1], "go"))
            usleep(1000);
        shmem_long_p(&target, 1, 3);
        shmem_quiet();
        touch(argv[1], "reached"); /* the fetch answered: the test fails */
    } else {
        for (int i = 0; i < 60000 && !exists(argv[1], "reached"); i++)
            usleep(1000);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
