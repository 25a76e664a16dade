/* boot_pmix.c: the bootstrap of boot.h over a PMIx client. */
#include <errno.h>
#include <pmix.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/env.h"
#include "core/error.h"
#include "core/sshmem.h"

#define CARD_KEY "sshmem.card"

static pmix_proc_t me;
static int connected; /* PMIx_Init succeeded */
/* A request to the launcher went unanswered: aborting through it would wait on it too. */
static int launcher_silent;

static void boot_fail(const char *what, pmix_status_t rc)
{
    sshmem_fatal("shmem_init", "PMIx %s failed: %s. Start the program with oshrun "
                 "(or another PMIx launcher such as mpirun or srun --mpi=pmix).",
                 what, PMIx_Error_string(rc));
}

/* A job-level uint32 value such as PMIX_JOB_SIZE. */
static int get_job_u32(const char *key, uint32_t *out)
{
    pmix_proc_t wildcard;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&wildcard, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wildcard, key, NULL, 0, &val) != PMIX_SUCCESS || !val)
        return -1;
    int ok = 0;
    switch (val->type) {
    case PMIX_UINT32: *out = val->data.uint32; break;
    case PMIX_INT: *out = (uint32_t)val->data.integer; break;
    case PMIX_UINT16: *out = val->data.uint16; break;
    default: ok = -1;
    }
    PMIX_VALUE_RELEASE(val);
    return ok;
}

void sshmem_boot_init(int *rank, int *size, int *singleton)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        /* No launcher: a plain ./a.out runs as a job of one PE, as users expect. */
        if (getenv("PMIX_NAMESPACE") || getenv("PMIX_SERVER_URI4") || getenv("PMIX_SERVER_URI41"))
            boot_fail("initialisation", rc);
        *rank = 0;
        *size = 1;
        *singleton = 1;
        return;
    }
    connected = 1;
    uint32_t n;
    if (get_job_u32(PMIX_JOB_SIZE, &n) != 0)
        boot_fail("query of the job size", PMIX_ERR_NOT_FOUND);
    *rank = (int)me.rank;
    *size = (int)n;
    *singleton = 0;
}

int sshmem_boot_node_id(void)
{
    if (!connected)
        return 0;
    pmix_value_t *val = NULL;
    int id = -1;
    if (PMIx_Get(&me, PMIX_NODEID, NULL, 0, &val) == PMIX_SUCCESS && val) {
        if (val->type == PMIX_UINT32)
            id = (int)val->data.uint32;
        PMIX_VALUE_RELEASE(val);
    }
    return id;
}

int sshmem_boot_host_count(void)
{
    if (!connected)
        return 1; /* a singleton */
    uint32_t n;
    return get_job_u32(PMIX_NUM_NODES, &n) == 0 ? (int)n : 0;
}

/* The job's hosts, in the launcher's order, sorted by name for lookups. */
struct host_name {
    const char *name;
    int id;
};

static int compare_host(const void *a, const void *b)
{
    return strcmp(((const struct host_name *)a)->name, ((const struct host_name *)b)->name);
}

/* A PE's host name: PMIX_HOSTNAME of that rank, which the PMIx client derives from the job's
 * node and process maps it received at start. PMIX_OPTIONAL keeps the lookup in this
 * process: a key PMIx does not hold is then "not found" at once, where a request forwarded to
 * Open MPI 4's daemons for another host's node data was seen never to return (PMIX_TIMEOUT
 * did not end it). For the same reason neither PMIx_Resolve_peers nor PMIX_LOCAL_PEERS of
 * another host is asked: they list the PEs of a host, but go to the launcher for some hosts. */
static char *host_of(int pe)
{
    pmix_proc_t peer;
    pmix_value_t *val = NULL;
    pmix_info_t local;
    bool yes = true;
    char *name = NULL;
    PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t)pe);
    PMIX_INFO_LOAD(&local, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    if (PMIx_Get(&peer, PMIX_HOSTNAME, &local, 1, &val) == PMIX_SUCCESS && val) {
        if (val->type == PMIX_STRING && val->data.string)
            name = strdup(val->data.string);
        PMIX_VALUE_RELEASE(val);
    }
    PMIX_INFO_DESTRUCT(&local);
    return name;
}

