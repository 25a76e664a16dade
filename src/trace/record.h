/*
 * record.h: the recording side of the timeline (SSHMEM_TRACE). Each wrapper (generated,
 * scripts/gen-trace-wrappers.sh) asks sshmem_trace_enter for the time before it calls the
 * library's pNAME and hands the event to sshmem_trace_leave after it.
 *
 * One buffer per process, of SSHMEM_TRACE_EVENTS events, allocated when the library is
 * loaded: when it is full the first events stay and later ones are only counted (the
 * writers say how many). Only the outermost call of a thread is an event: a routine of the
 * library that calls another public routine inside shows as the one call the program made.
 */
#ifndef SSHMEM_TRACE_RECORD_H
#define SSHMEM_TRACE_RECORD_H

#include <stdint.h>

/* One call: CLOCK_MONOTONIC nanoseconds, the routine (routines.h), the thread of the PE that
 * made it (0 for the first), the target PE of a transfer (-1 otherwise), its nelems. */
typedef struct sshmem_trace_event {
    uint64_t begin, end;
    uint64_t count;
    uint16_t routine;
    uint16_t thread;
    int32_t pe;
} sshmem_trace_event_t;

typedef struct sshmem_trace_buffer {
    sshmem_trace_event_t *events;
    uint64_t capacity;
    uint64_t next;    /* the next free slot; beyond capacity once full */
    uint64_t dropped; /* calls not recorded because the buffer was full */
    uint32_t threads; /* threads that recorded */
    int on;           /* SSHMEM_TRACE set and the buffer allocated */
    int paused;       /* shmem_pcontrol(0) until shmem_pcontrol(level > 0) */
    const char *path; /* SSHMEM_TRACE */
} sshmem_trace_buffer_t;

extern sshmem_trace_buffer_t sshmem_trace;
extern __thread unsigned sshmem_trace_depth;

uint64_t sshmem_trace_now(void);
void sshmem_trace_record(uint64_t begin, int routine, int pe, uint64_t count);
/* shmem_pcontrol's wrapper: level 0 pauses the recording, any other resumes it; the call
 * itself is recorded either way. */
void sshmem_trace_pcontrol(uint64_t begin, int routine, int level);
/* shmem_finalize's wrapper: record it, then write this PE's part and (PE 0) the files. */
void sshmem_trace_finish(uint64_t begin, int routine);

/* 0 when not recording this call (tracing off, or a call inside another one). */
static inline uint64_t sshmem_trace_enter(void)
{
    if (!sshmem_trace.on)
        return 0;
    return sshmem_trace_depth++ ? 0 : sshmem_trace_now();
}

static inline void sshmem_trace_leave(uint64_t begin, int routine, int pe, uint64_t count)
{
    if (!sshmem_trace.on)
        return;
    sshmem_trace_depth--;
    if (begin)
        sshmem_trace_record(begin, routine, pe, count);
}

#endif
