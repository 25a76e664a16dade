/* external.c: oshrun --launcher mpirun|prterun|srun: translate oshrun's options into the
 * launcher's own syntax and exec it. That launcher then serves PMIx to the PEs (sshmem only
 * needs PMIx), so oshrun starts no server, directory or guard of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "external.h"
#include "util.h"

/* A growing argument vector. */
struct argv_builder {
    char **v;
    size_t n;
};

static void add(struct argv_builder *a, const char *arg)
{
    a->v = osh_xrealloc(a->v, (a->n + 2) * sizeof *a->v);
    a->v[a->n++] = osh_xstrdup(arg);
    a->v[a->n] = NULL;
}

static void addf(struct argv_builder *a, const char *fmt, long value)
{
    char text[64];
    snprintf(text, sizeof text, fmt, value);
    add(a, text);
}

/* Whole units (seconds, minutes) of at least t, without libm. */
static long round_up(double t)
{
    long w = (long)t;
    return w < t ? w + 1 : w;
}

static const char *launcher_name(enum osh_launcher l)
{
    return l == OSH_LAUNCHER_MPIRUN ? "mpirun" : l == OSH_LAUNCHER_PRTERUN ? "prterun" : "srun";
}

/* mpirun (Open MPI) and prterun (PRRTE) share most of their syntax. */
static void mpi_style_options(struct argv_builder *a, const struct osh_options *o)
{
    bool mpirun = o->launcher == OSH_LAUNCHER_MPIRUN;
    add(a, "-np");
    addf(a, "%ld", (long)o->np);
    if (geteuid() == 0)
        add(a, "--allow-run-as-root"); /* both refuse root without it */
    /* On one host (no host list) a job may have more PEs than cores, as under oshrun. */
    if (o->oversubscribe || (!o->hostfile && !o->hosts))
        add(a, "--oversubscribe");
    if (o->hostfile)
        add(a, "--hostfile"), add(a, o->hostfile);
    if (o->hosts)
        add(a, "--host"), add(a, o->hosts);
    if (o->tag_output) {
        if (mpirun)
            add(a, "--tag-output");
        else
            add(a, "--output"), add(a, "tag");
    }
    if (o->timeout > 0)
        add(a, "--timeout"), addf(a, "%ld", round_up(o->timeout));
    if (o->bind != OSH_BIND_DEFAULT)
        add(a, "--bind-to"), add(a, o->bind == OSH_BIND_CORE ? "core" : "none");
    for (size_t i = 0; i < o->nexports; i++)
        add(a, "-x"), add(a, o->exports[i]);
}

/* srun (Slurm) with its PMIx plugin; variables go through --export, which keeps the rest. */
static void srun_options(struct argv_builder *a, const struct osh_options *o)
{
    add(a, "--mpi=pmix");
    add(a, "-n");
    addf(a, "%ld", (long)o->np);
    if (o->nodes)
        add(a, "-N"), add(a, o->nodes);
    if (o->nodelist)
        add(a, "--nodelist"), add(a, o->nodelist);
    if (o->tag_output)
        add(a, "--label");
    if (o->timeout > 0) /* srun's limit is in whole minutes */
        addf(a, "--time=%ld", round_up(o->timeout / 60.0));
    if (o->bind != OSH_BIND_DEFAULT)
        add(a, o->bind == OSH_BIND_CORE ? "--cpu-bind=cores" : "--cpu-bind=none");
    if (o->nexports) {
        size_t len = strlen("--export=ALL") + 1;
        for (size_t i = 0; i < o->nexports; i++)
            len += strlen(o->exports[i]) + 1;
        char *spec = osh_xmalloc(len);
        strcpy(spec, "--export=ALL");
        for (size_t i = 0; i < o->nexports; i++)
            strcat(strcat(spec, ","), o->exports[i]);
        add(a, spec);
        free(spec);
    }
}

/* srun --export separates variables with commas: a value with one cannot be passed. */
static int check_exports(const struct osh_options *o)
{
    if (o->launcher != OSH_LAUNCHER_SRUN)
        return 0;
    for (size_t i = 0; i < o->nexports; i++)
        if (strchr(strchr(o->exports[i], '=') + 1, ',')) {
            osh_msg("-x %s: srun --export cannot pass a value containing a comma; set it in "
                    "the environment of the job instead", o->exports[i]);
            return -1;
        }
    return 0;
}

static void print_command(char **v)
{
    for (size_t i = 0; v[i]; i++)
        printf("%s%s", i ? " " : "", v[i]);
    putchar('\n');
    fflush(stdout);
}

int osh_exec_external(const struct osh_options *o, const char *path)
{
    if (check_exports(o) != 0)
        return OSH_EXIT_USAGE;
    struct argv_builder a = { NULL, 0 };
    add(&a, launcher_name(o->launcher));
    if (o->launcher == OSH_LAUNCHER_SRUN)
        srun_options(&a, o);
    else
        mpi_style_options(&a, o);
    add(&a, path);
    for (size_t i = 1; o->argv[i]; i++)
        add(&a, o->argv[i]);
    if (o->dry_run) {
        print_command(a.v);
        return 0;
    }
    execvp(a.v[0], a.v);
    int err = errno;
    osh_msg("--launcher %s: cannot run '%s': %s%s", a.v[0], a.v[0], strerror(err),
            err == ENOENT ? (o->launcher == OSH_LAUNCHER_SRUN
                                 ? " (is Slurm installed and srun on PATH?)"
                                 : " (install Open MPI's mpirun or PRRTE's prterun, or put it "
                                   "on PATH)")
                          : "");
    return err == ENOENT ? 127 : OSH_EXIT_NOEXEC;
}
