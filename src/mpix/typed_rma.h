/* typed_rma.h: the unchecked typed put the collectives use (shmemx_put_type's core). */
#ifndef SSHMEM_MPIX_TYPED_RMA_H
#define SSHMEM_MPIX_TYPED_RMA_H
#include <shmemx.h>

/* Put count committed elements with the same layout remotely; blocking: source reusable on
 * return (local completion), else at the next quiet. */
void mpix_put_elems(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                    shmemx_datatype_t type, int pe, int blocking, const char *call);

/*
 * Make the puts issued to pe so far arrive before the next channel message to pe. The
 * channel's UCX fence orders UCX puts; direct stores need nothing; only UCX data followed by
 * a direct (on-node) signal needs a quiet: dest in a region pe cannot be reached directly.
 */
void mpix_settle(int pe, const void *dest);

#endif
