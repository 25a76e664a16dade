/* pe_info.c: who am I, how many are we, which library is this. */
#include <string.h>
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"

SSHMEM_DEFINE(int, shmem_my_pe, (void))
{
    return sshmem.initialized ? sshmem.my_pe : -1;
}

SSHMEM_DEFINE(int, shmem_n_pes, (void))
{
    return sshmem.initialized ? sshmem.n_pes : -1;
}

SSHMEM_DEFINE(int, _my_pe, (void)) { return pshmem_my_pe(); }
SSHMEM_DEFINE(int, _num_pes, (void)) { return pshmem_n_pes(); }

SSHMEM_DEFINE(void, shmem_info_get_version, (int *major, int *minor))
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

SSHMEM_DEFINE(void, shmem_info_get_name, (char *name))
{
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

SSHMEM_DEFINE(int, shmem_query_initialized, (int *initialized))
{
    *initialized = sshmem.initialized;
    return 0;
}

SSHMEM_DEFINE(int, shmem_query_finalized, (int *finalized))
{
    *finalized = sshmem.finalized;
    return 0;
}

SSHMEM_DEFINE(void, shmem_query_thread, (int *provided))
{
    *provided = sshmem.thread_level;
}
