/*
 * profile.c: known traffic for the traffic profile (run by test/pe/profile-test.sh with
 * SSHMEM_PROFILE set). Every user operation goes through a wrapper that also books what the
 * profile must show; each PE writes its booked row to $PROFILE_EXPECT.<pe>, which the script
 * compares exactly with what PE 0 wrote at shmem_finalize:
 *   row,PE,puts,put_bytes,gets,get_bytes,atomics,atomic_bytes
 *   cell,PE,TARGET,ops,bytes           (one line per target PE)
 *   min,PE,barrier_seconds,wait_seconds (lower bounds: PE 0 sleeps while the others wait)
 * Then come operations the profile must NOT count: locks, collectives, shmem_malloc/free,
 * quiet and fence (the library's own flag writes and atomics). With PROFILE_THREADS=1 the
 * program asks for SHMEM_THREAD_MULTIPLE and four threads put at once: counts stay exact.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <shmem.h>

#include "check.h"

enum { PUT, GET, AMO, KINDS };
#define SLEEP_US 60000 /* PE 0's nap: the others' barrier (or PE 1's wait) lasts at least this */

static int me, npes;
static unsigned long long ops[KINDS], bytes[KINDS];
static unsigned long long *cell_ops, *cell_bytes;

static void book(int kind, int pe, size_t nbytes)
{
    ops[kind]++;
    bytes[kind] += nbytes;
    cell_ops[pe]++;
    cell_bytes[pe] += nbytes;
}

static char buf[256], src[256];
static long lvar, lsrc[8], ldst[8];
static int ibuf[8], isrc[8];
static long counter;
static int iatom;
static long fetched;
static uint64_t sig, sig2;
static long lock;

/* Puts in every spelling: p, putmem, iput, nbi, typed, ctx. */
static void puts_phase(int right, int left, int far)
{
    for (int j = 0; j <= me; j++) { /* me+1 puts of 8, 16, ... bytes */
        shmem_putmem(buf, src, 8 * (size_t)(j + 1), right);
        book(PUT, right, 8 * (size_t)(j + 1));
    }
    shmem_long_p(&lvar, me, left);
    book(PUT, left, sizeof(long));
    shmem_long_iput(ldst, lsrc, 2, 1, 3, right); /* one call, three elements */
    book(PUT, right, 3 * sizeof(long));
    shmem_putmem_nbi(buf + 128, src, 16, me);
    book(PUT, me, 16);
    shmem_quiet();
    shmem_int_put(ibuf, isrc, 5, far);
    book(PUT, far, 5 * sizeof(int));
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, buf + 64, src, 12, far);
    book(PUT, far, 12);
}

static void gets_phase(int right, int left, int far)
{
    char dst[64];
    int idst[4];
    shmem_getmem(dst, buf, 40, right);
    book(GET, right, 40);
    long v = shmem_long_g(&lvar, me);
    (void)v;
    book(GET, me, sizeof(long));
    shmem_int_iget(idst, ibuf, 1, 2, 2, left);
    book(GET, left, 2 * sizeof(int));
    shmem_getmem_nbi(dst, buf, 24, far);
    book(GET, far, 24);
    shmem_quiet();
}

static void atomics_phase(int right)
{
    for (int i = 0; i < me + 2; i++) {
        shmem_long_atomic_fetch_inc(&counter, 0);
        book(AMO, 0, sizeof(long));
    }
    shmem_int_atomic_add(&iatom, 1, right);
    book(AMO, right, sizeof(int));
    shmem_signal_add(&sig2, 1, right);
    book(AMO, right, sizeof(uint64_t));
    shmem_long_atomic_fetch_add_nbi(&fetched, &counter, 1, 0);
    book(AMO, 0, sizeof(long));
    shmem_quiet();
}

/* SHMEM_THREAD_MULTIPLE: threads of one PE count into one row at the same time. */
enum { THREADS = 4, THREAD_PUTS = 2000 };
static int thread_target;

static void *thread_puts(void *arg)
{
    long slot = (long)arg;
    for (int i = 0; i < THREAD_PUTS; i++)
        shmem_putmem(buf + 8 * slot, src, 8, thread_target);
    return NULL;
}

static void threads_phase(int right)
{
    pthread_t t[THREADS];
    thread_target = right;
    for (long i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, thread_puts, (void *)i) == 0, "pthread_create");
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS * THREAD_PUTS; i++)
        book(PUT, right, 8);
}

