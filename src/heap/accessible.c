/* accessible.c: shmem_ptr, shmem_pe_accessible, shmem_addr_accessible: what this PE can reach
 * and address directly (no communication; the allocation routines are src/api). */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"

static void check_init(const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
}

SSHMEM_DEFINE(void *, shmem_ptr, (const void *dest, int pe))
{
    size_t off;
    check_init("shmem_ptr");
    if ((unsigned)pe >= (unsigned)sshmem.n_pes)
        return NULL;
    int r = sshmem_region_of(dest, 1, &off);
    if (r < 0)
        return NULL;
    /* A PE can always address its own memory, also when SSHMEM_LOCAL=ucx sends its own
     * puts through UCX (that choice leaves direct[] empty, for the transport's sake only). */
    if (pe == sshmem.my_pe)
        return (void *)dest;
    if (!sshmem.peers[pe].direct[r])
        return NULL;
    return sshmem.peers[pe].direct[r] + off;
}

SSHMEM_DEFINE(int, shmem_pe_accessible, (int pe))
{
    check_init("shmem_pe_accessible");
    return (unsigned)pe < (unsigned)sshmem.n_pes;
}

SSHMEM_DEFINE(int, shmem_addr_accessible, (const void *addr, int pe))
{
    size_t off;
    check_init("shmem_addr_accessible");
    return (unsigned)pe < (unsigned)sshmem.n_pes && sshmem_region_of(addr, 1, &off) >= 0;
}
