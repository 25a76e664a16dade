/*
 * api.h: the one front end every collective routine is a thin shell over. A routine describes its
 * call (coll_call_t) and hands it to its form: coll_team_call (team routines, typed and untyped)
 * or coll_as_call / coll_as_to_all (active-set routines). The forms differ only in setup and
 * argument checks; coll_run does the rest for both: it locates dest and source at the sizes the
 * kind implies, runs the debug agreement and calls the engine. Fatal errors name PE, call and fix.
 */
#ifndef SSHMEM_COLL_API_H
#define SSHMEM_COLL_API_H

#include <stddef.h>
#include <shmem.h>

#include "coll/coll.h"
#include "coll/ops.h"
#include "core/error.h"

/* What a call does. Its index also picks the pSync size of its active-set form. */
enum coll_call_kind {
    COLL_BROADCAST, /* root's count elements to every member */
    COLL_COLLECT,   /* each member's count elements (counts may differ), in member order */
    COLL_FCOLLECT,  /* the same with one count on every member */
    COLL_ALLTOALL,  /* block j (count elements) of member i to block i of member j */
    COLL_ALLTOALLS, /* the same with strides dst and sst, in elements */
    COLL_REDUCE,    /* op over the members, count elements each (to_all, reduce) */
    COLL_SCAN,      /* prefix op over the members, of kind scan */
    COLL_SYNC,      /* a barrier after a fence of this PE's stores (shmem_sync, team_sync) */
    COLL_BARRIER,   /* a barrier after a quiet of this PE's puts (shmem_barrier) */
    COLL_NKINDS
};

/* A call as the API routine was given it; fields the kind does not use are left zero. */
typedef struct coll_call {
    enum coll_call_kind kind;
    void *dest;
    const void *source;
    size_t count;             /* elements in each member's part (each block for alltoall) */
    size_t esize;             /* bytes per element; reduce and scan take op->esize */
    int root;                 /* broadcast: the root's member index */
    ptrdiff_t dst, sst;       /* alltoalls: strides in elements */
    const coll_op_t *op;      /* reduce, scan */
    enum coll_scan_kind scan; /* scan */
    const char *call;         /* the API routine's name, for messages */
} coll_call_t;

/* Run a described call on a set-up coll_t (either form). */
void coll_run(coll_t *c, const coll_call_t *k);

/* The team form: checks the team, sets up on its next sync area, runs. Returns 0. */
int coll_team_call(shmem_team_t team, const coll_call_t *k);
/* The active-set form: pSync of the kind's SHMEM_*_SYNC_SIZE, no work array. */
void coll_as_call(const coll_call_t *k, int PE_start, int logPE_stride, int PE_size,
                  long *pSync);
/* TYPE_OP_to_all: nreduce and the caller's pWrk are checked, pWrk is the engine's work
 * space; the rest as coll_as_call with a COLL_REDUCE of op. */
void coll_as_to_all(void *dest, const void *source, int nreduce, int PE_start, int logPE_stride,
                    int PE_size, void *pWrk, long *pSync, const coll_op_t *op, const char *call);

/* barrier.c: the barrier of COLL_SYNC and COLL_BARRIER once set up, quieting this PE's puts
 * first or only fencing its stores. */
void coll_barrier_call(coll_t *c, int quiet);

/* Both forms check the strides before their setup, which may wait for other members. */
static inline void coll_check_strides(const coll_call_t *k)
{
    if (SSHMEM_UNLIKELY(k->kind == COLL_ALLTOALLS && (k->dst < 1 || k->sst < 1)))
        sshmem_fatal(k->call, "strides dst=%td and sst=%td must both be 1 or more (in elements)",
                     k->dst, k->sst);
}

/* The body of a team routine: describe the call and run it (arguments: coll_call_t's fields
 * in order, or designated). */
#define COLL_TEAM_CALL(team, ...) return coll_team_call(team, &(const coll_call_t){__VA_ARGS__})

#endif
