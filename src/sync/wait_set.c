/*
 * wait_set.c: the engine of the wait/test routines on sets of variables (OpenSHMEM 1.6).
 *
 * Rules the typed routines rely on:
 *  - status may be NULL (every element takes part); a non-zero status[i] leaves i out;
 *  - an empty set (nelems 0 or every element left out): wait_all/test_all return at once
 *    (test_all says 1), wait_any/test_any return SIZE_MAX, wait_some/test_some return 0;
 *  - every element is re-read on every sweep: wait_all returns only after one unbroken
 *    cycle of the whole set saw every element satisfied (an element is never taken as
 *    "done" because it once was), and wait_some returns every element satisfied in the
 *    sweep that found one;
 *  - wait_any/test_any start each sweep where the previous call's answer left off, so an
 *    element that stays satisfied is eventually returned even if another one is too.
 */
#include "sync/wait_set.h"

#include "core/profile.h"
#include "sync/wait.h"

void sshmem_bad_cmp(const char *call, int cmp)
{
    sshmem_fatal(call, "cmp is %d; pass one of SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, "
                 "SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE", cmp);
}

/* Where the next any-sweep starts (per thread: threads wait on their own sets). */
static __thread size_t any_next;

static void check_args(const sshmem_wait_set_t *ws, int needs_indices, const size_t *indices)
{
    sshmem_check_cmp(ws->cmp, ws->call);
    if (ws->nelems == 0)
        return;
    if (SSHMEM_UNLIKELY(!ws->ivars))
        sshmem_fatal(ws->call, "ivars is NULL with nelems %zu; pass the array of variables",
                     ws->nelems);
    if (SSHMEM_UNLIKELY(!ws->values))
        sshmem_fatal(ws->call, "cmp_values is NULL with nelems %zu; pass one value per "
                     "variable", ws->nelems);
    if (SSHMEM_UNLIKELY(needs_indices && !indices))
        sshmem_fatal(ws->call, "indices is NULL with nelems %zu; pass an array of at least "
                     "nelems size_t", ws->nelems);
}

static inline int included(const sshmem_wait_set_t *ws, size_t i)
{
    return !ws->status || ws->status[i] == 0;
}

static int set_is_empty(const sshmem_wait_set_t *ws)
{
    for (size_t i = 0; i < ws->nelems; i++)
        if (included(ws, i))
            return 0;
    return 1;
}

static inline void progress_once(void)
{
    if (sshmem.ucx_in_use)
        sshmem_tx_progress();
}

/* One sweep for any: the first satisfied element from the rotating start, or SIZE_MAX. */
static size_t sweep_any(const sshmem_wait_set_t *ws)
{
    size_t n = ws->nelems, i = any_next < n ? any_next : 0;
    for (size_t k = 0; k < n; k++) {
        if (included(ws, i) && ws->satisfied(ws, i)) {
            any_next = i + 1;
            return i;
        }
        if (++i == n)
            i = 0;
    }
    return SIZE_MAX;
}

/* One sweep for some: every satisfied element, in index order. */
static size_t sweep_some(const sshmem_wait_set_t *ws, size_t *indices)
{
    size_t found = 0;
    for (size_t i = 0; i < ws->nelems; i++)
        if (included(ws, i) && ws->satisfied(ws, i))
            indices[found++] = i;
    return found;
}

/* One sweep for all: 1 if every element of the set is satisfied. */
static int sweep_all(const sshmem_wait_set_t *ws)
{
    for (size_t i = 0; i < ws->nelems; i++)
        if (included(ws, i) && !ws->satisfied(ws, i))
            return 0;
    return 1;
}

void sshmem_wait_set_all(const sshmem_wait_set_t *ws)
{
    check_args(ws, 0, NULL);
    /* Stay on an unsatisfied element while it is unsatisfied (no wasted reads of the rest),
     * then go round; return once n consecutive reads in a row, a whole cycle, were all
     * satisfied. Any failure restarts the count, so every element is re-read after it. */
    size_t n = ws->nelems, i = 0, run = 0;
    unsigned polls = 0;
    uint64_t t0 = SSHMEM_PROFILE_START();
    sshmem_wait_begin();
    while (run < n) {
        if (included(ws, i) && !ws->satisfied(ws, i)) {
            run = 0;
            sshmem_wait_step_at(&polls, ws->call, ws->ivars);
            continue;
        }
        run++;
        if (++i == n)
            i = 0;
    }
    sshmem_wait_done(polls);
    SSHMEM_PROFILE_STOP(WAIT, t0);
}

size_t sshmem_wait_set_any(const sshmem_wait_set_t *ws)
{
    check_args(ws, 0, NULL);
    if (set_is_empty(ws))
        return SIZE_MAX;
    size_t found;
    unsigned polls = 0;
    uint64_t t0 = SSHMEM_PROFILE_START();
    sshmem_wait_begin();
    while ((found = sweep_any(ws)) == SIZE_MAX)
        sshmem_wait_step_at(&polls, ws->call, ws->ivars);
    sshmem_wait_done(polls);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return found;
}

size_t sshmem_wait_set_some(const sshmem_wait_set_t *ws, size_t *indices)
{
    check_args(ws, 1, indices);
    if (set_is_empty(ws))
        return 0;
    size_t found;
    unsigned polls = 0;
    uint64_t t0 = SSHMEM_PROFILE_START();
    sshmem_wait_begin();
    while ((found = sweep_some(ws, indices)) == 0)
        sshmem_wait_step_at(&polls, ws->call, ws->ivars);
    sshmem_wait_done(polls);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return found;
}

int sshmem_test_set_all(const sshmem_wait_set_t *ws)
{
    check_args(ws, 0, NULL);
    uint64_t t0 = SSHMEM_PROFILE_START();
    progress_once();
    int found = sweep_all(ws);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return found;
}

size_t sshmem_test_set_any(const sshmem_wait_set_t *ws)
{
    check_args(ws, 0, NULL);
    uint64_t t0 = SSHMEM_PROFILE_START();
    progress_once();
    size_t found = sweep_any(ws);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return found;
}

size_t sshmem_test_set_some(const sshmem_wait_set_t *ws, size_t *indices)
{
    check_args(ws, 1, indices);
    uint64_t t0 = SSHMEM_PROFILE_START();
    progress_once();
    size_t found = sweep_some(ws, indices);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return found;
}
