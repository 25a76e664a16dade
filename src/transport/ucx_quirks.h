/*
 * ucx_quirks.h: workarounds for defects of particular UCX versions. They are chosen once at
 * start-up from the version of the UCX library really loaded (ucp_get_version), so a UCX that
 * does not need them does not pay for them, and SHMEM_INFO and oshinfo name the ones in use.
 * No ucp.h here: oshinfo includes it too.
 */
#ifndef SSHMEM_UCX_QUIRKS_H
#define SSHMEM_UCX_QUIRKS_H

struct sshmem_ucx_quirks {
    /* A fetching AND/OR/XOR returns the old value but leaves the target unchanged: carry it
     * as a compare-and-swap loop (ucx_ops.c, fetch_bitwise_by_cas). */
    int bitwise_fetch_by_cas;
    /* A flush does not wait for an emulated non-fetching atomic to be applied: every atomic
     * on global data (emulated on-host) fetches. */
    int globals_amo_fetch;
    /* A flush does not wait for emulated puts and atomics to be applied: quiet sends a get
     * behind them to every PE whose global data it touched (ucx_ops.c, probe_emulated). */
    int probe_emulated;
    /* ucp_worker_fence orders only within one lane (one transport interface): a large put on
     * a zero-copy or rendezvous lane and a later small put or atomic may land in either order
     * on RDMA. A fence completes what is pending instead (ucx_ops.c, sshmem_tx_fence). */
    int fence_by_flush;
};

extern struct sshmem_ucx_quirks sshmem_ucx_quirks;

/* Choose by the loaded UCX's version (idempotent). */
void sshmem_ucx_quirks_choose(void);
/* The workarounds in use, for people: "none" or a comma-separated list with the reason. */
const char *sshmem_ucx_quirks_describe(void);

#endif
