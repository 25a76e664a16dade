/* pmix_host.c: oshrun as a PMIx server host (libpmix server API) for the PEs of one job.
 *
 * On one host the server library does nearly everything itself: fences among local clients
 * complete without the host. The callback that matters is abort (without it a client's
 * PMIx_Abort, i.e. shmem_global_exit, is silently ignored); fence_nb must exist too (see
 * on_fence). Asynchronous registration calls are waited for with a latch (mutex + condition
 * variable). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pmix.h> /* PMIx_Error_string */
#include <pmix_server.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmix_host.h"
#include "pmix_log.h"
#include "pmix_peers.h"
#include "topology.h"
#include "util.h"

/* Long enough for a loaded machine, short enough that a wedged PMIx cannot hang oshrun. */
#define REGISTER_TIMEOUT_S 30.0
#define DEREGISTER_TIMEOUT_S 2.0

static struct {
    bool initialized;
    bool registered;
    int np;
    pmix_nspace_t nspace;
} server;

/* Written by the abort callback in PMIx's thread, read by the main loop. */
static struct {
    pthread_mutex_t lock;
    bool happened;
    bool taken;
    struct osh_abort first;
    int notify[2]; /* self-pipe: the callback writes a byte to wake the main loop */
    osh_abort_probe_fn probe;
    void *probe_ctx;
} abort_state = { .lock = PTHREAD_MUTEX_INITIALIZER, .notify = { -1, -1 } };

/* What each PE told the server about its life, set in PMIx's thread. The server answers a
 * client's PMIx_Finalize or PMIx_Abort only after the callback returned, so by the time the
 * main loop reaps a PE its flags are final (job.c: a PE that joined the job but exited with 0
 * without finalizing is a failure). */
enum { PE_CONNECTED = 1, PE_FINALIZED = 2, PE_ABORTED = 4 };
static struct {
    pthread_mutex_t lock;
    unsigned char *flags; /* per rank */
    int np;
} pe_life = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void pe_life_mark(const pmix_proc_t *proc, unsigned char flag)
{
    pthread_mutex_lock(&pe_life.lock);
    if (pe_life.flags && proc->rank < (pmix_rank_t)pe_life.np)
        pe_life.flags[proc->rank] |= flag;
    pthread_mutex_unlock(&pe_life.lock);
}

bool osh_pmix_left_unfinalized(int rank)
{
    pthread_mutex_lock(&pe_life.lock);
    unsigned char f = pe_life.flags && rank >= 0 && rank < pe_life.np ? pe_life.flags[rank] : 0;
    pthread_mutex_unlock(&pe_life.lock);
    return (f & PE_CONNECTED) && !(f & (PE_FINALIZED | PE_ABORTED));
}

/* ------------------------------------------------------------------ waiting for callbacks */

struct latch {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int pending;
    pmix_status_t status; /* the first failure reported, or PMIX_SUCCESS */
};

/* Heap-allocated: if a wait times out, the callback may still come later and must find live
 * memory, so a timed-out latch is deliberately leaked. */
static struct latch *latch_new(int pending)
{
    struct latch *l = osh_xcalloc(1, sizeof *l);
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->cond, NULL);
    l->pending = pending;
    l->status = PMIX_SUCCESS;
    return l;
}

static void latch_count_down(struct latch *l, pmix_status_t status)
{
    pthread_mutex_lock(&l->lock);
    if (status != PMIX_SUCCESS && l->status == PMIX_SUCCESS)
        l->status = status;
    if (--l->pending == 0)
        pthread_cond_broadcast(&l->cond);
    pthread_mutex_unlock(&l->lock);
}

static void latch_op_cb(pmix_status_t status, void *cbdata)
{
    latch_count_down(cbdata, status);
}

/* A non-blocking PMIx call either promises the callback (PMIX_SUCCESS), completed at once
 * (PMIX_OPERATION_SUCCEEDED) or failed; in the last two cases no callback will come. */
static void latch_account_call(struct latch *l, pmix_status_t rc)
{
    if (rc == PMIX_OPERATION_SUCCEEDED)
        latch_count_down(l, PMIX_SUCCESS);
    else if (rc != PMIX_SUCCESS)
        latch_count_down(l, rc);
}

/* Wait for all callbacks; frees the latch unless the wait timed out. */
static pmix_status_t latch_wait(struct latch *l, double seconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += (time_t)seconds;
    pthread_mutex_lock(&l->lock);
    int rc = 0;
    while (l->pending > 0 && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&l->cond, &l->lock, &deadline);
    bool done = l->pending == 0;
    pmix_status_t status = done ? l->status : PMIX_ERR_TIMEOUT;
    pthread_mutex_unlock(&l->lock);
    if (done) {
        pthread_cond_destroy(&l->cond);
        pthread_mutex_destroy(&l->lock);
        free(l);
    }
    return status;
}

