/*
 * svg.c: the timeline as one self-contained SVG, for a browser with nothing else, drawn like
 * the traffic profile's heat map (src/watch/profile_report.c): a title, one row per PE along
 * a common time axis, the calls as boxes coloured by kind (hover one for the routine and its
 * times), transfers as arrows between the rows, a legend.
 *
 * The file stays small for long runs: calls that fall within one pixel of the box before
 * them on the same row join that box when of its kind or when both are thinner than a pixel
 * (its hover text says how many calls it stands for), and
 * at most one arrow is drawn per source row, target row and pixel column.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/routines.h"
#include "trace/trace.h"

enum { LEFT = 80, TOP = 70, PLOT = 1100, ROW = 30, BOX = 18, RIGHT = 30 };

typedef struct {
    double x0, x1;
    int kind, mixed;
    uint64_t calls, begin, end;
    const sshmem_trace_event_t *first;
} box_t;

struct sshmem_trace_svg {
    FILE *f, *arrows; /* arrows go last, so no box hides them */
    const sshmem_trace_job_t *job;
    double scale;     /* pixels per nanosecond */
    unsigned char *drawn; /* per target PE and pixel column: an arrow of this row is there */
};

/* The axis shows the program's own time: it begins when every PE has finished shmem_init
 * (which can last long beside the rest); what comes earlier is drawn at its left edge. */
static double x_of(const sshmem_trace_svg_t *w, uint64_t ns)
{
    return LEFT + (double)(ns > w->job->started ? ns - w->job->started : 0) * w->scale;
}

static uint64_t window(const sshmem_trace_job_t *job)
{
    return job->span > job->started ? job->span - job->started : 1;
}

static int row_y(int pe)
{
    return TOP + pe * ROW;
}

/* A round step of 1, 2 or 5 times a power of ten giving at most ten ticks. */
static uint64_t tick_step(uint64_t span)
{
    uint64_t step = 1;
    for (;;) {
        for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
            if (span / (step * m) <= 10)
                return step * m;
        step *= 10;
    }
}

static void time_axis(sshmem_trace_svg_t *w)
{
    uint64_t span = window(w->job), step = tick_step(span);
    int ms = span >= 10000000;
    double unit = ms ? 1e6 : 1e3;
    int decimals = 0;
    for (double s = (double)step / unit; s < 1 && decimals < 3; s *= 10)
        decimals++;
    int bottom = row_y(w->job->n_pes);
    uint64_t first = (w->job->started + step - 1) / step * step;
    for (uint64_t t = first; t <= w->job->span; t += step) {
        double x = x_of(w, t);
        fprintf(w->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
                      "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%.*f</text>\n",
                x, TOP - 4, x, bottom, x, TOP - 8, decimals, (double)t / unit);
    }
    fprintf(w->f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">time (%s from the first call; the axis begins "
                  "when every PE has finished shmem_init)</text>\n", LEFT, TOP - 24, ms ? "ms" : "\xc2\xb5s");
}

static void rows(sshmem_trace_svg_t *w)
{
    for (int pe = 0; pe < w->job->n_pes; pe++) {
        int y = row_y(pe);
        fprintf(w->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
                      "<text class=\"pe\" x=\"%d\" y=\"%d\" text-anchor=\"end\" font-weight=\"bold\">"
                      "PE %d</text>\n", LEFT, y, PLOT, ROW, pe % 2 ? "#f4f4f4" : "#fbfbfb",
                LEFT - 8, y + ROW / 2 + 4, pe);
    }
}

static int height_of(const sshmem_trace_job_t *job)
{
    return row_y(job->n_pes) + 110;
}

sshmem_trace_svg_t *sshmem_trace_svg_open(FILE *f, const sshmem_trace_job_t *job)
{
    sshmem_trace_svg_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->job = job;
    w->scale = (double)PLOT / (double)window(job);
    w->arrows = tmpfile();
    w->drawn = malloc((size_t)job->n_pes * (PLOT + 2));
    int width = LEFT + PLOT + RIGHT, height = height_of(job);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">sshmem timeline, %d "
               "PEs: every OpenSHMEM call, and arrows for the data that moved</text>\n",
               width, height, width, height, job->n_pes);
    fputs("<defs>", f);
    for (int k = SSHMEM_TRACE_PUT; k <= SSHMEM_TRACE_ATOMIC; k++)
        fprintf(f, "<marker id=\"head%d\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                   "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 "
                   "L0,10 z\" fill=\"%s\"/></marker>", k, sshmem_trace_kind_colour(k));
    fputs("</defs>\n", f);
    rows(w);
    time_axis(w);
    return w;
}