/* The job's host list (PMIX_NODE_LIST, job data), split and sorted; NULL when not given. */
static struct host_name *job_hosts(char **list, int *count)
{
    pmix_proc_t wildcard;
    pmix_value_t *val = NULL;
    pmix_info_t local;
    bool yes = true;
    *list = NULL;
    PMIX_LOAD_PROCID(&wildcard, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&local, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    if (PMIx_Get(&wildcard, PMIX_NODE_LIST, &local, 1, &val) == PMIX_SUCCESS && val) {
        if (val->type == PMIX_STRING && val->data.string)
            *list = strdup(val->data.string);
        PMIX_VALUE_RELEASE(val);
    }
    PMIX_INFO_DESTRUCT(&local);
    if (!*list)
        return NULL;
    int n = 1;
    for (const char *c = *list; *c; c++)
        n += *c == ',';
    struct host_name *hosts = malloc((size_t)n * sizeof *hosts);
    if (!hosts) {
        free(*list);
        *list = NULL;
        return NULL;
    }
    char *save = NULL;
    *count = 0;
    for (char *h = strtok_r(*list, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        hosts[*count].name = h;
        hosts[*count].id = *count;
        (*count)++;
    }
    qsort(hosts, (size_t)*count, sizeof *hosts, compare_host);
    return hosts;
}

/* A lookup per PE in PMIx's store, none at the launcher; PEs of one host are usually
 * consecutive ranks, so most take the previous PE's answer without a search. */
int sshmem_boot_host_ids(int *ids, int n_pes)
{
    if (!connected)
        return -1;
    char *list;
    int count = 0, ok = 0;
    struct host_name *hosts = job_hosts(&list, &count);
    if (!hosts)
        return -1;
    char *prev = NULL;
    int prev_id = -1;
    for (int pe = 0; pe < n_pes && ok == 0; pe++) {
        char *name = host_of(pe);
        if (!name) {
            ok = -1;
            break;
        }
        if (prev && strcmp(prev, name) == 0) {
            ids[pe] = prev_id;
            free(name);
            continue;
        }
        struct host_name key = {name, 0};
        struct host_name *found = bsearch(&key, hosts, (size_t)count, sizeof *hosts, compare_host);
        if (!found) {
            free(name);
            ok = -1; /* a host outside the list: the list is not the whole job */
            break;
        }
        free(prev);
        prev = name;
        prev_id = ids[pe] = found->id;
    }
    free(prev);
    free(hosts);
    free(list);
    return ok;
}

/* ------------------------------------------------------------ waiting for the launcher
 *
 * A card fetch or a fence is a request that PMIx hands to the launcher (across hosts its
 * daemons pass it on), and PMIx waits for the answer without limit: PMIX_TIMEOUT did not end a
 * direct-modex request under Open MPI 4's mpirun. So this layer waits itself, with a
 * deadline, and a start that hangs says which call waits on whom. */

/* How long a card fetch waits when SSHMEM_HANG_TIMEOUT is unset. Every card is committed
 * before the exchange's fence returns, so the answer is due at once: a launcher that has not
 * answered in this long will not. */
#define CARD_WAIT_DEFAULT_S 60

/* SSHMEM_HANG_TIMEOUT when set (0: no limit), else dflt. */
static unsigned wait_limit(unsigned dflt)
{
    const char *set = getenv("SSHMEM_HANG_TIMEOUT");
    return set && *set ? sshmem_env.hang_timeout : dflt;
}

struct answer {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
    void *bytes; /* a fetched byte object, copied */
    size_t len;
};

static struct answer *answer_new(void)
{
    struct answer *a = calloc(1, sizeof *a);
    pthread_condattr_t attr;
    if (!a)
        sshmem_fatal("shmem_init", "out of memory for a request to the launcher");
    pthread_mutex_init(&a->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&a->cond, &attr);
    pthread_condattr_destroy(&attr);
    return a;
}

static void answer_free(struct answer *a)
{
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->cond);
    free(a);
}

static void answer_post(struct answer *a, pmix_status_t status) /* in PMIx's thread */
{
    pthread_mutex_lock(&a->lock);
    a->status = status;
    a->done = 1;
    pthread_cond_signal(&a->cond);
    pthread_mutex_unlock(&a->lock);
}

static void fence_answered(pmix_status_t status, void *cbdata) { answer_post(cbdata, status); }

static void get_answered(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    struct answer *a = cbdata;
    if (status == PMIX_SUCCESS && kv && kv->type == PMIX_BYTE_OBJECT) {
        a->len = kv->data.bo.size;
        a->bytes = malloc(a->len ? a->len : 1);
        if (!a->bytes)
            status = PMIX_ERR_NOMEM;
        else
            memcpy(a->bytes, kv->data.bo.bytes, a->len);
    } else if (status == PMIX_SUCCESS) {
        status = PMIX_ERR_BAD_PARAM; /* not a card */
    }
    answer_post(a, status);
}

/* Wait for the answer, at most limit_s seconds (0: no limit). 0 when answered; -1 at the
 * deadline, when the answer is left to PMIx (it may still come: a is not freed). */
static int answer_wait(struct answer *a, unsigned limit_s)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += limit_s;
    pthread_mutex_lock(&a->lock);
    int rc = 0;
    while (!a->done && rc != ETIMEDOUT)
        rc = limit_s ? pthread_cond_timedwait(&a->cond, &a->lock, &deadline)
                     : pthread_cond_wait(&a->cond, &a->lock);
    int done = a->done;
    pthread_mutex_unlock(&a->lock);
    return done ? 0 : -1;
}