/* ------------------------------------------------------------------ server callbacks */

/* A PE called PMIx_Abort (shmem_global_exit, or a fatal error in the library). oshrun ends the
 * whole job whatever procs says: OpenSHMEM has no partial abort. Runs in PMIx's thread, so it
 * only records the first abort and wakes the main loop. */
static pmix_status_t on_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pe_life_mark(proc, PE_ABORTED); /* every aborting PE, not only the first */
    osh_pmix_log_drop_held(); /* before libpmix's complaints about the PEs that will be cut */
    pthread_mutex_lock(&abort_state.lock);
    if (!abort_state.happened) {
        abort_state.happened = true;
        abort_state.first.rank = (int)proc->rank;
        abort_state.first.status = status;
        snprintf(abort_state.first.msg, sizeof abort_state.first.msg, "%s", msg ? msg : "");
        /* Which PEs had already died: they may be the cause of this abort (verdict.c). */
        abort_state.first.position =
            abort_state.probe ? abort_state.probe(abort_state.probe_ctx) : -1;
    }
    pthread_mutex_unlock(&abort_state.lock);
    ssize_t w = write(abort_state.notify[1], "a", 1);
    (void)w; /* a full pipe already means "abort pending" */
    /* Release the caller: it returns from PMIx_Abort and exits, or the main loop kills it. */
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

/* All participants of a fence are local, so libpmix completes fences itself and this is not
 * called on the normal path. It is called when a client dies while the others wait in a fence:
 * libpmix 4.2.2 then hands the fence to the host without checking fence_nb for NULL
 * (measured: a NULL fence_nb crashes oshrun there), with no data. The survivors must learn
 * that a participant is gone; with data, hand it straight back. */
