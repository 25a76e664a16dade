/*
 * ucx.c: the transport of transport.h over UCP (UCX 1.12+): the UCX context, the symmetric
 * memory it registers, the cards PEs exchange, and the default context's worker.
 * ucx_worker.c adds the workers of contexts made later, ucx_ops.c the one-sided operations,
 * progress_thread.c the thread that serves incoming emulated operations. Only these files
 * include ucp.h.
 *
 * One UCX context; one worker per communication context; one endpoint per (worker, peer) and
 * one unpacked rkey per (worker, peer, region). Every peer's endpoints point at the worker
 * whose address is in its card: its default worker.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/statvfs.h>

#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_quirks.h"
#include "transport/ucx_tx.h"

ucp_context_h sshmem_ucx_context;
uint64_t sshmem_ucx_messages;
static struct sshmem_tx default_tx;
static ucp_mem_h mem[SSHMEM_NUM_REGIONS];
static void *packed_rkey[SSHMEM_NUM_REGIONS];
static size_t packed_rkey_len[SSHMEM_NUM_REGIONS];
int sshmem_ucx_rma_emulated;
int sshmem_ucx_rma_shm;

/* Whether st is what an operation with a PE that has died returns: its shared memory is
 * gone, its socket reset, it no longer answers. */
static int peer_lost(ucs_status_t st)
{
    return st == UCS_ERR_SHMEM_SEGMENT || st == UCS_ERR_CONNECTION_RESET ||
           st == UCS_ERR_ENDPOINT_TIMEOUT || st == UCS_ERR_UNREACHABLE ||
           st == UCS_ERR_REJECTED || st == UCS_ERR_IO_ERROR;
}

/* A PE that dies makes its peers' next operations with it fail: core/error.h says why such
 * a failure waits for the launcher a moment before it ends the job. */
void sshmem_ucx_fail(const char *call, const char *what, ucs_status_t st)
{
    if (peer_lost(st))
        sshmem_fatal_peer_lost(call, "UCX %s failed: %s", what, ucs_status_string(st));
    sshmem_fatal(call, "UCX %s failed: %s", what, ucs_status_string(st));
}

struct sshmem_tx *sshmem_tx_default(void) { return &default_tx; }

const char *sshmem_tx_version(void) { return ucp_get_version_string(); }

const char *sshmem_tx_workarounds(void) { return sshmem_ucx_quirks_describe(); }

/*
 * Whether every transport UCX chose moves one-sided operations as messages or as CPU memory
 * accesses: UCX 1.13 has no call that says which transports an endpoint uses, so this reads
 * the resource lines of ucp_context_print_info ("... flags -- tcp/eth0"). Transports not
 * named below (rc, dc, ugni, GPU ones) count as RDMA, the safe answer: it only costs the
 * one-message collectives of ucx_put_add.c.
 */
static int transport_emulates_rma(const char *tl)
{
    static const char *const emulated[] = {"self", "tcp", "sysv", "posix", "cma", "knem",
                                           "xpmem", "ud_verbs", "ud_mlx5", NULL};
    for (int i = 0; emulated[i]; i++) {
        size_t n = strlen(emulated[i]);
        if (strncmp(tl, emulated[i], n) == 0 && tl[n] == '/')
            return 1;
    }
    return 0;
}

static int transport_is_shm(const char *tl)
{
    static const char *const shm[] = {"sysv", "posix", "cma", "knem", "xpmem", NULL};
    for (int i = 0; shm[i]; i++) {
        size_t n = strlen(shm[i]);
        if (strncmp(tl, shm[i], n) == 0 && tl[n] == '/')
            return 1;
    }
    return 0;
}

/* Sets sshmem_ucx_rma_shm on the way. */
static int every_transport_emulates_rma(void)
{
    char *text = NULL, *save;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 0;
    ucp_context_print_info(sshmem_ucx_context, f);
    fclose(f);
    int all = 1, any = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *tl = strstr(line, " -- ");
        if (!strstr(line, "resource") || !tl)
            continue;
        any = 1;
        all &= transport_emulates_rma(tl + 4);
        sshmem_ucx_rma_shm |= transport_is_shm(tl + 4);
    }
    free(text);
    return any && all;
}

/* The worker's shared-memory queues are files of UCX's posix transport, in UCX_POSIX_DIR
 * (oshrun sets it to the job's directory in /dev/shm): when that file system is (nearly) full
 * the failure is that limit, which UCX's status ("Out of memory") does not say. */
#define QUEUE_ROOM (16u << 20) /* a worker's queues and receive buffers, with room to spare */