/* The fence over every PE, collecting data or not, with a deadline. */
static void fence_all(int collect, const char *what)
{
    pmix_proc_t all;
    pmix_info_t info;
    bool flag = collect != 0;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    struct answer *a = answer_new();
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, &info, 1, fence_answered, a);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
        boot_fail(what, rc);
    /* A fence also waits for the slowest PE to start, which may legitimately take long on a
     * crowded host: limited only when the user sets a limit. */
    unsigned limit = wait_limit(0);
    if (answer_wait(a, limit) != 0) {
        launcher_silent = 1;
        sshmem_fatal("shmem_init", "PMIx %s: no answer from the launcher after %u s. Either "
                     "some PE never reached it (it hangs or is still starting: compare the "
                     "PEs' output) or the launcher does not answer (with mpirun: its daemon "
                     "on this host, or on another host of the job). SSHMEM_HANG_TIMEOUT=S "
                     "waits longer (0: no limit).", what, limit);
    }
    rc = a->status;
    answer_free(a);
    if (rc != PMIX_SUCCESS)
        boot_fail(what, rc);
}

static const void *single_card;
static size_t single_len;

/* Publish the card and fence. Without collecting data no PE receives every card: a peer's
 * card is fetched by the first PMIx_Get of it (direct modex: the PMIx server of the peer's
 * host holds its committed data, and the launcher's daemons carry requests between hosts),
 * and the fence only makes sure every card is committed before anyone asks for one. */
void sshmem_boot_exchange(const void *card, size_t len, int collect_all)
{
    if (!connected) {
        single_card = card;
        single_len = len;
        return;
    }
    pmix_value_t value;
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)card;
    value.data.bo.size = len;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, CARD_KEY, &value);
    if (rc != PMIX_SUCCESS)
        boot_fail("Put", rc);
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS)
        boot_fail("Commit", rc);

    fence_all(collect_all, "Fence (exchange of addresses)");
}

void *sshmem_boot_card(int pe, size_t *len)
{
    if (!connected) {
        void *copy = malloc(single_len);
        memcpy(copy, single_card, single_len);
        *len = single_len;
        return copy;
    }
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me.nspace, (pmix_rank_t)pe);
    struct answer *a = answer_new();
    pmix_status_t rc = PMIx_Get_nb(&peer, CARD_KEY, NULL, 0, get_answered, a);
    if (rc != PMIX_SUCCESS)
        boot_fail("Get of a peer's address", rc);
    unsigned limit = wait_limit(CARD_WAIT_DEFAULT_S);
    if (answer_wait(a, limit) != 0) {
        launcher_silent = 1;
        sshmem_fatal(sshmem.initialized ? "first contact" : "shmem_init",
                     "PMIx Get of PE %d's address (its card, fetched when this PE first "
                     "needs it): no answer from the launcher after %u s. The launcher's PMIx "
                     "server on this host (with mpirun its daemon, which asks the one on PE "
                     "%d's host) does not answer: check that the launcher and its daemons "
                     "still run. SSHMEM_HANG_TIMEOUT=S waits longer (0: no limit).",
                     pe, limit, pe);
    }
    rc = a->status;
    void *copy = a->bytes;
    *len = a->len;
    answer_free(a);
    if (rc != PMIX_SUCCESS)
        boot_fail("Get of a peer's address", rc);
    return copy;
}

void sshmem_boot_barrier(void)
{
    if (!connected)
        return;
    fence_all(0, "Fence");
}

struct fence_wait {
    int done;
    pmix_status_t status;
};

static void fence_done(pmix_status_t status, void *cbdata) /* in PMIx's thread */
{
    struct fence_wait *w = cbdata;
    w->status = status;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

void sshmem_boot_barrier_polling(void (*poll)(void))
{
    if (!connected)
        return;
    if (!poll) {
        sshmem_boot_barrier();
        return;
    }
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    struct fence_wait w = {0, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, NULL, 0, fence_done, &w);
    if (rc != PMIX_SUCCESS)
        boot_fail("Fence", rc);
    while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE)) {
        poll();
        sched_yield();
    }
    if (w.status != PMIX_SUCCESS)
        boot_fail("Fence", w.status);
}

void sshmem_boot_abort(int status, const char *msg)
{
    /* A launcher that did not answer would not answer this either; it sees the exit. */
    if (connected && !launcher_silent)
        PMIx_Abort(status, msg, NULL, 0);
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

void sshmem_boot_finalize(void)
{
    if (connected)
        PMIx_Finalize(NULL, 0);
    connected = 0;
}
