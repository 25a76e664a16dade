/*
 * fault.c: the program behind test/pe/fault-test.sh. Every PE loops in one kind of operation,
 * named by argv[2], until the script SIGKILLs one of them; the others must then be ended by
 * oshrun within 2 s, wherever they are:
 *   init     start-up only, then barriers (the script kills a PE before shmem_init returns)
 *   put      a stream of puts and non-blocking puts to the next PE, quiet now and then
 *   barrier  shmem_barrier_all
 *   reduce   sum reductions on SHMEM_TEAM_WORLD
 *   bcast    broadcasts on SHMEM_TEAM_WORLD
 *   wait     shmem_wait_until for a flag nobody sets
 * The PE writes its pid to DIR/pe<rank>.pid at the start of main and creates DIR/pe<rank>.ready
 * once shmem_init has returned, so the script knows whom to kill and when. A PE that is still
 * looping after 30 s gives up (status 3; except in wait, where the script's timeout ends it).
 * Usage: fault DIR PHASE
 */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define PUT_BYTES 4096
#define GIVE_UP_S 30

static void write_file(const char *dir, const char *rank, const char *suffix, const char *text)
{
    char path[4096], tmp[4100];
    snprintf(path, sizeof path, "%s/pe%s.%s", dir, rank, suffix);
    snprintf(tmp, sizeof tmp, "%s.t", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        exit(4);
    }
}

static int expired(time_t start)
{
    return time(NULL) - start > GIVE_UP_S;
}

static long flag, src[4], dst[4];
static char put_buf[PUT_BYTES];

static void loop(const char *phase, time_t start)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), next = (me + 1) % npes;
    char local[PUT_BYTES];
    memset(local, me, sizeof local);
    for (long i = 0; !expired(start); i++) {
        if (!strcmp(phase, "put")) {
            if (i % 2)
                shmem_putmem(put_buf, local, sizeof local, next);
            else
                shmem_putmem_nbi(put_buf, local, sizeof local, next);
            if (i % 16 == 0)
                shmem_quiet();
        } else if (!strcmp(phase, "reduce")) {
            src[0] = me + i;
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
        } else if (!strcmp(phase, "bcast")) {
            src[0] = i;
            shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, (int)(i % npes));
        } else if (!strcmp(phase, "wait")) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1); /* nobody sets it */
        } else { /* init, barrier */
            shmem_barrier_all();
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fault DIR init|put|barrier|reduce|bcast|wait\n");
        return 2;
    }
    time_t start = time(NULL);
    const char *rank = getenv("PMIX_RANK"); /* set by the launcher before shmem_init */
    char text[32];
    snprintf(text, sizeof text, "%ld\n", (long)getpid());
    write_file(argv[1], rank ? rank : "x", "pid", text);
    shmem_init();
    write_file(argv[1], rank ? rank : "x", "ready", text);
    loop(argv[2], start);
    fprintf(stderr, "fault: PE %d still running after %d s: no PE was killed?\n", shmem_my_pe(),
            GIVE_UP_S);
    return 3;
}
