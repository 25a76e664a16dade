/*
 * multihost.c: a job spread over several hosts (run by netns-test.sh, whose "hosts" are network
 * namespaces joined by veth pairs). Usage: multihost HOSTS [BIG_BYTES]
 *   - every PE learns every PE's host (its network namespace's inode and its host name) and
 *     checks there are HOSTS of them; it prints "multihost: PE n host NAME netns INODE" for
 *     the script to compare with the namespaces it made;
 *   - shmem_ptr reaches exactly the PEs of its own host (globals; the heap when UCX_TLS has
 *     shared memory), never another host's, and SHMEM_TEAM_SHARED is what it reaches;
 *   - puts and gets between every pair of PEs, atomics from every PE on every PE, a
 *     compare-and-swap race, barriers, reductions and a broadcast over the world team and the
 *     shared team: every value checked on every PE;
 *   - BIG_BYTES (default 1 MiB) are put to and got from every PE of another host, so the
 *     script can see at least that much traffic on each namespace's veth.
 * Not a pe_test: on one host shmem_ptr and SHMEM_TEAM_SHARED would not match namespaces.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#define N 64       /* longs per PE in the all-to-all block */
#define ROUNDS 10  /* atomic rounds per target PE */
#define MAX_PES 64

struct host_id {
    long netns; /* inode of /proc/self/ns/net */
    char name[56];
};

static struct host_id hosts[MAX_PES]; /* filled by fcollect: every PE's host */
static long global_word;

static void learn_hosts(int expected_hosts)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    static struct host_id mine;
    struct stat st;
    CHECK(stat("/proc/self/ns/net", &st) == 0, "stat /proc/self/ns/net failed");
    mine.netns = (long)st.st_ino;
    gethostname(mine.name, sizeof mine.name - 1);
    shmem_barrier_all();
    shmem_fcollectmem(SHMEM_TEAM_WORLD, hosts, &mine, sizeof mine);
    printf("multihost: PE %d host %s netns %ld\n", me, mine.name, mine.netns);
    fflush(stdout);

    int distinct = 0;
    for (int pe = 0; pe < npes; pe++) {
        int first = 1;
        for (int q = 0; q < pe; q++)
            first &= hosts[q].netns != hosts[pe].netns;
        distinct += first;
        /* One namespace, one host name (the launcher's agent gives each its own UTS). */
        for (int q = 0; q < npes; q++)
            CHECK((hosts[q].netns == hosts[pe].netns) == !strcmp(hosts[q].name, hosts[pe].name),
                  "PEs %d (%s, netns %ld) and %d (%s, netns %ld): host name and namespace "
                  "disagree", pe, hosts[pe].name, hosts[pe].netns, q, hosts[q].name,
                  hosts[q].netns);
    }
    CHECK_EQ_LONG(distinct, expected_hosts, "number of hosts (network namespaces)");
}

static int same_host(int pe)
{
    return hosts[pe].netns == hosts[shmem_my_pe()].netns;
}

/* The heap of a PE on the same host is mapped through UCX's shared memory (not in UCX_TLS:
 * none); globals always. Another host's PE is never reachable by load/store. */
static int ucx_shared_memory(void)
{
    const char *t = getenv("UCX_TLS");
    return !t || !*t || strstr(t, "sm") || strstr(t, "posix") || strstr(t, "sysv") ||
           strstr(t, "all");
}

static void check_locality(long *heap)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), heap_peers = 0;
    for (int pe = 0; pe < npes; pe++) {
        void *g = shmem_ptr(&global_word, pe), *h = shmem_ptr(heap, pe);
        CHECK((g != NULL) == same_host(pe), "shmem_ptr(global, %d) = %p on host %s, PE %d on %s",
              pe, g, hosts[me].name, pe, hosts[pe].name);
        int heap_expected = pe == me || (same_host(pe) && ucx_shared_memory());
        CHECK((h != NULL) == heap_expected, "shmem_ptr(heap, %d) = %p on host %s, PE %d on %s",
              pe, h, hosts[me].name, pe, hosts[pe].name);
        heap_peers += h != NULL;
    }
    /* SHMEM_TEAM_SHARED: the PEs whose heap shmem_ptr reaches, all on this host. */
    shmem_team_t shared = SHMEM_TEAM_SHARED;
    CHECK_EQ_LONG(shmem_team_n_pes(shared), heap_peers, "SHMEM_TEAM_SHARED size");
    for (int i = 0; i < shmem_team_n_pes(shared); i++) {
        int pe = shmem_team_translate_pe(shared, i, SHMEM_TEAM_WORLD);
        CHECK(pe >= 0 && pe < npes && same_host(pe) && shmem_ptr(heap, pe),
              "SHMEM_TEAM_SHARED member %d is PE %d", i, pe);
    }
}

static long block_value(int from, int to, int i)
{
    return ((long)from << 40) + ((long)to << 20) + i;
}

/* Every PE puts a block into its own slot on every PE, then gets every PE's slot back. */
static void check_rma(long *slots)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long src[N], got[N];
    for (int pe = 0; pe < npes; pe++) {
        for (int i = 0; i < N; i++)
            src[i] = block_value(me, pe, i);
        shmem_long_put(slots + (size_t)me * N, src, N, pe);
    }
    shmem_long_p(&global_word, me + 1000, (me + 1) % npes);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < N; i++)
            CHECK(slots[pe * N + i] == block_value(pe, me, i), "slot of PE %d [%d] = %ld", pe, i,
                  slots[pe * N + i]);
    CHECK_EQ_LONG(global_word, (me + npes - 1) % npes + 1000, "global_word put by left PE");
    for (int pe = 0; pe < npes; pe++) {
        shmem_long_get(got, slots + (size_t)me * N, N, pe);
        for (int i = 0; i < N; i++)
            CHECK(got[i] == block_value(me, pe, i), "get my slot from PE %d [%d] = %ld", pe, i,
                  got[i]);
        CHECK_EQ_LONG(shmem_long_g(&global_word, pe), (pe + npes - 1) % npes + 1000, "g global");
    }
    shmem_barrier_all();
}

