/*
 * profile_report.c: PE 0 writes the gathered traffic profile as CSV (for a spreadsheet or
 * awk) and as one self-contained SVG (for a browser): see profile_report.h for the files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "watch/profile_report.h"

typedef struct {
    const char *rows;
    size_t row_len;
    int n;
} gathered_t;

static const sshmem_profile_row_t *row(const gathered_t *g, int pe)
{
    return sshmem_profile_row_of(g->rows, g->row_len, pe);
}

static double seconds(uint64_t ns)
{
    return (double)ns / 1e9;
}

/* ------------------------------------------------------------------ CSV */
static void write_table_csv(FILE *f, const gathered_t *g)
{
    fprintf(f, "pe,puts,put_bytes,gets,get_bytes,atomics,atomic_bytes,barrier_seconds,"
               "wait_seconds\n");
    for (int pe = 0; pe < g->n; pe++) {
        const sshmem_profile_row_t *r = row(g, pe);
        fprintf(f, "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                   ",%.6f,%.6f\n", pe, r->ops[SSHMEM_PROFILE_PUT], r->bytes[SSHMEM_PROFILE_PUT],
                r->ops[SSHMEM_PROFILE_GET], r->bytes[SSHMEM_PROFILE_GET],
                r->ops[SSHMEM_PROFILE_AMO], r->bytes[SSHMEM_PROFILE_AMO],
                seconds(r->ns[SSHMEM_PROFILE_BARRIER]), seconds(r->ns[SSHMEM_PROFILE_WAIT]));
    }
}

/* A square grid: the header line names the target PEs, each line starts with its source PE. */
static void write_grid_csv(FILE *f, const gathered_t *g, int bytes)
{
    fprintf(f, "source_pe\\target_pe");
    for (int t = 0; t < g->n; t++)
        fprintf(f, ",%d", t);
    fputc('\n', f);
    for (int s = 0; s < g->n; s++) {
        fprintf(f, "%d", s);
        for (int t = 0; t < g->n; t++) {
            const sshmem_profile_cell_t *c = &row(g, s)->to[t];
            fprintf(f, ",%" PRIu64, bytes ? c->bytes : c->ops);
        }
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------------ SVG */
/* Layout of the heat map, in pixels. */
typedef struct {
    int cell, left, top, grid, label_step;
} layout_t;

static layout_t layout_for(int n)
{
    layout_t l;
    l.cell = 640 / n;
    l.cell = l.cell > 32 ? 32 : l.cell < 4 ? 4 : l.cell;
    l.left = 80;
    l.top = 80;
    l.grid = n * l.cell;
    l.label_step = (14 + l.cell - 1) / l.cell; /* tick labels at least 14 px apart */
    return l;
}

/* Linear ramp from a near-white blue (nothing) to a dark blue (the largest entry). */
static void cell_colour(uint64_t v, uint64_t max, char out[8])
{
    static const int lo[3] = {247, 251, 255}, hi[3] = {8, 48, 107};
    double t = max ? (double)v / (double)max : 0.0;
    int rgb[3];
    for (int i = 0; i < 3; i++)
        rgb[i] = lo[i] + (int)((hi[i] - lo[i]) * t + (hi[i] > lo[i] ? 0.5 : -0.5));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 255, rgb[1] & 255, rgb[2] & 255);
}

static uint64_t max_bytes(const gathered_t *g)
{
    uint64_t max = 0;
    for (int s = 0; s < g->n; s++)
        for (int t = 0; t < g->n; t++)
            if (row(g, s)->to[t].bytes > max)
                max = row(g, s)->to[t].bytes;
    return max;
}

static void svg_axes(FILE *f, const gathered_t *g, const layout_t *l)
{
    int mid = l->grid / 2;
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">target PE"
               "</text>\n", l->left + mid, l->top - 30);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\" "
               "transform=\"rotate(-90 %d %d)\">source PE</text>\n",
            l->left - 45, l->top + mid, l->left - 45, l->top + mid);
    for (int i = 0; i < g->n; i += l->label_step) {
        int centre = i * l->cell + l->cell / 2;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n",
                l->left + centre, l->top - 6, i);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\">%d</text>\n",
                l->left - 6, l->top + centre + 4, i);
    }
}

static void svg_cells(FILE *f, const gathered_t *g, const layout_t *l, uint64_t max)
{
    char colour[8];
    for (int s = 0; s < g->n; s++)
        for (int t = 0; t < g->n; t++) {
            const sshmem_profile_cell_t *c = &row(g, s)->to[t];
            cell_colour(c->bytes, max, colour);
            fprintf(f, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                       "fill=\"%s\"><title>source PE %d to target PE %d: %" PRIu64 " bytes in %"
                       PRIu64 " operations</title></rect>\n", l->left + t * l->cell,
                    l->top + s * l->cell, l->cell, l->cell, colour, s, t, c->bytes, c->ops);
        }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#888\"/>\n", l->left, l->top, l->grid, l->grid);
}

