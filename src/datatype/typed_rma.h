/* typed_rma.h: the unchecked typed put the collectives use (shmemx_put_type's core). */
#ifndef SSHMEM_DATATYPE_TYPED_RMA_H
#define SSHMEM_DATATYPE_TYPED_RMA_H
#include <shmemx.h>

/* Put count committed elements with the same layout remotely; blocking: source reusable on
 * return (local completion), else at the next quiet. */
void mpix_put_elems(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                    shmemx_datatype_t type, int pe, int blocking, const char *call);

#endif
