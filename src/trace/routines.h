/*
 * routines.h: the routines the timeline knows, one entry per wrapper, in the order of the
 * generated wrappers (scripts/gen-trace-wrappers.sh writes both): an event names its
 * routine by index into sshmem_trace_routines.
 */
#ifndef SSHMEM_TRACE_ROUTINES_H
#define SSHMEM_TRACE_ROUTINES_H

/* What a call does, for the colour of its box and the category of its event. Transfers (the
 * first three) carry a target PE and are drawn as arrows. */
enum sshmem_trace_kind {
    SSHMEM_TRACE_PUT,
    SSHMEM_TRACE_GET,
    SSHMEM_TRACE_ATOMIC,
    SSHMEM_TRACE_WAIT,       /* wait_until, test, signal waits */
    SSHMEM_TRACE_BARRIER,    /* barrier and sync */
    SSHMEM_TRACE_COMPLETION, /* quiet and fence */
    SSHMEM_TRACE_COLLECTIVE,
    SSHMEM_TRACE_MEMORY,     /* symmetric allocation */
    SSHMEM_TRACE_LOCK,
    SSHMEM_TRACE_SETUP,      /* init, finalize, queries, teams, contexts */
    SSHMEM_TRACE_OTHER,
    SSHMEM_TRACE_KINDS
};

typedef struct sshmem_trace_routine {
    const char *name;
    unsigned char kind;       /* enum sshmem_trace_kind */
    unsigned char has_nelems; /* the event's count is the nelems argument */
} sshmem_trace_routine_t;

extern const sshmem_trace_routine_t sshmem_trace_routines[];
extern const int sshmem_trace_n_routines;

/* The kind's name (the events' category) and its colour in the SVG. */
const char *sshmem_trace_kind_name(int kind);
const char *sshmem_trace_kind_colour(int kind);

static inline int sshmem_trace_is_transfer(int kind)
{
    return kind == SSHMEM_TRACE_PUT || kind == SSHMEM_TRACE_GET || kind == SSHMEM_TRACE_ATOMIC;
}

#endif