static SSHMEM_NORETURN void worker_failed(ucs_status_t st)
{
    const char *dir = getenv("UCX_POSIX_DIR");
    struct statvfs fs;
    if (!dir || !*dir)
        dir = "/dev/shm";
    if (statvfs(dir, &fs) == 0 && (unsigned long long)fs.f_bavail * fs.f_frsize < QUEUE_ROOM) {
        char free_b[32], all_b[32];
        sshmem_fatal("shmem_init", "UCX worker creation failed (%s): %s has %s free of %s, and "
                     "UCX's shared-memory transport keeps each PE's queues there (a few MiB "
                     "per PE). Free space there (remove stale files), or make it larger "
                     "(for /dev/shm: mount -o remount,size=2G /dev/shm).", ucs_status_string(st), dir,
                     sshmem_human_bytes((size_t)fs.f_bavail * fs.f_frsize, free_b),
                     sshmem_human_bytes((size_t)fs.f_blocks * fs.f_frsize, all_b));
    }
    sshmem_ucx_fail("shmem_init", "worker creation", st);
}

void sshmem_tx_init(int thread_multiple, int hosts)
{
    /* The wake-up feature lets a progress thread sleep on the default worker. Whether one
     * runs is known only once every peer is connected, so ask for it unless it is ruled out;
     * it costs nothing measurable on the operations. */
    int wakeup = sshmem_env.progress_thread != SSHMEM_PROGRESS_THREAD_OFF;
    sshmem_ucx_quirks_choose();
    ucp_params_t params = {0};
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "configuration", st);
    sshmem_ucx_private_config(config, hosts);
    sshmem_ucx_default_config(config, hosts);
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
    /* Active messages carry packed non-contiguous data (ucx_staging.c). */
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM |
                      (wakeup ? UCP_FEATURE_WAKEUP : 0);
    /* Workers used by different threads at the same time (the progress thread's, those of
     * per-thread contexts) share the context's registration state: make that thread-safe. */
    params.mt_workers_shared = thread_multiple || wakeup;
    st = ucp_init(&params, config, &sshmem_ucx_context);
    ucp_config_release(config);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "initialisation (ucp_init)", st);
    sshmem_ucx_rma_emulated = every_transport_emulates_rma();

    /* SERIALIZED: the progress thread or other threads may call into it, one at a time under
     * default_tx.lock (see ucx_tx.h). */
    ucp_worker_params_t wp = {0};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = UCS_THREAD_MODE_SERIALIZED;
    st = ucp_worker_create(sshmem_ucx_context, &wp, &default_tx.worker);
    if (st != UCS_OK)
        worker_failed(st);
    sshmem_ucx_private_segments(); /* the transports' queues */
    if (sshmem_ucx_cards_init() != 0 || sshmem_ucx_tx_setup(&default_tx, thread_multiple) != 0)
        sshmem_fatal("shmem_init", "out of memory for %d peers", sshmem.n_pes);
}

static void pack_rkey(enum sshmem_region region)
{
    ucs_status_t st = ucp_rkey_pack(sshmem_ucx_context, mem[region], &packed_rkey[region],
                                    &packed_rkey_len[region]);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "rkey packing", st);
}

void sshmem_tx_register(enum sshmem_region region, void *base, size_t size)
{
    ucp_mem_map_params_t mp = {0};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = base;
    mp.length = size;
    ucs_status_t st = ucp_mem_map(sshmem_ucx_context, &mp, &mem[region]);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", region == SSHMEM_REGION_HEAP
                                          ? "registration of the symmetric heap"
                                          : "registration of global data", st);
    pack_rkey(region);
}

void *sshmem_tx_heap_alloc(void *at, size_t size)
{
    ucp_mem_map_params_t mp = {0};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
    mp.length = size;
    mp.flags = UCP_MEM_MAP_ALLOCATE;
    ucs_status_t st = UCS_ERR_NO_MEMORY;
    if (at) {
        mp.field_mask |= UCP_MEM_MAP_PARAM_FIELD_ADDRESS;
        mp.address = at;
        mp.flags |= UCP_MEM_MAP_FIXED;
        st = ucp_mem_map(sshmem_ucx_context, &mp, &mem[SSHMEM_REGION_HEAP]);
        if (st != UCS_OK)
            munmap(at, size); /* give the reservation back */
    }
    if (st != UCS_OK) { /* anywhere: shmem_align then reaches only the page alignment */
        mp.field_mask &= ~UCP_MEM_MAP_PARAM_FIELD_ADDRESS;
        mp.flags &= ~UCP_MEM_MAP_FIXED;
        st = ucp_mem_map(sshmem_ucx_context, &mp, &mem[SSHMEM_REGION_HEAP]);
    }
    if (st != UCS_OK) {
        char b[32];
        sshmem_fatal("shmem_init", "cannot allocate the symmetric heap of %s (UCX: %s). "
                     "Lower SHMEM_SYMMETRIC_SIZE or free memory.",
                     sshmem_human_bytes(size, b), ucs_status_string(st));
    }
    ucp_mem_attr_t attr;
    attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
    st = ucp_mem_query(mem[SSHMEM_REGION_HEAP], &attr);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "heap query", st);
    sshmem_ucx_private_segments(); /* a SysV heap becomes the user's alone */
    pack_rkey(SSHMEM_REGION_HEAP);
    return attr.address;
}

