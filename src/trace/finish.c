/*
 * finish.c: the end of the trace, in shmem_finalize's wrapper before the library finalizes:
 * every PE writes its part, and after a barrier PE 0 merges them into the two files.
 */
#include <pshmem.h>

#include "trace/trace.h"

void sshmem_trace_finish(uint64_t begin, int routine)
{
    if (!sshmem_trace.on)
        return;
    sshmem_trace_depth--;
    if (begin) /* shmem_finalize's span ends where the tracer starts writing */
        sshmem_trace_record(begin, routine, -1, 0);
    sshmem_trace.on = 0; /* what follows is the tracer's own */
    int me = pshmem_my_pe(), n = pshmem_n_pes();
    int written = sshmem_trace_write_part(sshmem_trace.path, me, n) == 0;
    pshmem_barrier_all(); /* every part is complete */
    if (me == 0 && written) /* PE 0 writes beside its part: if that failed, so would the rest */
        sshmem_trace_merge(sshmem_trace.path, n);
    /* The others wait for PE 0 in pshmem_finalize's own barrier. */
}
