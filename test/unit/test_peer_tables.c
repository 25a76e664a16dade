/* test_peer_tables.c: the memory every per-PE table takes in a job of 65,536 PEs, laid out by
 * the library's own code (heap/peers.c, transport/ucx_cards.c, transport/ucx_worker.c) for
 * PE 12,345 of such a job, with a fake bootstrap below them (test/unit/fake_boot.c: one host,
 * no launcher, no UCX process). A peer this PE never contacts must cost at most 16 bytes in
 * all, the default context and contexts made later included, and each PE's private memory
 * must grow by at most 32 bytes per added PE (2 MiB at 65,536 PEs). What a peer costs once
 * contacted is a chunk per SSHMEM_PEER_CHUNK peers, checked against its bound too. */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/sshmem.h"
#include "heap/peers.h"
#include "transport/ucx_tx.h"

#define BIG_JOB 65536
#define SMALL_JOB 1024
#define MY_PE 12345
#define CONTEXTS 8 /* made with shmem_ctx_create, beside the default one */

/* Bytes the process holds from malloc now, small blocks and mmapped ones alike. */
static size_t malloc_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* Lay out every per-PE table of a job of n PEs as PE my_pe: the peer table at start-up, the
 * transport's cards, the default context and CONTEXTS more. Returns the bytes they hold. */
static size_t lay_out(int n, int my_pe)
{
    memset(&sshmem, 0, sizeof sshmem);
    sshmem.n_pes = n;
    sshmem.my_pe = my_pe;
    size_t before = malloc_bytes();
    sshmem_peers_init();
    assert_int_equal(sshmem_ucx_cards_init(), 0);
    static struct sshmem_tx tx[1 + CONTEXTS];
    for (int c = 0; c <= CONTEXTS; c++) {
        memset(&tx[c], 0, sizeof tx[c]);
        assert_int_equal(sshmem_ucx_tx_setup(&tx[c], c == 0), 0);
    }
    size_t bytes = malloc_bytes() - before;
    /* Nothing here learnt a peer: no chunk exists in any table. */
    for (size_t c = 0; c < sshmem_peer_chunks(n); c++)
        assert_null(sshmem.peer_chunks[c]);
    for (int c = 0; c <= CONTEXTS; c++) {
        assert_null(sshmem_ucx_peer_if_made(&tx[c], 0));
        assert_null(sshmem_ucx_peer_if_made(&tx[c], n - 1));
        assert_int_equal(tx[c].pending_cap, 0);
    }
    return bytes;
}

static void untouched_peer_costs_at_most_16_bytes(void **state)
{
    (void)state;
    size_t bytes = lay_out(BIG_JOB, MY_PE);
    printf("# %d PEs, default context and %d more: %zu bytes of per-PE tables, %.2f per PE\n",
           BIG_JOB, CONTEXTS, bytes, (double)bytes / BIG_JOB);
    assert_true(bytes <= 16 * (size_t)BIG_JOB);
    /* Start-up set every node id (one host: all equal) and no heap view yet. */
    assert_int_equal(sshmem.n_nodes, 1);
    assert_int_equal(sshmem_node_of(0), sshmem_node_of(BIG_JOB - 1));
    assert_null(sshmem.heap_views[BIG_JOB - 1]);
}

static void growth_per_added_pe_at_most_32_bytes(void **state)
{
    (void)state;
    size_t small = lay_out(SMALL_JOB, MY_PE % SMALL_JOB);
    size_t big = lay_out(BIG_JOB, MY_PE);
    double per_pe = (double)(big - small) / (BIG_JOB - SMALL_JOB);
    printf("# %d PEs: %zu bytes, %d PEs: %zu bytes: %.2f bytes per added PE\n", SMALL_JOB, small,
           BIG_JOB, big, per_pe);
    assert_true(per_pe <= 32.0);
    assert_true(big <= 2u * 1024 * 1024); /* 2 MiB at 65,536 PEs */
}

/* A contacted peer's share: its chunk in each table over the peers of the chunk. Contact
 * with log2(n) peers (a dissemination barrier) at most makes that many chunks per table. */
static void contacted_chunk_bounds(void **state)
{
    (void)state;
    size_t peer = SSHMEM_PEER_CHUNK * sizeof(sshmem_peer_t);
    size_t card = SSHMEM_PEER_CHUNK * sizeof(sshmem_ucx_card_t);
    size_t ctx = SSHMEM_PEER_CHUNK * sizeof(struct tx_peer);
    printf("# chunks of %d peers: peer table %zu bytes, cards %zu, each context %zu\n",
           SSHMEM_PEER_CHUNK, peer, card, ctx);
    /* 16 barrier partners at 65,536 PEs, each in a chunk of its own, with every context. */
    size_t barrier = 16 * (peer + card + (1 + CONTEXTS) * ctx);
    printf("# 16 peers in 16 chunks, %d contexts: %zu bytes\n", 1 + CONTEXTS, barrier);
    assert_true(peer <= 16 * 1024 && card <= 32 * 1024 && ctx <= 8 * 1024);
    assert_true(barrier <= 2u * 1024 * 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(untouched_peer_costs_at_most_16_bytes),
        cmocka_unit_test(growth_per_added_pe_at_most_32_bytes),
        cmocka_unit_test(contacted_chunk_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
