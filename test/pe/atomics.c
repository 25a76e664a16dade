/*
 * atomics.c: every PE hammers counters on every PE at once; the totals prove that no
 * update is lost, on the heap and on globals, for the fetching and non-fetching forms.
 */
#include "check.h"

#define ITERS 200

static long global_counter;
static int global_icounter;
static unsigned long global_bits;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *lc = shmem_malloc(sizeof *lc);
    int *ic = shmem_malloc(sizeof *ic);
    long long *ll = shmem_malloc(sizeof *ll);
    unsigned int *ui = shmem_malloc(sizeof *ui);
    double *dv = shmem_malloc(sizeof *dv);
    *lc = 0; *ic = 0; *ll = 0; *ui = 0; *dv = 0;
    shmem_barrier_all();

    /* 1. Counters: each PE adds to every PE, mixing fetch_inc, inc, add, fetch_add. */
    long seen_max = -1;
    for (int i = 0; i < ITERS; i++) {
        for (int pe = 0; pe < npes; pe++) {
            long old = shmem_long_atomic_fetch_inc(lc, pe);
            CHECK(old >= 0 && old < (long)ITERS * npes * 3, "fetch_inc old value %ld", old);
            if (pe == 0 && old > seen_max)
                seen_max = old;
            shmem_long_atomic_add(lc, 2, pe);
            shmem_int_atomic_inc(ic, pe);
            shmem_int_atomic_fetch_add(ic, 3, pe);
            shmem_longlong_atomic_add(ll, -1, pe);
            shmem_long_atomic_inc(&global_counter, pe);
            shmem_int_atomic_add(&global_icounter, 5, pe);
        }
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(*lc, 3L * ITERS * npes, "heap long counter (fetch_inc + add 2)");
    CHECK_EQ_LONG(*ic, 4L * ITERS * npes, "heap int counter (inc + fetch_add 3)");
    CHECK_EQ_LONG(*ll, -1L * ITERS * npes, "heap long long counter (add -1)");
    CHECK_EQ_LONG(global_counter, (long)ITERS * npes, "global long counter");
    CHECK_EQ_LONG(global_icounter, 5L * ITERS * npes, "global int counter");
    CHECK_EQ_LONG(shmem_long_atomic_fetch(lc, (me + 1) % npes), 3L * ITERS * npes, "atomic_fetch");
    shmem_barrier_all();

    /* 2. compare_swap: PEs race to claim slot values; each value claimed exactly once. */
    if (me == 0)
        *lc = 0;
    shmem_barrier_all();
    int claimed = 0;
    for (int i = 0; i < ITERS; i++) {
        long cur = shmem_long_atomic_fetch(lc, 0);
        while (1) {
            long old = shmem_long_atomic_compare_swap(lc, cur, cur + 1, 0);
            if (old == cur) { claimed++; break; }
            cur = old;
        }
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmem_long_atomic_fetch(lc, 0), (long)ITERS * npes, "compare_swap total");
    shmem_barrier_all();

    /* 3. swap and set/fetch on doubles: the last writer's value is one of the written ones. */
    shmem_double_atomic_set(dv, 1.5 + me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(*dv == 1.5 + (me + npes - 1) % npes, "double atomic_set: got %g", *dv);
    double prev = shmem_double_atomic_swap(dv, -2.0, me);
    CHECK(prev == 1.5 + (me + npes - 1) % npes, "double swap returned %g", prev);
    CHECK(*dv == -2.0, "double after swap %g", *dv);
    shmem_barrier_all();

    /* 4. bitwise: each PE sets its own bit on every PE; then xor them away again. */
    for (int pe = 0; pe < npes; pe++) {
        shmem_uint_atomic_or(ui, 1u << (me % 32), pe);
        shmem_ulong_atomic_fetch_or(&global_bits, 1ul << (me % 64), pe);
    }
    shmem_barrier_all();
    unsigned int want = 0;
    for (int pe = 0; pe < npes; pe++)
        want |= 1u << (pe % 32);
    CHECK(*ui == want, "bitwise or: got %#x want %#x", *ui, want);
    CHECK(global_bits == (unsigned long)want, "global bitwise or: got %#lx", global_bits);
    shmem_barrier_all();
    if (npes <= 32) {
        for (int pe = 0; pe < npes; pe++)
            shmem_uint_atomic_xor(ui, 1u << me, pe);
        shmem_barrier_all();
        CHECK(*ui == 0, "bitwise xor: got %#x", *ui);
        shmem_barrier_all();
        shmem_uint_atomic_fetch_and(ui, 0, me);
    }

    /* 5. fetching nbi forms: results land by quiet. */
    shmem_barrier_all();
    *lc = 100 + me;
    shmem_barrier_all();
    long f1 = -1, f2 = -1;
    shmem_long_atomic_fetch_nbi(&f1, lc, (me + 1) % npes);
    shmem_long_atomic_fetch_add_nbi(&f2, &global_counter, me, 0);
    shmem_quiet();
    CHECK_EQ_LONG(f1, 100 + (me + 1) % npes, "atomic_fetch_nbi");
    CHECK(f2 >= (long)ITERS * npes, "fetch_add_nbi old value %ld", f2);
    shmem_barrier_all();

    /* 6. deprecated names still work (the OSU benchmarks use them). */
    *lc = 0;
    shmem_barrier_all();
    shmem_long_fadd(lc, 1, 0);
    shmem_long_finc(lc, 0);
    shmem_long_add(lc, 1, 0);
    shmem_long_inc(lc, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(*lc, 4L * npes, "deprecated fadd/finc/add/inc");
    shmem_barrier_all();
    shmem_free(lc); shmem_free(ic); shmem_free(ll); shmem_free(ui); shmem_free(dv);
    (void)claimed;
    return check_finish();
}
