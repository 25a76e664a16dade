/*
 * profile_gather.c: the traffic profile's life: this PE's row at start-up, and the gather of
 * every row to PE 0 at shmem_finalize (see core/profile.h for what is counted and how).
 *
 * The row sits in the library's symmetric scratch, so the gather is PE 0 reading each row
 * with an internal get (not counted) while the other PEs wait in a sync, which is also what
 * drives their progress when the gets are emulated through UCX.
 */
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "coll/barrier.h"
#include "core/env.h"
#include "core/error.h"
#include "core/profile.h"
#include "heap/heap.h"
#include "rma/rma.h"
#include "watch/profile_report.h"
#include "watch/watch.h"

/* A header and a cell per PE, in the internal space (api/space_layout.c lays it out, up to
 * SSHMEM_SPACE_PROFILE_MAX_PES: 256 KiB). */
static size_t row_bytes(void)
{
    return sizeof(sshmem_profile_row_t) + (size_t)sshmem.n_pes * sizeof(sshmem_profile_cell_t);
}

int sshmem_profile_wanted(void)
{
    return sshmem_env.profile && *sshmem_env.profile;
}

void sshmem_profile_init(void)
{
    if (!sshmem_profile_wanted())
        return;
    size_t len = row_bytes();
    /* The internal space has the row when the job is small enough (api/space_layout.c
     * decides, the same on every PE: n_pes is the same). */
    sshmem_profile.row = sshmem_heap_space(SSHMEM_SPACE_PROFILE);
    if (!sshmem_profile.row) {
        if (sshmem.my_pe == 0)
            sshmem_warn("shmem_init", "SSHMEM_PROFILE: %d PEs is more than the profile supports "
                        "(%d); no profile will be written", sshmem.n_pes,
                        SSHMEM_SPACE_PROFILE_MAX_PES);
        return;
    }
    memset(sshmem_profile.row, 0, len);
    sshmem_profile.threads = sshmem.thread_level == SHMEM_THREAD_MULTIPLE;
    sshmem_profile.on = 1;
}

/* PE 0: every PE's row, one after the other (row_bytes() apart); NULL if out of memory. */
static char *gather_rows(void)
{
    size_t len = row_bytes();
    char *rows = malloc(len * (size_t)sshmem.n_pes);
    if (!rows) {
        sshmem_warn("shmem_finalize", "SSHMEM_PROFILE: out of memory for %d rows of %zu bytes; "
                    "no profile written", sshmem.n_pes, len);
        return NULL;
    }
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        sshmem_get_world(SHMEM_CTX_DEFAULT, rows + (size_t)pe * len, sshmem_profile.row, len,
                            pe, 1, "shmem_finalize (SSHMEM_PROFILE)");
    return rows;
}

void sshmem_profile_finalize(void)
{
    if (!sshmem_profile.row)
        return;
    /* The caller's barrier has passed: no PE makes another user call, so the rows are final. */
    sshmem_profile.on = 0;
    char *rows = sshmem.my_pe == 0 ? gather_rows() : NULL;
    sshmem_barrier_world(0); /* PE 0 has read every row; the others progress meanwhile */
    if (rows)
        sshmem_profile_write(sshmem_env.profile, rows, row_bytes(), sshmem.n_pes);
    free(rows);
    sshmem_profile.row = NULL;
}