/* The library's own traffic: none of it may show in the profile. */
static void uncounted_phase(void)
{
    static long bsrc[4], bdst[4], rsrc[2], rdst[2];
    shmem_set_lock(&lock);
    shmem_clear_lock(&lock);
    long *heap = shmem_malloc(64 * sizeof(long));
    CHECK(heap != NULL, "shmem_malloc");
    shmem_free(heap);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, sizeof bsrc, 0);
    rsrc[0] = me;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, 2);
    CHECK(rdst[0] == (long)npes * (npes - 1) / 2, "sum reduce: %ld", rdst[0]);
    shmem_fence();
    shmem_quiet();
    shmem_team_sync(SHMEM_TEAM_WORLD);
}

/* PE 0 naps inside: the others' barrier_seconds, and PE 1's wait_seconds, have a floor. PE 0
 * starts each nap only once the others are about to wait (on a loaded machine a PE may get
 * its core late, and must not arrive after the nap is over). */
static long arrived, ready;
static void timed_phase(int right)
{
    shmem_barrier_all();
    if (me) {
        shmem_long_atomic_inc(&arrived, 0);
        book(AMO, 0, sizeof(long));
    } else {
        shmem_long_wait_until(&arrived, SHMEM_CMP_EQ, npes - 1);
        usleep(SLEEP_US);
    }
    shmem_barrier_all();
    if (me)
        shmem_putmem_signal(buf + 192, src, 32, &sig, 1, SHMEM_SIGNAL_SET, right);
    if (me == 1) {
        shmem_long_p(&ready, 1, 0);
        book(PUT, 0, sizeof(long));
    }
    if (me == 0) {
        shmem_long_wait_until(&ready, SHMEM_CMP_EQ, 1);
        usleep(SLEEP_US);
        shmem_putmem_signal(buf + 192, src, 32, &sig, 1, SHMEM_SIGNAL_SET, right);
    }
    book(PUT, right, 32); /* data bytes; the signal word is the library's */
    uint64_t seen = shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
    CHECK(seen == 1, "signal %llu", (unsigned long long)seen);
    shmem_int_wait_until(&iatom, SHMEM_CMP_GE, 1);
    CHECK(shmem_int_test(&iatom, SHMEM_CMP_EQ, 1), "iatom %d", iatom);
}

static void write_expectations(void)
{
    const char *prefix = getenv("PROFILE_EXPECT");
    if (!prefix)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", prefix, me);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    fprintf(f, "row,%d,%llu,%llu,%llu,%llu,%llu,%llu\n", me, ops[PUT], bytes[PUT], ops[GET],
            bytes[GET], ops[AMO], bytes[AMO]);
    for (int t = 0; t < npes; t++)
        fprintf(f, "cell,%d,%d,%llu,%llu\n", me, t, cell_ops[t], cell_bytes[t]);
    double floor_s = SLEEP_US / 1e6 * 0.8; /* usleep never returns early; margin for clocks */
    fprintf(f, "min,%d,%.6f,%.6f\n", me, me ? floor_s : 0.0, me == 1 ? floor_s : 0.0);
    CHECK(fclose(f) == 0, "closing %s", path);
}

int main(void)
{
    const char *threads = getenv("PROFILE_THREADS");
    int multiple = threads && !strcmp(threads, "1"), provided;
    shmem_init_thread(multiple ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE, &provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    cell_ops = calloc((size_t)npes, sizeof *cell_ops);
    cell_bytes = calloc((size_t)npes, sizeof *cell_bytes);
    for (int i = 0; i < 8; i++) {
        lsrc[i] = 100 * me + i;
        isrc[i] = 10 * me + i;
    }
    memset(src, me + 1, sizeof src);
    int right = (me + 1) % npes, left = (me + npes - 1) % npes, far = (me + 2) % npes;

    shmem_barrier_all();
    puts_phase(right, left, far);
    shmem_barrier_all();
    CHECK(lvar == right, "shmem_long_p from PE %d: %ld", right, lvar);
    CHECK(ldst[0] == 100 * left && ldst[2] == 100 * left + 1 && ldst[4] == 100 * left + 2,
          "iput from PE %d: %ld %ld %ld", left, ldst[0], ldst[2], ldst[4]);
    gets_phase(right, left, far);
    atomics_phase(right);
    if (multiple) {
        CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
        threads_phase(right);
    }
    uncounted_phase();
    timed_phase(right);
    shmem_barrier_all();
    if (me == 0)
        CHECK(counter == (long)npes * (npes + 3) / 2 + npes,
              "counter %ld", counter); /* sum of (pe+2) fetch_incs plus one add each */
    write_expectations();
    return check_finish(); /* a barrier (timed, no traffic), then shmem_finalize */
}
