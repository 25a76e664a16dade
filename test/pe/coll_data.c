/*
 * coll_data.c: the team data collectives: shmem_TYPE_broadcast / collect / fcollect /
 * alltoall / alltoalls for every standard RMA type, the untyped *mem forms with sizes from
 * 0 bytes to 200 KiB (beyond every algorithm switch), and the C11 generic forms; on
 * SHMEM_TEAM_WORLD, a reversed split team and a 2-D row team; back to back without a
 * barrier (the team alternates its sync areas), every byte checked on every member. The
 * team broadcast also updates the root's dest (unlike the active-set one).
 *
 * sshmem-test: np=1 2 3 5 7 8
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=linear SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=coop SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=binomial SSHMEM_COLL_FCOLLECT=linear
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=knomial
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_FCOLLECT=bruck
 * (over tcp a collective step is one message; SSHMEM_COLL_MESSAGES=0 runs its put + signal form)
 * sshmem-test-env: np=3,5 paths=tcp SSHMEM_COLL_MESSAGES=0 SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=5 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=4 SSHMEM_COLL_BCAST=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_STREAM_COPY_MIN=256 SSHMEM_COLL_FCOLLECT=linear
 */
#include <stdint.h>

#include "check.h"

#define BIG (200 * 1024)
static int me, npes;
static unsigned char *src, *dst; /* symmetric: 2 x npes x BIG each */
static size_t area;

static unsigned char byte(int k, size_t i, int it) { return (unsigned char)(k * 31 + i * 7 + it * 3 + (i >> 8)); }

static void mem_forms(shmem_team_t team)
{
    int n_t = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    const size_t sizes[] = {0, 1, 13, 4096, 20000, BIG};
    for (int z = 0; z < 6; z++) {
        size_t n = sizes[z];
        for (int it = 0; it < 2; it++) { /* back to back: alternating buffers */
            unsigned char *in = src + it * area, *out = dst + it * area;
            int root = (it * 3 + 1) % n_t;
            /* broadcast */
            for (size_t i = 0; i < n; i++)
                in[i] = byte(tme, i, it);
            shmem_broadcastmem(team, out, in, n, root);
            int ok = 1;
            for (size_t i = 0; i < n && ok; i++)
                ok = out[i] == byte(root, i, it);
            CHECK(ok, "broadcastmem n=%zu root %d it %d", n, root, it);
            /* fcollect then collect (member k gives n + k bytes) */
            shmem_fcollectmem(team, out + n_t * n, in, n);
            for (int k = 0; k < n_t && ok; k++)
                for (size_t i = 0; i < n && ok; i++)
                    ok = out[n_t * n + k * n + i] == byte(k, i, it);
            CHECK(ok, "fcollectmem n=%zu it %d", n, it);
            for (size_t i = 0; i < n + tme; i++)
                in[i] = byte(tme, i, it);
            shmem_collectmem(team, out, in, n + tme);
            size_t pos = 0;
            for (int k = 0; k < n_t && ok; k++)
                for (size_t i = 0; i < n + k && ok; i++, pos++)
                    ok = out[pos] == byte(k, i, it);
            CHECK(ok, "collectmem n=%zu it %d at byte %zu", n, it, pos);
            shmem_team_sync(team); /* out is rewritten next */
            /* alltoall: block j of member k is byte(k*64+j, i) */
            if (n * n_t <= area / 2) {
                for (int j = 0; j < n_t; j++)
                    for (size_t i = 0; i < n; i++)
                        in[j * n + i] = byte(tme * 64 + j, i, it);
                shmem_alltoallmem(team, out, in, n);
                for (int k = 0; k < n_t && ok; k++)
                    for (size_t i = 0; i < n && ok; i++)
                        ok = out[k * n + i] == byte(k * 64 + tme, i, it);
                CHECK(ok, "alltoallmem n=%zu it %d", n, it);
            }
            /* alltoallsmem: byte elements, strides 3 (dest) and 2 (source) */
            if (n <= 4096) {
                for (int j = 0; j < n_t; j++)
                    for (size_t i = 0; i < n; i++)
                        in[(j * n + i) * 2] = byte(tme * 64 + j, i, it);
                shmem_alltoallsmem(team, out + area / 2, in, 3, 2, n);
                for (int k = 0; k < n_t && ok; k++)
                    for (size_t i = 0; i < n && ok; i++)
                        ok = out[area / 2 + (k * n + i) * 3] == byte(k * 64 + tme, i, it);
                CHECK(ok, "alltoallsmem n=%zu it %d", n, it);
            }
        }
        shmem_team_sync(team);
    }
}

