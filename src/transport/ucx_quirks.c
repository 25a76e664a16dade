/*
 * ucx_quirks.c: which UCX-version workarounds this process uses (see ucx_quirks.h).
 *
 * Three defects were measured on UCX 1.13.1 (Debian 12); the fourth, a fence that orders
 * within one lane only, is how UCX before 1.14 implements ucp_worker_fence (1.14 added a
 * fence across lanes; it needs RDMA to show, which is not measured here). Whether a later
 * release fixed the measured ones was not measured here either, so the rule is
 * conservative in one direction only: every release up to 1.13.x gets them, later ones do
 * not (a defect found there gets its own line).
 */
#include <stdio.h>
#include <ucp/api/ucp.h>

#include "transport/ucx_quirks.h"

struct sshmem_ucx_quirks sshmem_ucx_quirks;

static int chosen;
static char description[200];

void sshmem_ucx_quirks_choose(void)
{
    if (chosen)
        return;
    unsigned major, minor, release;
    ucp_get_version(&major, &minor, &release);
    int old = major < 1 || (major == 1 && minor <= 13);
    sshmem_ucx_quirks.bitwise_fetch_by_cas = old;
    sshmem_ucx_quirks.globals_amo_fetch = old;
    sshmem_ucx_quirks.probe_emulated = old;
    sshmem_ucx_quirks.fence_by_flush = old;
    if (old)
        snprintf(description, sizeof description,
                 "fetching AND/OR/XOR as CAS loops, atomics on globals fetch, quiet probes "
                 "emulated peers, fence flushes (UCX %u.%u.%u <= 1.13)", major, minor, release);
    else
        snprintf(description, sizeof description, "none (UCX %u.%u.%u)", major, minor,
                 release);
    chosen = 1;
}

const char *sshmem_ucx_quirks_describe(void)
{
    sshmem_ucx_quirks_choose();
    return description;
}
