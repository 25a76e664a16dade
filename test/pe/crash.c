/*
 * crash.c: the program behind test/launcher/crash-test.sh. The last PE dies the way argv[1]
 * says (segv, exit, abort, global_exit) while the others wait in a barrier; oshrun must end
 * the job promptly with a non-zero status and leave nothing behind.
 */
#include <signal.h>
#include <unistd.h>
#include "check.h"

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "segv";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_barrier_all();
    if (me == npes - 1) {
        if (!strcmp(how, "segv"))
            raise(SIGSEGV);
        else if (!strcmp(how, "exit"))
            exit(3);
        else if (!strcmp(how, "global_exit"))
            shmem_global_exit(7);
        else if (!strcmp(how, "kill"))
            raise(SIGKILL);
    }
    shmem_barrier_all(); /* the survivors wait here for a PE that never comes */
    shmem_finalize();
    return 0;
}