/* A vertical colour bar right of the grid: the largest entry at the top, 0 at the bottom. */
static void svg_legend(FILE *f, const layout_t *l, uint64_t max)
{
    int x = l->left + l->grid + 24, h = l->grid < 120 ? 120 : l->grid;
    fprintf(f, "<defs><linearGradient id=\"ramp\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
               "<stop offset=\"0\" stop-color=\"#f7fbff\"/><stop offset=\"1\" "
               "stop-color=\"#08306b\"/></linearGradient></defs>\n");
    fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" "
               "fill=\"url(#ramp)\" stroke=\"#888\"/>\n", x, l->top, h);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%" PRIu64 " B</text>\n", x + 22,
            l->top + 10, max);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0 B</text>\n", x + 22, l->top + h);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">bytes (linear)</text>\n", x,
            l->top - 10);
}

/* The per-PE table under the heat map, the same columns as PREFIX.csv. */
static int svg_table(FILE *f, const gathered_t *g, int y)
{
    static const char *head[] = {"pe", "puts", "put_bytes", "gets", "get_bytes", "atomics",
                                 "atomic_bytes", "barrier_s", "wait_s"};
    static const int x[] = {10, 50, 120, 220, 290, 390, 460, 560, 650};
    fprintf(f, "<g class=\"table\" font-family=\"monospace\" font-size=\"12\">\n");
    for (int c = 0; c < 9; c++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", x[c], y, head[c]);
    for (int pe = 0; pe < g->n; pe++) {
        const sshmem_profile_row_t *r = row(g, pe);
        uint64_t v[6] = {r->ops[SSHMEM_PROFILE_PUT], r->bytes[SSHMEM_PROFILE_PUT],
                         r->ops[SSHMEM_PROFILE_GET], r->bytes[SSHMEM_PROFILE_GET],
                         r->ops[SSHMEM_PROFILE_AMO], r->bytes[SSHMEM_PROFILE_AMO]};
        y += 16;
        fprintf(f, "<text x=\"%d\" y=\"%d\">%d</text>\n", x[0], y, pe);
        for (int c = 0; c < 6; c++)
            fprintf(f, "<text x=\"%d\" y=\"%d\">%" PRIu64 "</text>\n", x[c + 1], y, v[c]);
        fprintf(f, "<text x=\"%d\" y=\"%d\">%.6f</text>\n<text x=\"%d\" y=\"%d\">%.6f</text>\n",
                x[7], y, seconds(r->ns[SSHMEM_PROFILE_BARRIER]), x[8], y,
                seconds(r->ns[SSHMEM_PROFILE_WAIT]));
    }
    fprintf(f, "</g>\n");
    return y;
}

static void write_svg(FILE *f, const gathered_t *g)
{
    layout_t l = layout_for(g->n);
    uint64_t max = max_bytes(g);
    int map_bottom = l.top + (l.grid < 120 ? 120 : l.grid);
    int width = l.left + l.grid + 150 < 740 ? 740 : l.left + l.grid + 150;
    int height = map_bottom + 60 + 16 * g->n + 20;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">sshmem traffic "
               "profile, %d PEs: bytes from source PE to target PE</text>\n"
               "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#555\">Hover a cell for its "
               "bytes and operations.</text>\n", width, height, width, height, g->n, height - 6);
    svg_axes(f, g, &l);
    svg_cells(f, g, &l, max);
    svg_legend(f, &l, max);
    svg_table(f, g, map_bottom + 50);
    fprintf(f, "</svg>\n");
}

/* ------------------------------------------------------------------ files */
typedef void (*writer_t)(FILE *f, const gathered_t *g, int arg);

static void table_writer(FILE *f, const gathered_t *g, int arg) { (void)arg; write_table_csv(f, g); }
static void grid_writer(FILE *f, const gathered_t *g, int bytes) { write_grid_csv(f, g, bytes); }
static void svg_writer(FILE *f, const gathered_t *g, int arg) { (void)arg; write_svg(f, g); }

/* PREFIX + suffix, written by one writer; a warning naming the file and the reason if not. */
static void write_file(const char *prefix, const char *suffix, writer_t writer,
                       const gathered_t *g, int arg)
{
    size_t len = strlen(prefix) + strlen(suffix) + 1;
    char *path = malloc(len);
    if (!path)
        return;
    snprintf(path, len, "%s%s", prefix, suffix);
    FILE *f = fopen(path, "w");
    if (!f) {
        sshmem_warn("shmem_finalize", "SSHMEM_PROFILE: cannot write %s: %s", path,
                    strerror(errno));
        free(path);
        return;
    }
    writer(f, g, arg);
    int failed = ferror(f);
    int err = failed ? errno : 0;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (failed)
        sshmem_warn("shmem_finalize", "SSHMEM_PROFILE: writing %s failed: %s", path,
                    strerror(err ? err : EIO));
    free(path);
}

void sshmem_profile_write(const char *prefix, const char *rows, size_t row_len, int n)
{
    gathered_t g = {rows, row_len, n};
    write_file(prefix, ".csv", table_writer, &g, 0);
    write_file(prefix, "-matrix.csv", grid_writer, &g, 1);
    write_file(prefix, "-ops.csv", grid_writer, &g, 0);
    write_file(prefix, ".svg", svg_writer, &g, 0);
}
