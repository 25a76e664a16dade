/*
 * mpix_teams.c: the shmemx collectives on split teams: indices, roots and order are the
 * team's (a non-commutative product runs in team-index order), blocks land at team-index
 * displacements, and collectives on two overlapping teams (the odd PEs, the world) called in
 * the same order on every PE do not disturb each other. Skipped when this build has no teams
 * layer (the shmemx collectives then accept SHMEM_TEAM_WORLD only).
 */
#include <shmemx.h>

#include "check.h"
#include "mat2.h"

#if __has_include("team/team.h")

static mat2 mat_of(int world_pe) { return (mat2){world_pe + 1, 1, 1, 0}; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    /* The odd PEs, from the highest down: team index i is world PE top - 2i. */
    int top = npes % 2 ? npes - 2 : npes - 1, size = (top + 1) / 2;
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (size > 0)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, top, -2, size, NULL, 0, &odd);
    else
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &odd); /* nobody odd */
    int *gath = shmem_malloc(4 * (size_t)npes * sizeof *gath);
    shmemx_op_t prod;
    shmemx_datatype_t m2;
    shmemx_op_create(matmul, 0, &prod);
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_commit(&m2);

    for (int round = 0; round < 3; round++) {
        if (me % 2 && size > 0) {
            int ti = shmem_team_my_pe(odd);
            CHECK_EQ_LONG(ti, (top - me) / 2, "team index");
            mat2 x = mat_of(me), r;
            shmemx_allreduce(odd, &r, &x, 1, m2, prod);
            mat2 want = mat_of(top);
            for (int i = 1; i < size; i++)
                want = mul(want, mat_of(top - 2 * i));
            CHECK(r.a == want.a && r.b == want.b && r.c == want.c && r.d == want.d,
                  "odd-team product in team order (round %d)", round);
            /* gatherv to the team's last index: block of index i at displacement 2i */
            size_t counts[64], displs[64];
            int src[2] = {me, -me};
            for (int i = 0; i < size; i++)
                counts[i] = 2, displs[i] = 2 * (size - 1 - i);
            for (int k = 0; k < 2 * size; k++)
                gath[k] = -1;
            int root = size - 1;
            shmemx_gatherv(odd, gath, src, 2, counts, displs, SHMEMX_INT, root);
            if (ti == root)
                for (int i = 0; i < size; i++) {
                    int pe = top - 2 * i;
                    CHECK(gath[displs[i]] == pe && gath[displs[i] + 1] == -pe,
                          "odd gatherv block of index %d", i);
                }
            long s = me, sc;
            shmemx_scan(odd, &sc, &s, 1, SHMEMX_LONG, SHMEMX_SUM);
            long want_sc = 0;
            for (int i = 0; i <= ti; i++)
                want_sc += top - 2 * i;
            CHECK_EQ_LONG(sc, want_sc, "odd-team scan");
        }
        /* a world collective in between, on every PE */
        int one = 1, all;
        shmemx_allreduce(SHMEM_TEAM_WORLD, &all, &one, 1, SHMEMX_INT, SHMEMX_SUM);
        CHECK_EQ_LONG(all, npes, "world sum between team collectives");
        shmem_barrier_all();
    }
    /* Teams made and destroyed again and again take the same state: a gatherv and a small
     * reduce to a root on each new team see only that team's blocks (stamps a destroyed team
     * left would match the new team's first calls if its state were not zeroed). */
    for (int round = 0; round < 50; round++) {
        shmem_team_t t;
        CHECK_EQ_LONG(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t), 0,
                      "split in a loop");
        int mine = 1000 * round + me;
        size_t counts[64], displs[64];
        for (int i = 0; i < npes && i < 64; i++) {
            counts[i] = 1;
            displs[i] = (size_t)i;
        }
        if (npes <= 64) {
            shmemx_gatherv(t, gath, &mine, 1, counts, displs, SHMEMX_INT, npes - 1);
            if (me == npes - 1)
                for (int i = 0; i < npes; i++)
                    CHECK_EQ_LONG(gath[i], 1000 * round + i, "gatherv on a reused team state");
        }
        long v = 1000L * round + me, r = -1;
        shmemx_reduce(t, &r, &v, 1, SHMEMX_LONG, SHMEMX_SUM, 0);
        if (me == 0)
            CHECK_EQ_LONG(r, 1000L * round * npes + (long)npes * (npes - 1) / 2,
                          "reduce on a reused team state");
        shmem_team_destroy(t);
    }
    shmemx_op_free(&prod);
    shmemx_type_free(&m2);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    shmem_free(gath);
    return check_finish();
}

#else

int main(void)
{
    printf("SKIP: this build has no teams layer; the shmemx collectives take SHMEM_TEAM_WORLD\n");
    return 77;
}

#endif