static void check_atomics(long *counter, long *winner)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    *counter = 0;
    *winner = -1;
    shmem_barrier_all();
    for (int r = 0; r < ROUNDS; r++)
        for (int pe = 0; pe < npes; pe++) {
            long old = shmem_long_atomic_fetch_add(counter, me + 1, pe);
            CHECK(old >= 0 && old < (long)ROUNDS * npes * (npes + 1) / 2, "fetch_add on %d: %ld",
                  pe, old);
        }
    /* Every PE races for every PE's winner word: exactly one wins each. */
    int won = 0;
    for (int pe = 0; pe < npes; pe++)
        won += shmem_long_atomic_compare_swap(winner, -1, me, pe) == -1;
    shmem_barrier_all();
    CHECK_EQ_LONG(*counter, (long)ROUNDS * npes * (npes + 1) / 2, "counter after fetch_adds");
    CHECK(*winner >= 0 && *winner < npes, "compare_swap winner %ld", *winner);
    for (int pe = 0; pe < npes; pe++)
        CHECK_EQ_LONG(shmem_long_atomic_fetch(counter, pe), (long)ROUNDS * npes * (npes + 1) / 2,
                      "atomic_fetch of a remote counter");
    static long wins, total;
    wins = won;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &wins, 1);
    CHECK_EQ_LONG(total, npes, "compare_swap wins over all PEs");
    shmem_barrier_all();
}

static void check_collectives(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    static long src[3], dst[3], from[4], bcast[4];
    src[0] = me + 1;
    src[1] = same_host(0); /* how many PEs share PE 0's host */
    src[2] = me;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 2);
    CHECK_EQ_LONG(dst[0], (long)npes * (npes + 1) / 2, "sum over the world");
    long with_0 = 0;
    for (int pe = 0; pe < npes; pe++)
        with_0 += hosts[pe].netns == hosts[0].netns;
    CHECK_EQ_LONG(dst[1], with_0, "PEs on PE 0's host (sum)");
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst + 2, src + 2, 1);
    CHECK_EQ_LONG(dst[2], npes - 1, "max over the world");

    /* The shared team: sum of the world ranks of its PEs. */
    long want = 0;
    for (int i = 0; i < shmem_team_n_pes(SHMEM_TEAM_SHARED); i++)
        want += shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
    shmem_long_sum_reduce(SHMEM_TEAM_SHARED, dst, src + 2, 1);
    CHECK_EQ_LONG(dst[0], want, "sum over SHMEM_TEAM_SHARED");

    /* Broadcast from the last PE (on another host than PE 0 when there are several). */
    for (int i = 0; i < 4; i++)
        from[i] = me == npes - 1 ? 11 * (i + 1) : -1;
    shmem_barrier_all();
    shmem_long_broadcast(SHMEM_TEAM_WORLD, bcast, from, 4, npes - 1);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(bcast[i], 11 * (i + 1), "broadcast element");
    shmem_barrier_all();
}

/* Bulk traffic to every PE of another host, put then got back, every byte checked. */
static void check_bulk(size_t big)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    unsigned char *inbox = shmem_malloc(big * npes); /* one slot per sender */
    unsigned char *mine = malloc(big), *back = malloc(big);
    CHECK(inbox && mine && back, "allocation of %zu bytes", big);
    for (size_t i = 0; i < big; i++)
        mine[i] = (unsigned char)(i * 7 + me);
    for (int pe = 0; pe < npes; pe++)
        if (!same_host(pe))
            shmem_putmem(inbox + big * me, mine, big, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        if (same_host(pe))
            continue;
        size_t bad = 0;
        for (size_t i = 0; i < big; i++)
            bad += inbox[big * pe + i] != (unsigned char)(i * 7 + pe);
        CHECK_EQ_LONG(bad, 0, "wrong bytes put by another host's PE");
        shmem_getmem(back, inbox + big * me, big, pe);
        CHECK(!memcmp(back, mine, big), "get back from PE %d differs", pe);
    }
    shmem_barrier_all();
    free(mine);
    free(back);
    shmem_free(inbox);
}

int main(int argc, char **argv)
{
    shmem_init();
    int npes = shmem_n_pes();
    if (argc < 2 || npes > MAX_PES) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "usage: multihost HOSTS [BIG_BYTES] (at most %d PEs)\n", MAX_PES);
        shmem_finalize();
        return 2;
    }
    size_t big = argc > 2 ? strtoul(argv[2], NULL, 0) : 1 << 20;
    long *heap = shmem_calloc((size_t)N * npes + 2, sizeof *heap);
    learn_hosts(atoi(argv[1]));
    check_locality(heap);
    check_rma(heap);
    check_atomics(heap + (size_t)N * npes, heap + (size_t)N * npes + 1);
    check_collectives();
    check_bulk(big);
    shmem_free(heap);
    if (!check_failures && shmem_my_pe() == 0)
        printf("multihost: %d PEs on %s hosts: all checks passed\n", npes, argv[1]);
    return check_finish();
}
