/*
 * trace.h: writing the timeline at shmem_finalize. Each PE writes its events to a part file
 * next to the trace (part.c); after a barrier PE 0 reads every part, puts the events of all
 * PEs on PE 0's clock (merge.c) and writes PATH.json (json.c) and PATH-timeline.svg (svg.c),
 * then removes the parts.
 */
#ifndef SSHMEM_TRACE_TRACE_H
#define SSHMEM_TRACE_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "trace/record.h"

#define SSHMEM_TRACE_EVENTS_DEFAULT 100000

/* The head of a part file; the events follow. */
typedef struct sshmem_trace_part {
    char magic[8];
    int32_t pe, n_pes;
    uint64_t stored, dropped, capacity;
    int64_t real_minus_mono; /* ns: CLOCK_REALTIME - CLOCK_MONOTONIC on this PE */
    uint32_t threads;
    char boot_id[40];        /* PEs of one boot of one host share CLOCK_MONOTONIC */
} sshmem_trace_part_t;

/* PATH.partN, allocated. */
char *sshmem_trace_part_path(const char *path, int pe);
/* This PE's part; 0, or -1 (PE 0 says why; the merge names the other PEs that failed). */
int sshmem_trace_write_part(const char *path, int pe, int n_pes);
/* PE pe's part: its head, and its events (malloc'd) when events is not NULL. 0 or -1. */
int sshmem_trace_read_part(const char *path, int pe, sshmem_trace_part_t *head,
                           sshmem_trace_event_t **events);

/* What the writers know of the whole job. Times are nanoseconds from the job's first call,
 * on PE 0's clock. */
typedef struct sshmem_trace_job {
    int n_pes;
    uint64_t span;     /* the end of the last call */
    uint64_t started;  /* the end of the last PE's shmem_init: where the SVG's axis begins */
    uint64_t capacity; /* SSHMEM_TRACE_EVENTS */
    uint64_t recorded, dropped;
    const sshmem_trace_part_t *parts; /* one per PE; magic[0] == 0 where a part is missing */
} sshmem_trace_job_t;

/* PE 0: read the parts, write PATH.json and PATH-timeline.svg, remove the parts. */
void sshmem_trace_merge(const char *path, int n_pes);

/* The writers: open, one PE's events (in time order per thread) at a time, close. */
typedef struct sshmem_trace_json sshmem_trace_json_t;
sshmem_trace_json_t *sshmem_trace_json_open(FILE *f, const sshmem_trace_job_t *job);
void sshmem_trace_json_pe(sshmem_trace_json_t *w, int pe, const sshmem_trace_event_t *ev,
                          uint64_t n);
void sshmem_trace_json_close(sshmem_trace_json_t *w);

typedef struct sshmem_trace_svg sshmem_trace_svg_t;
sshmem_trace_svg_t *sshmem_trace_svg_open(FILE *f, const sshmem_trace_job_t *job);
void sshmem_trace_svg_pe(sshmem_trace_svg_t *w, int pe, const sshmem_trace_event_t *ev,
                         uint64_t n);
void sshmem_trace_svg_close(sshmem_trace_svg_t *w);

void sshmem_trace_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
