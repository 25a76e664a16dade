/*
 * json.c: the timeline in the Chrome trace-event format (an object with "traceEvents"), which
 * Perfetto's viewer and chrome://tracing open.
 *
 *   - a process per PE (pid = the PE), named "PE n"; its thread 1 ("calls") holds one
 *     complete event ("X") per call, named after the routine, ts and dur in microseconds;
 *   - a transfer (put, get, atomic, their _nbi, ctx and signal forms) also shows on the
 *     target PE, on a track "accessed by PE s" (one per source PE, so spans never overlap),
 *     as an event "PE s: routine" over the same time; a flow arrow ("s" then "f", one id)
 *     joins the two: from the caller to the target for puts and atomics, from the PE that
 *     holds the data to the caller for gets;
 *   - "otherData" (the format's metadata) says how many calls were recorded and dropped.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/routines.h"
#include "trace/trace.h"

#define REMOTE_TID_BASE 100000

/* The track of a thread's calls. Not 0: Perfetto keeps tid 0 for the kernel's idle thread. */
static long calls_tid(unsigned thread)
{
    return 1 + (long)thread;
}

struct sshmem_trace_json {
    FILE *f;
    const sshmem_trace_job_t *job;
    int first;
};

static void next_event(sshmem_trace_json_t *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

static void put_time(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%" PRIu64 ".%03" PRIu64, key, ns / 1000, ns % 1000);
}

static void metadata(sshmem_trace_json_t *w, const char *what, int pid, long tid,
                     const char *key, const char *text, long number)
{
    next_event(w);
    fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d", what, pid);
    if (tid >= 0)
        fprintf(w->f, ",\"tid\":%ld", tid);
    if (text)
        fprintf(w->f, ",\"args\":{\"%s\":\"%s\"}}", key, text);
    else
        fprintf(w->f, ",\"args\":{\"%s\":%ld}}", key, number);
}

static void name_pe(sshmem_trace_json_t *w, int pe)
{
    char text[64];
    snprintf(text, sizeof text, "PE %d", pe);
    metadata(w, "process_name", pe, -1, "name", text, 0);
    metadata(w, "process_sort_index", pe, -1, "sort_index", NULL, pe);
    uint32_t threads = w->job->parts[pe].threads ? w->job->parts[pe].threads : 1;
    for (uint32_t t = 0; t < threads; t++) {
        if (t)
            snprintf(text, sizeof text, "calls, thread %u", t);
        metadata(w, "thread_name", pe, calls_tid(t), "name", t ? text : "calls", 0);
        metadata(w, "thread_sort_index", pe, calls_tid(t), "sort_index", NULL, t);
    }
}

sshmem_trace_json_t *sshmem_trace_json_open(FILE *f, const sshmem_trace_job_t *job)
{
    sshmem_trace_json_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->job = job;
    w->first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    for (int pe = 0; pe < job->n_pes; pe++)
        name_pe(w, pe);
    return w;
}

static void slice(sshmem_trace_json_t *w, const char *name, const char *prefix, const char *cat,
                  int pid, long tid, const sshmem_trace_event_t *e)
{
    next_event(w);
    fprintf(w->f, "{\"name\":\"%s%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%ld",
            prefix, name, cat, pid, tid);
    put_time(w->f, "ts", e->begin);
    put_time(w->f, "dur", e->end > e->begin ? e->end - e->begin : 1);
}

/* One end of an arrow, in the middle of the span it belongs to. */
static void flow(sshmem_trace_json_t *w, const char *name, char phase, uint64_t id, int pid,
                 long tid, const sshmem_trace_event_t *e)
{
    next_event(w);
    fprintf(w->f, "{\"name\":\"%s\",\"cat\":\"transfer\",\"ph\":\"%c\",%s\"id\":%" PRIu64
                  ",\"pid\":%d,\"tid\":%ld", name, phase, phase == 'f' ? "\"bp\":\"e\"," : "", id,
            pid, tid);
    put_time(w->f, "ts", e->begin + (e->end - e->begin) / 2);
    fputs("}", w->f);
}

/* The call on its own PE's track. */
static void call(sshmem_trace_json_t *w, int pe, const sshmem_trace_event_t *e)
{
    const sshmem_trace_routine_t *r = &sshmem_trace_routines[e->routine];
    slice(w, r->name, "", sshmem_trace_kind_name(r->kind), pe, calls_tid(e->thread), e);
    if (e->pe < 0 && !r->has_nelems) {
        fputs("}", w->f);
        return;
    }
    fputs(",\"args\":{", w->f);
    if (e->pe >= 0)
        fprintf(w->f, "\"target_pe\":%d%s", (int)e->pe, r->has_nelems ? "," : "");
    if (r->has_nelems)
        fprintf(w->f, "\"nelems\":%" PRIu64, e->count);
    fputs("}}", w->f);
}

/* The target's side of a transfer: its track for this source, the span and the arrow. */
static void transfer(sshmem_trace_json_t *w, int pe, uint64_t index, const sshmem_trace_event_t *e,
                     unsigned char *named)
{
    int n = w->job->n_pes, target = e->pe;
    const sshmem_trace_routine_t *r = &sshmem_trace_routines[e->routine];
    long remote_tid = REMOTE_TID_BASE + (long)e->thread * n + pe;
    size_t key = (size_t)e->thread * (size_t)n + (size_t)target;
    if (!named[key]) {
        char text[64];
        snprintf(text, sizeof text, e->thread ? "accessed by PE %d, thread %u" :
                 "accessed by PE %d", pe, e->thread);
        metadata(w, "thread_name", target, remote_tid, "name", text, 0);
        metadata(w, "thread_sort_index", target, remote_tid, "sort_index", NULL, remote_tid);
        named[key] = 1;
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "PE %d: ", pe);
    slice(w, r->name, prefix, "remote", target, remote_tid, e);
    fprintf(w->f, ",\"args\":{\"source_pe\":%d}}", pe);
    uint64_t id = ((uint64_t)pe << 32) | (index & 0xffffffffu);
    int from_target = r->kind == SSHMEM_TRACE_GET;
    long caller_tid = calls_tid(e->thread);
    flow(w, r->name, 's', id, from_target ? target : pe, from_target ? remote_tid : caller_tid, e);
    flow(w, r->name, 'f', id, from_target ? pe : target, from_target ? caller_tid : remote_tid, e);
}

void sshmem_trace_json_pe(sshmem_trace_json_t *w, int pe, const sshmem_trace_event_t *ev,
                          uint64_t n)
{
    size_t threads = w->job->parts[pe].threads ? w->job->parts[pe].threads : 1;
    unsigned char *named = calloc(threads * (size_t)w->job->n_pes, 1);
    for (uint64_t i = 0; i < n; i++) {
        const sshmem_trace_event_t *e = &ev[i];
        if (e->routine >= sshmem_trace_n_routines)
            continue;
        call(w, pe, e);
        int kind = sshmem_trace_routines[e->routine].kind;
        if (named && sshmem_trace_is_transfer(kind) && e->pe >= 0 && e->pe < w->job->n_pes &&
            e->thread < threads)
            transfer(w, pe, i, e, named);
    }
    free(named);
}

void sshmem_trace_json_close(sshmem_trace_json_t *w)
{
    const sshmem_trace_job_t *job = w->job;
    fprintf(w->f, "\n],\n\"otherData\":{\"producer\":\"sshmem SSHMEM_TRACE\",\"pes\":%d,"
                  "\"clock\":\"CLOCK_MONOTONIC of PE 0's host, microseconds from the first "
                  "call\",\"events_per_pe_limit\":%" PRIu64 ",\"events_recorded\":%" PRIu64
                  ",\"events_dropped\":%" PRIu64 ",\"dropped_by_pe\":[",
            job->n_pes, job->capacity, job->recorded, job->dropped);
    for (int pe = 0; pe < job->n_pes; pe++)
        fprintf(w->f, "%s%" PRIu64, pe ? "," : "", job->parts[pe].dropped);
    fputs("],\"missing_pes\":[", w->f);
    const char *sep = "";
    for (int pe = 0; pe < job->n_pes; pe++)
        if (!job->parts[pe].magic[0]) {
            fprintf(w->f, "%s%d", sep, pe);
            sep = ",";
        }
    fputs("]}}\n", w->f);
    free(w);
}
