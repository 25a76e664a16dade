/* pmix_client.c: a tiny PMIx client for testing oshrun without the sshmem library.
 *
 * Every PE: PMIx_Init, prints its rank, PMIX_JOB_SIZE and PMIX_LOCAL_RANK, puts a key,
 * commits, fences with PMIX_COLLECT_DATA, gets the key of its right neighbour, finalizes.
 * Options (anything else on the command line is ignored, e.g. a marker for pgrep):
 *   --exit RANK CODE     RANK exits with CODE right after PMIx_Init (the others are in the fence)
 *   --segv RANK          RANK raises SIGSEGV after PMIx_Init
 *   --abort RANK STATUS  RANK calls PMIx_Abort(STATUS, "test abort", NULL, 0) after PMIx_Init
 *   --abort-nomsg RANK STATUS  the same with an empty message
 *   --sleep RANK         RANK sleeps forever after PMIx_Init (-1: every rank)
 *   --ignore-term        ignore SIGTERM (so only SIGKILL ends the PE)
 *   --env VAR            print VAR's value
 *   --stdin              rank 0 prints the first line of its stdin; the others print whether
 *                        theirs is at end of file
 *   --partial            print a last line without a newline, on stdout and stderr
 *   --affinity           print the CPUs the PE may run on
 *   --quiet              print nothing on success
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct test_opts {
    int exit_rank, exit_code, segv_rank, abort_rank, abort_status, sleep_rank;
    int abort_nomsg, ignore_term, read_stdin, partial, affinity, quiet;
    const char *env_var;
};

static void parse(int argc, char **argv, struct test_opts *t)
{
    memset(t, 0, sizeof *t);
    t->exit_rank = t->segv_rank = t->abort_rank = t->sleep_rank = -2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = argc - i - 1;
        if (!strcmp(a, "--exit") && more >= 2) {
            t->exit_rank = atoi(argv[++i]);
            t->exit_code = atoi(argv[++i]);
        } else if (!strcmp(a, "--segv") && more >= 1) {
            t->segv_rank = atoi(argv[++i]);
        } else if ((!strcmp(a, "--abort") || !strcmp(a, "--abort-nomsg")) && more >= 2) {
            t->abort_nomsg = !strcmp(a, "--abort-nomsg");
            t->abort_rank = atoi(argv[++i]);
            t->abort_status = atoi(argv[++i]);
        } else if (!strcmp(a, "--sleep") && more >= 1) {
            t->sleep_rank = atoi(argv[++i]);
        } else if (!strcmp(a, "--env") && more >= 1) {
            t->env_var = argv[++i];
        } else if (!strcmp(a, "--ignore-term")) {
            t->ignore_term = 1;
        } else if (!strcmp(a, "--stdin")) {
            t->read_stdin = 1;
        } else if (!strcmp(a, "--partial")) {
            t->partial = 1;
        } else if (!strcmp(a, "--affinity")) {
            t->affinity = 1;
        } else if (!strcmp(a, "--quiet")) {
            t->quiet = 1;
        }
    }
}

static int get_u32(const pmix_proc_t *proc, const char *key, uint32_t *out)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS)
        return -1;
    if (v->type == PMIX_UINT32)
        *out = v->data.uint32;
    else if (v->type == PMIX_UINT16)
        *out = v->data.uint16;
    else
        *out = 0;
    PMIX_VALUE_RELEASE(v);
    return 0;
}

static void failure_actions(const struct test_opts *t, int rank)
{
    if (rank == t->exit_rank)
        exit(t->exit_code);
    if (rank == t->segv_rank)
        raise(SIGSEGV);
    if (rank == t->abort_rank) {
        PMIx_Abort(t->abort_status, t->abort_nomsg ? "" : "test abort", NULL, 0);
        exit(t->abort_status); /* what shmem_global_exit does after the abort returns */
    }
    if (rank == t->sleep_rank || t->sleep_rank == -1)
        for (;;)
            pause();
}

/* Put my rank under a key, fence with data collection, read my right neighbour's. */
static int exchange(const pmix_proc_t *me, uint32_t size)
{
    pmix_value_t val;
    PMIX_VALUE_CONSTRUCT(&val);
    val.type = PMIX_UINT32;
    val.data.uint32 = 1000 + me->rank;
    if (PMIx_Put(PMIX_GLOBAL, "test.key", &val) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS)
        return -1;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me->nspace, PMIX_RANK_WILDCARD);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_CONSTRUCT(&collect);
    PMIx_Info_load(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    if (rc != PMIX_SUCCESS)
        return -1;
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me->nspace, (me->rank + 1) % size);
    uint32_t got;
    if (get_u32(&peer, "test.key", &got) != 0 || got != 1000 + peer.rank)
        return -1;
    return 0;
}

static void print_extras(const struct test_opts *t, int rank)
{
    if (t->env_var) {
        const char *v = getenv(t->env_var);
        printf("rank %d env %s=%s\n", rank, t->env_var, v ? v : "(unset)");
    }
    if (t->affinity) {
        cpu_set_t set;
        sched_getaffinity(0, sizeof set, &set);
        printf("rank %d cpus", rank);
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                printf(" %d", c);
        printf("\n");
    }
    if (t->read_stdin) {
        char line[256];
        if (fgets(line, sizeof line, stdin))
            printf("rank %d stdin: %s", rank, line);
        else
            printf("rank %d stdin: EOF\n", rank);
    }
    if (t->partial) {
        printf("rank %d partial-out", rank);
        fprintf(stderr, "rank %d partial-err", rank);
    }
}

int main(int argc, char **argv)
{
    struct test_opts t;
    parse(argc, argv, &t);
    if (t.ignore_term)
        signal(SIGTERM, SIG_IGN);
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "pmix_client: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 10;
    }
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    uint32_t size = 0, lrank = 0;
    if (get_u32(&wild, PMIX_JOB_SIZE, &size) != 0 || get_u32(&me, PMIX_LOCAL_RANK, &lrank) != 0) {
        fprintf(stderr, "pmix_client: rank %u: cannot get the job size or local rank\n", me.rank);
        return 11;
    }
    failure_actions(&t, (int)me.rank);
    if (exchange(&me, size) != 0) {
        fprintf(stderr, "pmix_client: rank %u: exchange failed\n", me.rank);
        return 12;
    }
    if (!t.quiet)
        printf("rank %u of %u local_rank %u ok\n", me.rank, size, lrank);
    print_extras(&t, (int)me.rank);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return 0;
}