static void draw_box(sshmem_trace_svg_t *w, int pe, const box_t *b)
{
    const sshmem_trace_routine_t *r = &sshmem_trace_routines[b->first->routine];
    double width = b->x1 - b->x0 < 1 ? 1 : b->x1 - b->x0;
    fprintf(w->f, "<rect class=\"call\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
                  "fill=\"%s\"><title>", b->x0, row_y(pe) + (ROW - BOX) / 2, width, BOX,
            sshmem_trace_kind_colour(b->kind));
    if (b->calls == 1) {
        fprintf(w->f, "PE %d: %s", pe, r->name);
        if (b->first->pe >= 0)
            fprintf(w->f, " (target PE %d)", (int)b->first->pe);
    } else {
        fprintf(w->f, "PE %d: %" PRIu64 " calls%s, the first %s", pe, b->calls,
                b->mixed ? " of several kinds" : "", r->name);
    }
    fprintf(w->f, ", %.3f to %.3f \xc2\xb5s</title></rect>\n", (double)b->begin / 1e3,
            (double)b->end / 1e3);
}

/* A transfer's arrow: from the caller to the target, or from the holder to the caller (get). */
static void arrow(sshmem_trace_svg_t *w, int pe, const sshmem_trace_event_t *e, int kind)
{
    if (!w->arrows || !w->drawn || e->pe < 0 || e->pe >= w->job->n_pes || e->pe == pe)
        return;
    double x0 = x_of(w, e->begin), x1 = x_of(w, e->end);
    size_t column = (size_t)e->pe * (PLOT + 2) + (size_t)(x0 - LEFT);
    if (w->drawn[column])
        return;
    w->drawn[column] = 1;
    int from = kind == SSHMEM_TRACE_GET ? e->pe : pe, to = kind == SSHMEM_TRACE_GET ? pe : e->pe;
    int y0 = row_y(from) + ROW / 2, y1 = row_y(to) + ROW / 2;
    y1 += y1 > y0 ? -BOX / 2 : BOX / 2; /* the head stops at the edge of the target's boxes */
    fprintf(w->arrows, "<line class=\"transfer\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
                       "stroke=\"%s\" stroke-width=\"1.2\" marker-end=\"url(#head%d)\"><title>"
                       "%s: PE %d to PE %d</title></line>\n", x0, y0, x1, y1,
            sshmem_trace_kind_colour(kind), kind, sshmem_trace_routines[e->routine].name, from, to);
}

void sshmem_trace_svg_pe(sshmem_trace_svg_t *w, int pe, const sshmem_trace_event_t *ev,
                         uint64_t n)
{
    box_t b = {0};
    if (w->drawn)
        memset(w->drawn, 0, (size_t)w->job->n_pes * (PLOT + 2));
    for (uint64_t i = 0; i < n; i++) {
        const sshmem_trace_event_t *e = &ev[i];
        if (e->routine >= sshmem_trace_n_routines)
            continue;
        int kind = sshmem_trace_routines[e->routine].kind;
        double x0 = x_of(w, e->begin), x1 = x_of(w, e->end);
        /* Within a pixel of the box before: join it if of its kind, or if both are thinner
         * than a pixel (a box of a pixel or more keeps its own colour). */
        int near = b.calls && x0 < b.x1 + 1;
        if (near && (kind == b.kind || (b.x1 - b.x0 < 1 && x1 - x0 < 1))) {
            b.x1 = x1 > b.x1 ? x1 : b.x1;
            b.end = e->end > b.end ? e->end : b.end;
            b.mixed |= kind != b.kind;
            b.calls++;
        } else {
            if (b.calls)
                draw_box(w, pe, &b);
            b = (box_t){x0, x1, kind, 0, 1, e->begin, e->end, e};
        }
        if (sshmem_trace_is_transfer(kind))
            arrow(w, pe, e, kind);
    }
    if (b.calls)
        draw_box(w, pe, &b);
}

static void legend(sshmem_trace_svg_t *w)
{
    int y = row_y(w->job->n_pes) + 30, x = LEFT;
    for (int k = 0; k < SSHMEM_TRACE_KINDS; k++) {
        fprintf(w->f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                      "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x, y, 
                sshmem_trace_kind_colour(k), x + 16, y + 10, sshmem_trace_kind_name(k));
        x += 28 + 8 * (int)strlen(sshmem_trace_kind_name(k));
    }
    fprintf(w->f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">Arrows: the data of "
                  "a put or an atomic goes from the caller to the target PE; a get brings it "
                  "from the PE that holds it to the caller. Hover a box or an arrow for the call."
                  "</text>\n", LEFT, y + 32);
    if (w->job->dropped)
        fprintf(w->f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#b00\">%" PRIu64 " calls "
                      "are missing: each PE kept its first %" PRIu64 " (SSHMEM_TRACE_EVENTS)."
                      "</text>\n", LEFT, y + 50, w->job->dropped, w->job->capacity);
}

void sshmem_trace_svg_close(sshmem_trace_svg_t *w)
{
    if (w->arrows) {
        char buf[8192];
        size_t got;
        rewind(w->arrows);
        while ((got = fread(buf, 1, sizeof buf, w->arrows)) > 0)
            fwrite(buf, 1, got, w->f);
        fclose(w->arrows);
    }
    legend(w);
    fputs("</svg>\n", w->f);
    free(w->drawn);
    free(w);
}
