/*
 * record.c: the event buffer of this process (record.h), set up when the library is loaded
 * (the loader in libsshmem, src/core/trace_loader.c, preloads it when SSHMEM_TRACE is set).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/record.h"
#include "trace/trace.h"

sshmem_trace_buffer_t sshmem_trace;
__thread unsigned sshmem_trace_depth;
static __thread int thread_number = -1;

/* The libsshmem loader asks for this symbol to learn that the tracer is in the process. */
__attribute__((visibility("default"))) const int sshmem_trace_library_present = 1;

uint64_t sshmem_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint16_t this_thread(void)
{
    if (thread_number < 0)
        thread_number = (int)__atomic_fetch_add(&sshmem_trace.threads, 1, __ATOMIC_RELAXED);
    return (uint16_t)thread_number;
}

void sshmem_trace_record(uint64_t begin, int routine, int pe, uint64_t count)
{
    if (sshmem_trace.paused)
        return;
    uint64_t end = sshmem_trace_now();
    uint64_t slot = __atomic_fetch_add(&sshmem_trace.next, 1, __ATOMIC_RELAXED);
    if (slot >= sshmem_trace.capacity) {
        __atomic_fetch_add(&sshmem_trace.dropped, 1, __ATOMIC_RELAXED);
        return;
    }
    sshmem_trace_event_t *e = &sshmem_trace.events[slot];
    e->begin = begin;
    e->end = end;
    e->count = count;
    e->routine = (uint16_t)routine;
    e->thread = this_thread();
    e->pe = pe;
}

void sshmem_trace_pcontrol(uint64_t begin, int routine, int level)
{
    if (level)
        sshmem_trace.paused = 0;
    sshmem_trace_leave(begin, routine, -1, 0);
    if (!level)
        sshmem_trace.paused = 1;
}

/* SSHMEM_TRACE_EVENTS, or the default; libsshmem rejects a malformed value at shmem_init. */
static uint64_t capacity_wanted(void)
{
    const char *s = getenv("SSHMEM_TRACE_EVENTS");
    char *end;
    unsigned long long n = s && *s ? strtoull(s, &end, 10) : 0;
    return n > 0 && *end == '\0' ? n : SSHMEM_TRACE_EVENTS_DEFAULT;
}

/* Children the program starts inherit neither the tracer nor the loader's mark. */
static void forget_preload(void)
{
    const char *preload = getenv("LD_PRELOAD");
    unsetenv("SSHMEM_TRACE_LOADER");
    if (!preload)
        return;
    char *kept = strdup(preload), *copy = strdup(preload), *out = kept, *save = NULL;
    if (!kept || !copy) {
        free(kept);
        free(copy);
        return;
    }
    *out = '\0';
    for (char *tok = strtok_r(copy, ": ", &save); tok;
         tok = strtok_r(NULL, ": ", &save)) {
        if (strstr(tok, "libsshmem_trace"))
            continue;
        out += sprintf(out, "%s%s", out == kept ? "" : ":", tok);
    }
    if (*kept)
        setenv("LD_PRELOAD", kept, 1);
    else
        unsetenv("LD_PRELOAD");
    free(copy);
    free(kept);
}

static void __attribute__((constructor)) start_recording(void)
{
    const char *path = getenv("SSHMEM_TRACE");
    forget_preload();
    if (!path || !*path)
        return;
    sshmem_trace.path = strdup(path); /* the program may change its environment */
    sshmem_trace.capacity = capacity_wanted();
    /* calloc of a large block maps fresh pages: memory is used as events arrive. */
    sshmem_trace.events = calloc(sshmem_trace.capacity, sizeof(sshmem_trace_event_t));
    if (!sshmem_trace.path || !sshmem_trace.events) {
        fprintf(stderr, "sshmem: warning: SSHMEM_TRACE: no memory for %llu events "
                        "(SSHMEM_TRACE_EVENTS); no trace will be written\n",
                (unsigned long long)sshmem_trace.capacity);
        return;
    }
    sshmem_trace.on = 1;
}