/* Every typed form, 5 elements (and 0), values by type. */
#define DEF_TYPED_(T, N)                                                                         \
    static void typed_##N(shmem_team_t team)                                                     \
    {                                                                                            \
        int n_t = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);                         \
        T *in = (T *)src, *out = (T *)dst;                                                       \
        const size_t n = 5;                                                                      \
        for (size_t i = 0; i < n * n_t * 2; i++)                                                 \
            in[i] = (T)(tme * 10 + i % 50);                                                      \
        int rc = shmem_##N##_broadcast(team, out, in, n, n_t - 1);                               \
        int ok = rc == 0;                                                                        \
        for (size_t i = 0; i < n && ok; i++)                                                     \
            ok = out[i] == (T)((n_t - 1) * 10 + i);                                              \
        CHECK(ok, "shmem_" #N "_broadcast");                                                     \
        rc = shmem_##N##_fcollect(team, out + n, in, n);                                         \
        ok = rc == 0;                                                                            \
        for (int k = 0; k < n_t && ok; k++)                                                      \
            for (size_t i = 0; i < n && ok; i++)                                                 \
                ok = out[n + k * n + i] == (T)(k * 10 + i);                                      \
        CHECK(ok, "shmem_" #N "_fcollect");                                                      \
        shmem_team_sync(team);                                                                   \
        rc = shmem_##N##_collect(team, out, in, (size_t)(tme % 2));                              \
        size_t pos = 0;                                                                          \
        ok = rc == 0;                                                                            \
        for (int k = 0; k < n_t && ok; k++)                                                      \
            for (int i = 0; i < k % 2 && ok; i++, pos++)                                         \
                ok = out[pos] == (T)(k * 10 + i);                                                \
        CHECK(ok, "shmem_" #N "_collect");                                                       \
        shmem_team_sync(team);                                                                   \
        rc = shmem_##N##_alltoall(team, out, in, 2);                                             \
        ok = rc == 0;                                                                            \
        for (int k = 0; k < n_t && ok; k++)                                                      \
            for (size_t i = 0; i < 2 && ok; i++)                                                 \
                ok = out[k * 2 + i] == (T)(k * 10 + tme * 2 + i);                                \
        CHECK(ok, "shmem_" #N "_alltoall");                                                      \
        shmem_team_sync(team);                                                                   \
        rc = shmem_##N##_alltoalls(team, out, in, 2, 1, 1);                                      \
        ok = rc == 0;                                                                            \
        for (int k = 0; k < n_t && ok; k++)                                                      \
            ok = out[k * 2] == (T)(k * 10 + tme);                                                \
        CHECK(ok, "shmem_" #N "_alltoalls");                                                     \
        shmem_team_sync(team);                                                                   \
    }
SHMEM_RMA_TYPES(DEF_TYPED_)

static void generics(shmem_team_t team)
{
    int n_t = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    long *in = (long *)src, *out = (long *)dst;
    in[0] = tme + 100;
    shmem_broadcast(team, out, in, 1, 0);
    CHECK_EQ_LONG(out[0], shmem_team_translate_pe(team, 0, team) + 100, "generic broadcast");
    shmem_fcollect(team, out, in, 1);
    CHECK_EQ_LONG(out[n_t - 1], n_t - 1 + 100, "generic fcollect");
    shmem_team_sync(team);
}

static void run(shmem_team_t team)
{
#define CALL_TYPED_(T, N) typed_##N(team);
    SHMEM_RMA_TYPES(CALL_TYPED_)
    generics(team);
    mem_forms(team);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    area = (size_t)npes * BIG * 2;
    src = shmem_malloc(2 * area);
    dst = shmem_malloc(2 * area);
    run(SHMEM_TEAM_WORLD);
    shmem_team_t rev, xt, yt;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev);
    run(rev);
    shmem_team_destroy(rev);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &xt, NULL, 0, &yt);
    run(xt);
    shmem_team_destroy(yt);
    shmem_team_destroy(xt);
    shmem_free(dst);
    shmem_free(src);
    return check_finish();
}
