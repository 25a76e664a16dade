/*
 * crash.c: the program behind test/launcher/crash-test.sh. The last PE dies the way argv[1]
 * says (segv, exit, global_exit, kill, no_finalize: returns 0 without shmem_finalize) while
 * the others wait in a barrier; oshrun must end the job promptly with a non-zero status and
 * leave nothing behind. Two more endings involve every PE: all_no_finalize (every PE returns
 * without shmem_finalize: a failure too) and all_global_exit (every PE calls
 * shmem_global_exit(0): a normal end).
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
        else if (!strcmp(how, "no_finalize"))
            return 0;
    }
    if (!strcmp(how, "all_no_finalize"))
        return 0;
    if (!strcmp(how, "all_global_exit"))
        shmem_global_exit(0);
    shmem_barrier_all(); /* the survivors wait here for a PE that never comes */
    shmem_finalize();
    return 0;
}