static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    pmix_status_t status = (data == NULL && ndata == 0) ? PMIX_ERR_LOST_CONNECTION : PMIX_SUCCESS;
    if (cbfunc)
        cbfunc(status, data, ndata, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

/* A PE's card is fetched from the server when another PE first asks for it (direct modex):
 * on one host every PE is this server's client, so libpmix answers from the data the PE
 * committed before the start-up fence, without calling this. Data of a proc the library
 * does not hold would live on another host: there is none. Set rather than NULL for the
 * same reason as on_fence. */
static pmix_status_t on_direct_modex(const pmix_proc_t *proc, const pmix_info_t info[],
                                     size_t ninfo, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* The PEs' exits arrive as SIGCHLD; what is tracked here is whether they joined (PMIx_Init)
 * and left properly (PMIx_Finalize, called by shmem_finalize).
 * A client is refused while a process of another user is connected to the server: libpmix
 * takes the user id a TCP client claims at its word (pmix_peers.c). */
static pmix_status_t on_client_connected(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    uid_t uid;
    if (osh_pmix_peer_foreign(&uid)) {
        osh_msg("refused a connection to the PMIx server claiming to be PE %u: a process of "
                "user %u is connected, and only user %u's processes may join this job",
                (unsigned)proc->rank, (unsigned)uid, (unsigned)geteuid());
        /* libpmix calls this after telling the client it is in; the client is still finishing
         * its PMIx_Init. Closing its socket at once (the check takes well under a millisecond)
         * left it stuck there one time in five, instead of failing: let it reach its wait for
         * the server first. Only a refused client waits. */
        usleep(100 * 1000);
        return PMIX_ERR_NO_PERMISSIONS;
    }
    pe_life_mark(proc, PE_CONNECTED);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t on_client_finalized(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pe_life_mark(proc, PE_FINALIZED);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t module = {
    .client_connected = on_client_connected,
    .client_finalized = on_client_finalized,
    .abort = on_abort,
    .fence_nb = on_fence,
    .direct_modex = on_direct_modex,
};

/* ------------------------------------------------------------------ start and stop */

/* Where libpmix keeps the job's data. Its default on one host, a shared-memory store (gds
 * ds21), maps and clears 8 MiB of segments when the job is registered, unmaps them when it is
 * deregistered, and makes every client map them in PMIx_Init: a large part of a small job's
 * start. The hash store sends each client the job's data (a PMIX_PROC_DATA per PE) over its
 * socket into the client's own memory instead: n^2 bytes for the job, which costs more than
 * the segments from about 16 PEs on (test/scale/check-scale.sh shows the CPU time). A user's
 * PMIX_MCA_gds still wins. libpmix reads the variable in PMIx_server_init, and tells the PEs
 * the store itself (PMIX_GDS_MODULE): it is unset again then (returns 1 when it was set), so
 * that the PEs and what they start do not take oshrun's choice for the user's. */
#define HASH_STORE_MAX_PES 16

static int choose_data_store(int np)
{
    if (np > HASH_STORE_MAX_PES || getenv("PMIX_MCA_gds"))
        return 0;
    return setenv("PMIX_MCA_gds", "hash", 1) == 0;
}

int osh_pmix_start(const char *tmpdir, int np)
{
    int chose_store = choose_data_store(np);
    if (pipe2(abort_state.notify, O_CLOEXEC | O_NONBLOCK) != 0) {
        osh_msg("cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    pmix_info_t info[3];
    size_t ninfo = 2;
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    /* oshrun's reading of the topology (topology.c), or libpmix reads it again, I/O included.
     * Set by hand, not loaded: loading would copy the topology, and the server keeps the
     * pointer it is given (oshrun frees the topology after the server, osh_topology_free). */
    static pmix_topology_t topo = { .source = "hwloc" };
    topo.topology = osh_topology();
    if (topo.topology) {
        PMIX_INFO_CONSTRUCT(&info[2]);
        PMIX_LOAD_KEY(info[2].key, PMIX_TOPOLOGY2);
        info[2].value.type = PMIX_TOPO;
        info[2].value.data.topo = &topo;
        ninfo = 3;
    }
    pmix_status_t rc = PMIx_server_init(&module, info, ninfo);
    if (chose_store)
        unsetenv("PMIX_MCA_gds");
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc != PMIX_SUCCESS) {
        osh_msg("cannot start the PMIx server: %s", PMIx_Error_string(rc));
        return -1;
    }
    server.initialized = true;
    return 0;
}

void osh_pmix_stop(void)
{
    if (server.registered) {
        struct latch *l = latch_new(1);
        PMIx_server_deregister_nspace(server.nspace, latch_op_cb, l);
        (void)latch_wait(l, DEREGISTER_TIMEOUT_S);
        server.registered = false;
    }
    if (server.initialized) {
        PMIx_server_finalize();
        server.initialized = false;
    }
    /* The callback thread is gone now: the pipe can close, the flags go. */
    free(pe_life.flags);
    pe_life.flags = NULL;
    pe_life.np = 0;
    for (int i = 0; i < 2; i++) {
        if (abort_state.notify[i] >= 0)
            close(abort_state.notify[i]);
        abort_state.notify[i] = -1;
    }
}

/* ------------------------------------------------------------------ the job */

static void load_u32(pmix_info_t *info, const char *key, uint32_t v)
{
    PMIx_Info_load(info, key, &v, PMIX_UINT32);
}

static void load_u16(pmix_info_t *info, const char *key, uint16_t v)
{
    PMIx_Info_load(info, key, &v, PMIX_UINT16);
}

/* "0,1,...,np-1": the local peers, i.e. every PE. */
static char *rank_list(int np)
{
    char *s = osh_xmalloc((size_t)np * 6 + 1);
    size_t len = 0;
    for (int r = 0; r < np; r++)
        len += (size_t)sprintf(s + len, r ? ",%d" : "%d", r);
    return s;
}

/* The node and process maps clients decode in PMIx_Init (without them it fails). For one host
 * and a range of ranks both generators return short "pmix:" strings, not binary blobs. */
static int load_maps(pmix_info_t *node_map, pmix_info_t *proc_map, const char *host, int np)
{
    char *nodes = NULL, *procs = NULL, ranks[32];
    snprintf(ranks, sizeof ranks, np > 1 ? "0-%d" : "0", np - 1);
    pmix_status_t rc = PMIx_generate_regex(host, &nodes);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_generate_ppn(ranks, &procs);
    if (rc != PMIX_SUCCESS) {
        osh_msg("cannot describe the job to PMIx: %s", PMIx_Error_string(rc));
        free(nodes);
        return -1;
    }
    PMIx_Info_load(node_map, PMIX_NODE_MAP, nodes, PMIX_STRING);
    PMIx_Info_load(proc_map, PMIX_PROC_MAP, procs, PMIX_STRING);
    free(nodes);
    free(procs);
    return 0;
}

/* PMIX_PROC_DATA for one PE: an array that must start with its rank. */
static void load_proc_data(pmix_info_t *info, int rank, const char *host)
{
    pmix_data_array_t *darray;
    PMIX_DATA_ARRAY_CREATE(darray, 6, PMIX_INFO);
    if (!darray) {
        osh_msg("out of memory");
        exit(OSH_EXIT_INTERNAL);
    }
    pmix_info_t *d = darray->array;
    pmix_rank_t r = (pmix_rank_t)rank;
    PMIx_Info_load(&d[0], PMIX_RANK, &r, PMIX_PROC_RANK);
    load_u16(&d[1], PMIX_LOCAL_RANK, (uint16_t)rank);
    load_u16(&d[2], PMIX_NODE_RANK, (uint16_t)rank);
    PMIx_Info_load(&d[3], PMIX_HOSTNAME, host, PMIX_STRING);
    load_u32(&d[4], PMIX_NODEID, 0);
    load_u32(&d[5], PMIX_APPNUM, 0);
    /* The info takes ownership of the array (PMIx_Info_load would copy it). */
    PMIX_LOAD_KEY(info->key, PMIX_PROC_DATA);
    info->value.type = PMIX_DATA_ARRAY;
    info->value.data.darray = darray;
}

#define JOB_KEYS 11

/* Job-level keys, then one PMIX_PROC_DATA per PE. */
static pmix_info_t *job_info(int np, size_t *ninfo)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    pmix_info_t *info;
    *ninfo = JOB_KEYS + (size_t)np;
    PMIX_INFO_CREATE(info, *ninfo);
    if (!info || load_maps(&info[0], &info[1], host, np) != 0) {
        if (info)
            PMIX_INFO_FREE(info, *ninfo);
        return NULL;
    }
    load_u32(&info[2], PMIX_JOB_SIZE, (uint32_t)np);
    load_u32(&info[3], PMIX_UNIV_SIZE, (uint32_t)np);
    load_u32(&info[4], PMIX_MAX_PROCS, (uint32_t)np);
    load_u32(&info[5], PMIX_APP_SIZE, (uint32_t)np);
    load_u32(&info[6], PMIX_LOCAL_SIZE, (uint32_t)np);
    load_u32(&info[7], PMIX_NUM_NODES, 1);
    load_u32(&info[8], PMIX_NODEID, 0);
    char *peers = rank_list(np);
    PMIx_Info_load(&info[9], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    free(peers);
    PMIx_Info_load(&info[10], PMIX_JOBID, server.nspace, PMIX_STRING);
    for (int r = 0; r < np; r++)
        load_proc_data(&info[JOB_KEYS + r], r, host);
    return info;
}

static int register_nspace(int np)
{
    size_t ninfo;
    pmix_info_t *info = job_info(np, &ninfo);
    if (!info)
        return -1;
    struct latch *l = latch_new(1);
    latch_account_call(l, PMIx_server_register_nspace(server.nspace, np, info, ninfo,
                                                      latch_op_cb, l));
    pmix_status_t rc = latch_wait(l, REGISTER_TIMEOUT_S);
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        osh_msg("cannot register the job with the PMIx server: %s", PMIx_Error_string(rc));
        return -1;
    }
    server.registered = true;
    return 0;
}

/* All clients at once, then one wait: no round trip per PE. */
static int register_clients(int np)
{
    struct latch *l = latch_new(np);
    for (int r = 0; r < np; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, server.nspace, (pmix_rank_t)r);
        latch_account_call(l, PMIx_server_register_client(&proc, geteuid(), getegid(), NULL,
                                                          latch_op_cb, l));
    }
    pmix_status_t rc = latch_wait(l, REGISTER_TIMEOUT_S);
    if (rc != PMIX_SUCCESS) {
        osh_msg("cannot register the PEs with the PMIx server: %s", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int osh_pmix_register_job(int np)
{
    server.np = np;
    pthread_mutex_lock(&pe_life.lock);
    pe_life.flags = osh_xcalloc((size_t)np, 1);
    pe_life.np = np;
    pthread_mutex_unlock(&pe_life.lock);
    snprintf(server.nspace, sizeof server.nspace, "oshrun.%ld", (long)getpid());
    if (register_nspace(np) != 0)
        return -1;
    return register_clients(np);
}

int osh_pmix_setup_fork(int rank, char ***env)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, server.nspace, (pmix_rank_t)rank);
    pmix_status_t rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS) {
        osh_msg("cannot prepare the environment of PE %d: %s", rank, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ abort, main-loop side */

void osh_pmix_set_abort_probe(osh_abort_probe_fn probe, void *ctx)
{
    pthread_mutex_lock(&abort_state.lock); /* the callback calls the probe under this lock */
    abort_state.probe = probe;
    abort_state.probe_ctx = ctx;
    pthread_mutex_unlock(&abort_state.lock);
}

int osh_pmix_abort_fd(void)
{
    return abort_state.notify[0];
}

bool osh_pmix_take_abort(struct osh_abort *out)
{
    char drain[64];
    while (abort_state.notify[0] >= 0 && read(abort_state.notify[0], drain, sizeof drain) > 0)
        ;
    bool fresh = false;
    pthread_mutex_lock(&abort_state.lock);
    if (abort_state.happened && !abort_state.taken) {
        abort_state.taken = true;
        *out = abort_state.first;
        fresh = true;
    }
    pthread_mutex_unlock(&abort_state.lock);
    return fresh;
}
