/*
 * pshmem_header.c: the installed profiling headers and the specification's mpp/ headers.
 * A profiling tool's way of working: this program defines shmem_long_p and shmem_barrier_all
 * itself, counts the calls, and passes them on to pshmem_long_p and pshmem_barrier_all,
 * declared by <pshmem.h> (the typed twins come from the same type tables as shmem.h). The
 * values prove the calls went through, and the counts that the program's own definitions
 * were used.
 */
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <pshmem.h>
#include <pshmemx.h>
#include <stdio.h>

static int puts_seen, barriers_seen;

void shmem_long_p(long *dest, long value, int pe)
{
    puts_seen++;
    pshmem_long_p(dest, value, pe);
}

void shmem_barrier_all(void)
{
    barriers_seen++;
    pshmem_barrier_all();
}

static long target;
static int itarget;

int main(void)
{
    pshmem_init();
    int me = pshmem_my_pe(), npes = pshmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmem_long_p(&target, 100 + me, right);
    pshmem_int_p(&itarget, 7, right); /* a typed twin of the tables */
    shmem_barrier_all();
    int bad = 0;
    if (target != 100 + left || itarget != 7) {
        fprintf(stderr, "PE %d: got %ld and %d, expected %d and 7\n", me, target, itarget,
                100 + left);
        bad = 1;
    }
    if (puts_seen != 1 || barriers_seen != 1) {
        fprintf(stderr, "PE %d: the tool saw %d puts and %d barriers, expected 1 and 1\n", me,
                puts_seen, barriers_seen);
        bad = 1;
    }
    /* an extension's twin, from <pshmemx.h> */
    if (pshmemx_error_string(0) == NULL) {
        fprintf(stderr, "PE %d: pshmemx_error_string(0) is NULL\n", me);
        bad = 1;
    }
    pshmem_finalize();
    return bad;
}
