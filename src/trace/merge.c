/*
 * merge.c: PE 0 turns the parts of every PE into PATH.json and PATH-timeline.svg (trace.h).
 *
 * Clocks: PEs of one host read the same CLOCK_MONOTONIC, so their times are used as they are.
 * A PE on another host (another boot id) has its times moved onto PE 0's clock through each
 * host's CLOCK_REALTIME, so across hosts the timeline is as exact as the hosts' clocks
 * agree (NTP: a fraction of a millisecond; PTP: microseconds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/routines.h"
#include "trace/trace.h"

typedef struct {
    sshmem_trace_part_t *parts; /* magic[0] == 0: missing */
    int64_t *shift;             /* add to a PE's times to get PE 0's clock */
    uint64_t origin;            /* the first call of the job, on PE 0's clock */
    uint64_t started;           /* the end of the last shmem_init, on PE 0's clock */
} merged_t;

/* The end of the PE's first call of the init family, or 0. */
static uint64_t init_end(const sshmem_trace_event_t *ev, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        if (ev[i].routine >= sshmem_trace_n_routines)
            continue;
        const char *name = sshmem_trace_routines[ev[i].routine].name;
        if ((strncmp(name, "shmem_init", 10) == 0 || strcmp(name, "start_pes") == 0))
            return ev[i].end;
    }
    return 0;
}

static int64_t clock_shift(const sshmem_trace_part_t *p, const sshmem_trace_part_t *pe0)
{
    if (!pe0->magic[0] || strcmp(p->boot_id, pe0->boot_id) == 0)
        return 0;
    return p->real_minus_mono - pe0->real_minus_mono;
}

/* One warning naming the PEs whose parts are missing (the first few). */
static void report_missing(const char *path, int n, const sshmem_trace_part_t *parts)
{
    char list[128] = "";
    size_t len = 0;
    int missing = 0;
    for (int pe = 0; pe < n; pe++) {
        if (parts[pe].magic[0])
            continue;
        if (missing < 8 && len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", missing ? ", " : "", pe);
        missing++;
    }
    if (missing)
        sshmem_trace_warn("no part from %d PE(s) (PE %s%s): they could not write %s.partN, so "
                          "their rows are empty; every PE must be able to write in the directory "
                          "of SSHMEM_TRACE, one that every host shares when the PEs are on "
                          "several", missing, list, missing > 8 ? ", ..." : "", path);
}

/* PE pe's events on PE 0's clock widen the job's first call, last end and start-up. */
static void take_times(merged_t *m, int pe, const sshmem_trace_event_t *ev, uint64_t *last)
{
    uint64_t shift = (uint64_t)m->shift[pe];
    for (uint64_t i = 0; i < m->parts[pe].stored; i++) {
        uint64_t b = ev[i].begin + shift, e = ev[i].end + shift;
        m->origin = b < m->origin ? b : m->origin;
        *last = e > *last ? e : *last;
    }
    uint64_t started = init_end(ev, m->parts[pe].stored);
    if (started && started + shift > m->started)
        m->started = started + shift;
}

/* Every head; the origin and the span; the missing PEs named in one warning. */
static void read_heads(const char *path, int n, merged_t *m, sshmem_trace_job_t *job)
{
    uint64_t last = 0;
    m->origin = UINT64_MAX;
    for (int pe = 0; pe < n; pe++) {
        sshmem_trace_event_t *ev = NULL;
        if (sshmem_trace_read_part(path, pe, &m->parts[pe], &ev) != 0) {
            memset(&m->parts[pe], 0, sizeof m->parts[pe]);
            continue;
        }
        m->shift[pe] = clock_shift(&m->parts[pe], &m->parts[0]);
        take_times(m, pe, ev, &last);
        job->recorded += m->parts[pe].stored;
        job->dropped += m->parts[pe].dropped;
        job->capacity = m->parts[pe].capacity;
        free(ev);
    }
    if (m->origin == UINT64_MAX)
        m->origin = last = 0;
    job->span = last - m->origin;
    job->started = m->started > m->origin ? m->started - m->origin : 0;
    report_missing(path, n, m->parts);
}

static FILE *open_output(const char *path, const char *suffix, char **name)
{
    if (asprintf(name, "%s%s", path, suffix) < 0) {
        *name = NULL;
        return NULL;
    }
    FILE *f = fopen(*name, "w");
    if (!f)
        sshmem_trace_warn("cannot write %s: %s", *name, strerror(errno));
    return f;
}

static void close_output(FILE *f, char *name)
{
    if (f) {
        int failed = ferror(f);
        if (fclose(f) != 0 || failed)
            sshmem_trace_warn("writing %s failed: %s", name, strerror(errno ? errno : EIO));
    }
    free(name);
}

/* Each PE's events on PE 0's clock from the origin, to both writers; the part removed. */
static void write_pes(const char *path, int n, const merged_t *m, sshmem_trace_json_t *json,
                      sshmem_trace_svg_t *svg)
{
    for (int pe = 0; pe < n; pe++) {
        sshmem_trace_part_t head;
        sshmem_trace_event_t *ev = NULL;
        if (!m->parts[pe].magic[0] || sshmem_trace_read_part(path, pe, &head, &ev) != 0)
            continue;
        uint64_t move = (uint64_t)m->shift[pe] - m->origin;
        for (uint64_t i = 0; i < head.stored; i++) {
            ev[i].begin += move;
            ev[i].end += move;
        }
        if (json)
            sshmem_trace_json_pe(json, pe, ev, head.stored);
        if (svg)
            sshmem_trace_svg_pe(svg, pe, ev, head.stored);
        free(ev);
        char *part = sshmem_trace_part_path(path, pe);
        if (part)
            unlink(part);
        free(part);
    }
}

static void report_dropped(const sshmem_trace_job_t *job)
{
    if (!job->dropped)
        return;
    sshmem_trace_warn("%llu calls were not recorded: each PE records its first %llu calls "
                      "(SSHMEM_TRACE_EVENTS=%llu) and counts the rest; the trace says so in its "
                      "otherData; raise SSHMEM_TRACE_EVENTS to see them",
                      (unsigned long long)job->dropped, (unsigned long long)job->capacity,
                      (unsigned long long)job->capacity);
}

void sshmem_trace_merge(const char *path, int n)
{
    merged_t m = {calloc((size_t)n, sizeof *m.parts), calloc((size_t)n, sizeof *m.shift), 0};
    sshmem_trace_job_t job = {.n_pes = n};
    if (!m.parts || !m.shift) {
        sshmem_trace_warn("no memory to merge the parts of %d PEs", n);
        goto out;
    }
    read_heads(path, n, &m, &job);
    job.parts = m.parts;
    char *json_name, *svg_name;
    FILE *jf = open_output(path, ".json", &json_name);
    FILE *sf = open_output(path, "-timeline.svg", &svg_name);
    sshmem_trace_json_t *json = jf ? sshmem_trace_json_open(jf, &job) : NULL;
    sshmem_trace_svg_t *svg = sf ? sshmem_trace_svg_open(sf, &job) : NULL;
    write_pes(path, n, &m, json, svg);
    if (json)
        sshmem_trace_json_close(json);
    if (svg)
        sshmem_trace_svg_close(svg);
    close_output(jf, json_name);
    close_output(sf, svg_name);
    report_dropped(&job);
out:
    free(m.parts);
    free(m.shift);
}
