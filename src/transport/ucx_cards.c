/*
 * ucx_cards.c: the peers' UCX cards (worker address, packed rkeys, flags), kept for the
 * contexts made later and for answers worked out once per peer.
 *
 * In chunks of SSHMEM_PEER_CHUNK consecutive PEs, each made when the first of its peers is
 * learnt: a PE never learnt costs a share of one chunk pointer, whatever the size of the job.
 */
#include <stdlib.h>

#include "core/error.h"
#include "transport/ucx_tx.h"

static sshmem_ucx_card_t **card_chunks; /* sshmem_peer_chunks(n_pes) pointers */

int sshmem_ucx_cards_init(void)
{
    card_chunks = calloc(sshmem_peer_chunks(sshmem.n_pes), sizeof *card_chunks);
    return card_chunks ? 0 : -1;
}

sshmem_ucx_card_t *sshmem_ucx_card_of(int pe)
{
    sshmem_ucx_card_t *chunk =
        __atomic_load_n(&card_chunks[pe >> SSHMEM_PEER_CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk ? chunk + (pe & (SSHMEM_PEER_CHUNK - 1)) : NULL;
}

sshmem_ucx_card_t *sshmem_ucx_card_made(int pe)
{
    sshmem_ucx_card_t **slot = &card_chunks[pe >> SSHMEM_PEER_CHUNK_BITS];
    if (!*slot) {
        sshmem_ucx_card_t *chunk = calloc(SSHMEM_PEER_CHUNK, sizeof *chunk);
        if (!chunk)
            sshmem_fatal("sshmem", "out of memory for the card of PE %d", pe);
        __atomic_store_n(slot, chunk, __ATOMIC_RELEASE);
    }
    return sshmem_ucx_card_of(pe);
}

void sshmem_ucx_cards_free(void)
{
    if (!card_chunks)
        return;
    for (size_t c = 0; c < sshmem_peer_chunks(sshmem.n_pes); c++) {
        sshmem_ucx_card_t *chunk = card_chunks[c];
        for (int i = 0; chunk && i < SSHMEM_PEER_CHUNK; i++) {
            free(chunk[i].address);
            for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
                free(chunk[i].rkey[r]);
        }
        free(chunk);
    }
    free(card_chunks);
    card_chunks = NULL;
}
