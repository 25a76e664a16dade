/*
 * pe_quiet.c: shmem_pe_quiet completes the puts toward the listed PEs (and only they need
 * be flushed): each PE puts a block to its two neighbours, completes toward the right one
 * with shmem_pe_quiet, then raises that neighbour's flag through a second context, which
 * nothing orders after the block but the pe_quiet. The left neighbour's block is completed
 * by a full quiet afterwards (what pe_quiet left pending must still be completed then).
 * Every element is checked on every PE, for many rounds, heap and globals.
 *
 * sshmem-test: np=2 3 4 8
 * sshmem-test-env: np=4 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 */
#include "check.h"

#define N 512
#define ROUNDS 30

static long global_block[2][N];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *heap_block = shmem_calloc(2 * N, sizeof(long));
    uint64_t *flags = shmem_calloc(2, sizeof(uint64_t)); /* [0] from the left, [1] from the right */
    long *src = malloc(N * sizeof *src);
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    shmem_barrier_all();
    for (int r = 0; r < ROUNDS; r++) {
        long *blocks = r % 2 ? &global_block[0][0] : heap_block;
        for (int i = 0; i < N; i++)
            src[i] = (long)r * 1000000 + me * 1000 + i;
        /* slot 0 of the right neighbour: from its left (us); slot 1 of the left one: from its
         * right (us) */
        shmem_long_put(blocks, src, N, right);
        shmem_long_put(blocks + N, src, N, left);
        shmem_pe_quiet(&right, 1);
        shmem_ctx_uint64_atomic_add(ctx, &flags[0], 1, right);
        shmem_ctx_quiet(ctx);
        shmem_quiet();
        shmem_ctx_uint64_atomic_add(ctx, &flags[1], 1, left);
        shmem_ctx_quiet(ctx);
        shmem_uint64_wait_until(&flags[0], SHMEM_CMP_GE, (uint64_t)r + 1);
        for (int i = 0; i < N; i++)
            CHECK_EQ_LONG(blocks[i], (long)r * 1000000 + left * 1000 + i, "block from the left");
        shmem_uint64_wait_until(&flags[1], SHMEM_CMP_GE, (uint64_t)r + 1);
        for (int i = 0; i < N; i++)
            CHECK_EQ_LONG(blocks[N + i], (long)r * 1000000 + right * 1000 + i,
                          "block from the right");
        shmem_barrier_all(); /* nobody overwrites a block before its owner checked it */
    }
    /* A list with duplicates and this PE itself is fine. */
    int list[3] = {right, me, right};
    shmem_pe_quiet(list, 3);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    free(src);
    shmem_barrier_all();
    shmem_free(flags);
    shmem_free(heap_block);
    return check_finish();
}
