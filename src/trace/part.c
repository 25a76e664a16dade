/*
 * part.c: one PE's events in a file of its own (PATH.partN, beside the trace), the way they
 * reach PE 0: every PE writes its part, PE 0 reads them all after a barrier. This needs the
 * directory of PATH on a file system every PE sees (one host, or a shared one); it needs no
 * symmetric memory, so a program that used its whole heap is traced as well.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/trace.h"

static const char magic[8] = "sshtrc1";

void sshmem_trace_warn(const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "sshmem: warning: SSHMEM_TRACE: %s\n", text);
}

char *sshmem_trace_part_path(const char *path, int pe)
{
    char *p = NULL;
    return asprintf(&p, "%s.part%d", path, pe) < 0 ? NULL : p;
}

/* The clocks' difference, read where the two reads are closest (the machine may preempt
 * this process between them). */
static int64_t real_minus_mono(void)
{
    int64_t best = 0;
    uint64_t best_gap = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        struct timespec real;
        uint64_t a = sshmem_trace_now();
        clock_gettime(CLOCK_REALTIME, &real);
        uint64_t b = sshmem_trace_now();
        if (b - a < best_gap) {
            best_gap = b - a;
            best = (int64_t)real.tv_sec * 1000000000 + real.tv_nsec - (int64_t)(a + (b - a) / 2);
        }
    }
    return best;
}

static void read_boot_id(char out[40])
{
    memset(out, 0, 40);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(out, 40, f))
            out[0] = '\0';
        fclose(f);
    }
}

int sshmem_trace_write_part(const char *path, int pe, int n_pes)
{
    sshmem_trace_part_t head = {.pe = pe, .n_pes = n_pes};
    memcpy(head.magic, magic, sizeof magic);
    head.capacity = sshmem_trace.capacity;
    head.stored = sshmem_trace.next < head.capacity ? sshmem_trace.next : head.capacity;
    head.dropped = sshmem_trace.dropped;
    head.threads = sshmem_trace.threads;
    head.real_minus_mono = real_minus_mono();
    read_boot_id(head.boot_id);
    char *file = sshmem_trace_part_path(path, pe);
    FILE *f = file ? fopen(file, "w") : NULL;
    if (!f) {
        if (pe == 0) /* the others' failures PE 0 reports at once, as missing parts */
            sshmem_trace_warn("PE 0: cannot write %s: %s; no trace written", file ? file : path,
                              strerror(errno));
        free(file);
        return -1;
    }
    int failed = fwrite(&head, sizeof head, 1, f) != 1 ||
                 fwrite(sshmem_trace.events, sizeof(sshmem_trace_event_t), head.stored, f) !=
                     head.stored;
    failed |= fclose(f) != 0;
    if (failed && pe == 0)
        sshmem_trace_warn("PE 0: writing %s failed: %s; no trace written", file,
                          strerror(errno ? errno : EIO));
    free(file);
    return failed ? -1 : 0;
}

int sshmem_trace_read_part(const char *path, int pe, sshmem_trace_part_t *head,
                           sshmem_trace_event_t **events)
{
    char *file = sshmem_trace_part_path(path, pe);
    FILE *f = file ? fopen(file, "r") : NULL;
    free(file);
    if (!f)
        return -1;
    int ok = fread(head, sizeof *head, 1, f) == 1 && memcmp(head->magic, magic, sizeof magic) == 0 &&
             head->pe == pe;
    if (ok && events) {
        *events = malloc(head->stored ? head->stored * sizeof **events : 1);
        ok = *events && fread(*events, sizeof **events, head->stored, f) == head->stored;
        if (!ok && *events) {
            free(*events);
            *events = NULL;
        }
    }
    fclose(f);
    return ok ? 0 : -1;
}