/* Card layout: u32 address length, address, then per region u32 rkey length and rkey. */
static void put_blob(char **p, const void *data, size_t len)
{
    uint32_t l = (uint32_t)len;
    memcpy(*p, &l, 4);
    if (len)
        memcpy(*p + 4, data, len);
    *p += 4 + len;
}

/* The next blob of a card, copied into malloc'ed memory (NULL when the card is short). */
static void *get_blob(const char **p, const char *end, size_t *len)
{
    uint32_t l;
    if (end - *p < 4)
        return NULL;
    memcpy(&l, *p, 4);
    if ((size_t)(end - *p - 4) < l)
        return NULL;
    void *copy = malloc(l ? l : 1);
    if (copy && l)
        memcpy(copy, *p + 4, l);
    *p += 4 + l;
    *len = l;
    return copy;
}

void *sshmem_tx_card(size_t *len)
{
    ucp_address_t *addr;
    size_t addr_len;
    ucs_status_t st = ucp_worker_get_address(default_tx.worker, &addr, &addr_len);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "worker address", st);
    const uint8_t flags[2] = {(uint8_t)sshmem_ucx_rma_emulated, (uint8_t)sshmem_ucx_rma_shm};
    size_t total = 4 + addr_len + 4 + sizeof flags;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        total += 4 + packed_rkey_len[r];
    char *card = malloc(total), *p = card;
    if (!card)
        sshmem_fatal("shmem_init", "out of memory for this PE's card");
    put_blob(&p, addr, addr_len);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        put_blob(&p, packed_rkey[r], packed_rkey_len[r]);
    put_blob(&p, flags, sizeof flags);
    ucp_worker_release_address(default_tx.worker, addr);
    *len = total;
    return card;
}

void sshmem_tx_connect(int pe, const void *card, size_t len)
{
    const char *p = card, *end = p + len;
    sshmem_ucx_card_t *c = sshmem_ucx_card_made(pe);
    c->address = get_blob(&p, end, &c->address_len);
    if (!c->address)
        sshmem_fatal("shmem_init", "malformed address card from PE %d", pe);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        c->rkey[r] = get_blob(&p, end, &c->rkey_len[r]);
        if (!c->rkey[r])
            sshmem_fatal("shmem_init", "malformed rkey from PE %d", pe);
    }
    size_t flag_len;
    uint8_t *flags = get_blob(&p, end, &flag_len);
    if (!flags || flag_len != 2)
        sshmem_fatal("shmem_init", "malformed address card from PE %d", pe);
    c->rma_emulated = flags[0];
    c->rma_shm = flags[1];
    free(flags);
    /* The endpoint comes with the first operation (sshmem_ucx_ep), or with direct_ptr. */
}

void *sshmem_tx_direct_ptr(int pe, enum sshmem_region region, uint64_t raddr)
{
    void *local = NULL;
    sshmem_tx_lock(&default_tx); /* the endpoint may be made now, beside the progress thread */
    sshmem_ucx_ep(&default_tx, pe, "shmem_init");
    ucp_rkey_h rkey = sshmem_ucx_peer(&default_tx, pe)->rkey[region];
    if (!rkey || ucp_rkey_ptr(rkey, raddr, &local) != UCS_OK)
        local = NULL;
    sshmem_tx_unlock(&default_tx);
    return local;
}

void sshmem_tx_drain(void)
{
    /* A quiet of every endpoint (the collectives' signals included): it takes the worker's
     * lock, which the progress thread (still running) uses. */
    if (sshmem_ucx_context)
        sshmem_tx_quiet_all(&default_tx);
}

void sshmem_tx_finalize(void)
{
    if (!sshmem_ucx_context)
        return;
    sshmem_ucx_progress_thread_stop();
    sshmem_ucx_release_idle();
    /* No quiet here: sshmem_tx_drain completed the last operations before the final fence,
     * and the peers may be gone already (flushing towards them fails). Forced close for the
     * same reason; the drain only catches what a profile gather or the like left behind. */
    sshmem_ucx_drain(&default_tx);
    sshmem_ucx_tx_teardown(&default_tx, 1);
    sshmem_ucx_put_add_release();
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        if (packed_rkey[r])
            ucp_rkey_buffer_release(packed_rkey[r]);
        if (mem[r])
            ucp_mem_unmap(sshmem_ucx_context, mem[r]);
        packed_rkey[r] = NULL;
        mem[r] = NULL;
    }
    ucp_cleanup(sshmem_ucx_context);
    sshmem_ucx_context = NULL;
    sshmem_ucx_cards_free();
}

uint64_t sshmem_tx_messages_sent(void)
{
    return __atomic_load_n(&sshmem_ucx_messages, __ATOMIC_RELAXED);
}
