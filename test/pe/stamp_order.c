/*
 * stamp_order.c: a stamped header (the MPI-style gather family through UCX where puts are
 * one-sided) never has its stamp word written by its data put. Under the weak-ordering
 * emulation (weak_order.c) with a UCX that reports 1.14, whose fence is ucp_worker_fence, a
 * put of 24 bytes or more is held back past the stamp: a header put with the stamp word in
 * it (16 bytes of header and 8 of data) then sets the stamp back to 0 after it landed, or
 * lands after the receiver read it. Leaving the stamp word out, the header's count and its
 * data go as 8-byte puts, which are not held.
 *
 * sshmem-test: np=2 3 4
 */
#include <shmemx.h>
#include "check.h"
#include "weak_order.h"

#define CALLS 200

int main(void)
{
    weak_order_setup(24);
    weak_order_fake_version(1, 14, 0);
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    long *dest = shmem_malloc((size_t)npes * sizeof *dest);
    size_t counts[64], displs[64];
    for (int i = 0; i < npes; i++) {
        counts[i] = 1;
        displs[i] = (size_t)i;
    }
    for (long call = 1; call <= CALLS; call++) {
        const int root = (int)(call % npes);
        long src = call * 100 + me;
        shmemx_gatherv(SHMEM_TEAM_WORLD, dest, &src, 1, me == root ? counts : NULL,
                       me == root ? displs : NULL, SHMEMX_LONG, root);
        if (me == root)
            for (int i = 0; i < npes; i++)
                CHECK(dest[i] == call * 100 + i, "call %ld: PE %d's long is %ld", call, i,
                      dest[i]);
    }
    shmem_free(dest);
    return check_finish();
}
