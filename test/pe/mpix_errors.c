/*
 * mpix_errors.c: the program behind test/pe/mpix_errors-test.sh. It makes one mistake with
 * the shmemx layer, named by argv[1]; the script checks the message (PE, call, argument,
 * fix) and the exit status: a collective's mistake ends the job, a local one returns an
 * error code after a warning.
 */
#include <shmemx.h>

#include "check.h"

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *dest = shmem_malloc(64 * sizeof(int)), src[8] = {0}, on_stack[64];
    size_t counts[8], displs[8];
    for (int i = 0; i < npes && i < 8; i++) {
        counts[i] = 2;
        displs[i] = 2 * (size_t)i;
    }
    shmemx_datatype_t open;
    shmemx_type_vector(2, 1, 2, SHMEMX_INT, &open);
    shmem_barrier_all();
    if (!strcmp(what, "overlap")) {
        displs[npes - 1] = 1; /* PE n-1's block overlaps PE 0's */
        shmemx_gatherv(SHMEM_TEAM_WORLD, dest, src, 2, counts, displs, SHMEMX_INT, 0);
    } else if (!strcmp(what, "count_mismatch")) {
        shmemx_gatherv(SHMEM_TEAM_WORLD, dest, src, me == npes - 1 ? 3 : 2, counts, displs,
                       SHMEMX_INT, 0);
    } else if (!strcmp(what, "bad_root")) {
        shmemx_reduce(SHMEM_TEAM_WORLD, dest, src, 1, SHMEMX_INT, SHMEMX_SUM, npes);
    } else if (!strcmp(what, "in_place_not_root")) {
        shmemx_reduce(SHMEM_TEAM_WORLD, dest, me == 1 ? SHMEMX_IN_PLACE : src, 1, SHMEMX_INT,
                      SHMEMX_SUM, 0);
    } else if (!strcmp(what, "op_type")) {
        double d = 1, r;
        shmemx_allreduce(SHMEM_TEAM_WORLD, &r, &d, 1, SHMEMX_DOUBLE, SHMEMX_MAXLOC);
    } else if (!strcmp(what, "uncommitted_coll")) {
        shmemx_allreduce(SHMEM_TEAM_WORLD, dest, src, 1, open, SHMEMX_SUM);
    } else if (!strcmp(what, "team_invalid")) {
        shmemx_allgather(SHMEM_TEAM_INVALID, dest, src, 1, SHMEMX_INT);
    } else if (!strcmp(what, "gatherv_not_symmetric")) {
        shmemx_gatherv(SHMEM_TEAM_WORLD, on_stack, src, 2, counts, displs, SHMEMX_INT, 0);
    } else if (!strcmp(what, "absurd_count")) {
        /* a negative int stored in the size_t array */
        counts[npes - 1] = (size_t)-2;
        shmemx_allgatherv(SHMEM_TEAM_WORLD, dest, src, me == npes - 1 ? 0 : 2, counts, displs,
                          SHMEMX_INT);
    } else if (!strncmp(what, "mismatch_large_", 15)) {
        /* a large block on one side, a small one on the other, or two large ones of different
         * sizes: still an error, not a hang, and nothing written past the root's block */
        enum { BIG = 5000 };
        int *big = shmem_malloc(BIG * 8 * sizeof(int)), *bsrc = calloc(BIG, sizeof(int));
        int large_recv = !strcmp(what, "mismatch_large_recv");
        int large_both = !strcmp(what, "mismatch_large_both");
        counts[npes - 1] = large_recv || large_both ? BIG : 2;
        displs[npes - 1] = 2 * (size_t)(npes - 1);
        size_t mine = me == npes - 1 ? (large_recv ? 2 : large_both ? BIG - 1000 : BIG) : 2;
        shmemx_gatherv(SHMEM_TEAM_WORLD, big, bsrc, mine, counts, displs, SHMEMX_INT, 0);
    } else if (!strcmp(what, "mismatch_allgatherv")) {
        /* PE 0 expects a large block from PE 1 (and invites it), PE 1 sends a small one */
        int *big = shmem_malloc(5000 * 8 * sizeof(int));
        size_t c2[8], d2[8];
        for (int i = 0; i < npes && i < 8; i++)
            c2[i] = 2, d2[i] = 5000 * (size_t)i;
        if (me == 0)
            c2[1] = 5000;
        shmemx_allgatherv(SHMEM_TEAM_WORLD, big, src, 2, c2, d2, SHMEMX_INT);
    } else if (!strcmp(what, "allgatherv_small_mismatch") ||
               !strcmp(what, "allgatherv_counts_differ")) {
        /* small blocks: PE 0 expects 1 element from PE 1, which sends 2 (shorts: 2 and 4
         * bytes take the same room in the steps, records being padded to 4, so only PE 0
         * finds it); in the second case PE 0 and PE 1 expect 3 of PE 1 (which sends them), so
         * the others' layout differs from theirs */
        short *all = shmem_malloc(8 * 4 * sizeof(short));
        size_t c2[8], d2[8];
        for (int i = 0; i < npes && i < 8; i++)
            c2[i] = 2, d2[i] = 4 * (size_t)i;
        const int differ = !strcmp(what, "allgatherv_counts_differ");
        if (me == 0 || (differ && me == 1))
            c2[1] = differ ? 3 : 1;
        short mine[4] = {(short)me, (short)me, (short)me, (short)me};
        shmemx_allgatherv(SHMEM_TEAM_WORLD, all, mine, c2[me], c2, d2, SHMEMX_SHORT);
    } else if (!strncmp(what, "alltoallv_mismatch", 18)) {
        /* PE 1 sends PE 0 another count than PE 0 expects: both small, or one of them too
         * large for Bruck's steps (that block goes beside them, after an invitation) */
        enum { BIG = 5000 };
        int *big = shmem_malloc(BIG * 8 * sizeof(int)), *bsrc = calloc(BIG * 8, sizeof(int));
        size_t sc[8], sd[8], rc[8], rd[8];
        for (int i = 0; i < npes && i < 8; i++)
            sc[i] = rc[i] = 2, sd[i] = rd[i] = BIG * (size_t)i;
        const int large_send = !strcmp(what, "alltoallv_mismatch_large_send");
        const int large_recv = !strcmp(what, "alltoallv_mismatch_large_recv");
        const int large_both = !strcmp(what, "alltoallv_mismatch_large_both");
        if (me == 1 && !large_recv)
            sc[0] = large_send ? BIG : large_both ? BIG - 1000 : 3;
        if (me == 0 && (large_recv || large_both))
            rc[1] = BIG;
        shmemx_alltoallv(SHMEM_TEAM_WORLD, big, rc, rd, bsrc, sc, sd, SHMEMX_INT);
    } else if (!strcmp(what, "alltoallv_type_mismatch")) {
        /* PE 1 passes shorts where the others pass ints: 3 shorts (6 bytes) to each, 4 from
         * each (8 bytes, two ints); a block of 6 bytes is no whole number of ints */
        short *sb = shmem_calloc(64, sizeof(short)), *rb = shmem_malloc(64 * sizeof(short));
        size_t sc[8], sd[8], rc[8], rd[8];
        for (int i = 0; i < npes && i < 8; i++) {
            sc[i] = me == 1 ? 3 : 2;
            rc[i] = me != 1 ? 2 : i == 1 ? 3 : 4;
            sd[i] = rd[i] = 8 * (size_t)i;
        }
        shmemx_alltoallv(SHMEM_TEAM_WORLD, rb, rc, rd, sb, sc, sd,
                         me == 1 ? SHMEMX_SHORT : SHMEMX_INT);
    } else if (!strcmp(what, "reduce_count_mismatch")) {
        /* PE 1 passes 30,000 ints, the others 20,000: its partner reports the difference */
        int *big = shmem_calloc(30000, sizeof(int)), *out = shmem_malloc(30000 * sizeof(int));
        shmemx_reduce(SHMEM_TEAM_WORLD, out, big, me == 1 ? 30000 : 20000, SHMEMX_INT,
                      SHMEMX_SUM, 0);
    } else if (!strcmp(what, "in_place_gatherv_not_root")) {
        shmemx_gatherv(SHMEM_TEAM_WORLD, dest, me == 1 ? SHMEMX_IN_PLACE : (const void *)src, 2,
                       counts, displs, SHMEMX_INT, 0);
    } else if (!strcmp(what, "put_uncommitted")) {
        int rc = shmemx_put_type(dest, src, 1, open, (me + 1) % npes);
        shmem_barrier_all();
        shmem_finalize();
        return rc == SHMEMX_ERR_TYPE ? 0 : 1;
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
