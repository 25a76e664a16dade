/* options.c: parsing oshrun's command line, --help and --version.
 *
 * Hand-written instead of getopt_long because oshrun must stop at the first non-option (the
 * program's own options follow it) and must accept Open MPI's single-dash long options (-np). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

enum apply_result { APPLY_OK, APPLY_EXIT_SUCCESS, APPLY_USAGE_ERROR };

struct option_def {
    const char *names[5];  /* NULL-terminated spellings */
    bool takes_value;
    enum apply_result (*apply)(struct osh_options *o, const char *name, const char *value);
    bool optional_value;   /* "--name" alone, or "--name=value" (value NULL when absent) */
};

static const char usage_text[] =
    "Usage: oshrun [options] program [args...]\n"
    "\n"
    "Start N processes (PEs) of an OpenSHMEM program on this host and wait for them.\n"
    "\n"
    "Options:\n"
    "  -np N, -n N, --np N, -N N  number of PEs to start (1..4096); required\n"
    "  --bind-to core|none        bind PE i to core (i mod number of cores); default: core\n"
    "                             when the PEs fit on the cores, none when oversubscribed\n"
    "  -x VAR                     export VAR with its current value to the PEs\n"
    "  -x VAR=value               set VAR=value in the PEs' environment (repeatable)\n"
    "  --tag-output               prefix every line the PEs print with [PE n]\n"
    "  --timeout S                end the job if it still runs after S seconds (status 124)\n"
    "  --profile[=PATH]           write a traffic profile at the end: PATH.csv, PATH-matrix.csv,\n"
    "                             PATH-ops.csv and PATH.svg (sets SSHMEM_PROFILE=PATH for the\n"
    "                             PEs; default PATH: sshmem-profile in the current directory)\n"
    "  --trace[=PATH]             write a timeline of every OpenSHMEM call at the end: PATH.json\n"
    "                             (open it in ui.perfetto.dev or chrome://tracing) and\n"
    "                             PATH-timeline.svg (sets SSHMEM_TRACE=PATH for the PEs;\n"
    "                             default PATH: sshmem-trace in the current directory)\n"
    "  --weak[=SEED]              weak-ordering mode: puts, signals, non-fetching atomics and\n"
    "                             _nbi operations land late and out of order, as on an RDMA\n"
    "                             network, in an order SEED picks (default 1; sets SSHMEM_WEAK):\n"
    "                             a missing shmem_fence or shmem_quiet shows as stale data\n"
    "  --oversubscribe, --allow-run-as-root\n"
    "                             accepted for Open MPI compatibility; they change nothing\n"
    "                             (--oversubscribe is passed on to mpirun and prterun)\n"
    "\n"
    "Several hosts (see doc/multi-host.md): an external launcher serves PMIx instead.\n"
    "  --launcher mpirun|prterun|srun|oshrun\n"
    "                             exec that launcher with the options above in its own\n"
    "                             syntax (default: $OSHRUN_LAUNCHER, else oshrun itself)\n"
    "  --hostfile F, --host h1,h2 the hosts (mpirun, prterun)\n"
    "  --nodes N, --nodelist L    the nodes (srun -N, --nodelist)\n"
    "  --dry-run                  print the launcher's command line instead of running it\n"
    "  -h, --help                 show this help\n"
    "  -V, --version              show the version\n"
    "\n"
    "The PEs inherit oshrun's environment. PE 0 reads oshrun's standard input; the other PEs\n"
    "read /dev/null. Ctrl-C ends the job, Ctrl-Z suspends all of it. When one PE fails,\n"
    "oshrun ends the others; processes the PEs leave behind end with the job.\n"
    "\n"
    "Exit status: 0 when every PE exits with 0; otherwise the status of the first PE that\n"
    "failed (128+n when signal n killed it) or the status given to shmem_global_exit; 124\n"
    "when --timeout expires; 128+n when signal n interrupts oshrun; 2 for usage errors.\n"
    "\n"
    "Examples:\n"
    "  oshrun -np 4 ./hello\n"
    "  oshrun -np 8 --tag-output ./solver input.dat\n"
    "  oshrun -np 2 -x SHMEM_SYMMETRIC_SIZE=1G --timeout 60 ./a.out\n"
    "  oshrun -np 4 --trace ./ring        (then open sshmem-trace.json in ui.perfetto.dev)\n"
    "  oshrun -np 2 --weak=3 ./a.out      (the same seed replays the same order)\n";

/* Report a usage error, pointing at --help. */
static enum apply_result __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    osh_msg("%s (see 'oshrun --help')", text);
    return APPLY_USAGE_ERROR;
}

static enum apply_result apply_np(struct osh_options *o, const char *name, const char *value)
{
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || errno == ERANGE)
        return usage_error("%s '%s': expected the number of PEs, e.g. -np 4", name, value);
    if (n < 1 || n > OSH_MAX_PES) {
        osh_msg("%s %s: the number of PEs must be between 1 and %d", name, value, OSH_MAX_PES);
        return APPLY_USAGE_ERROR;
    }
    o->np = (int)n;
    return APPLY_OK;
}

static enum apply_result apply_bind(struct osh_options *o, const char *name, const char *value)
{
    if (strcmp(value, "core") == 0)
        o->bind = OSH_BIND_CORE;
    else if (strcmp(value, "none") == 0)
        o->bind = OSH_BIND_NONE;
    else
        return usage_error("%s '%s': expected 'core' or 'none'", name, value);
    return APPLY_OK;
}

/* Append "VAR=value" (allocated) to the PEs' environment. */
static void add_export(struct osh_options *o, char *entry)
{
    o->exports = osh_xrealloc(o->exports, (o->nexports + 1) * sizeof *o->exports);
    o->exports[o->nexports++] = entry;
}

/* -x VAR takes the value oshrun sees now; -x VAR=value sets it. */
static enum apply_result apply_export(struct osh_options *o, const char *name, const char *value)
{
    const char *eq = strchr(value, '=');
    size_t namelen = eq ? (size_t)(eq - value) : strlen(value);
    if (namelen == 0)
        return usage_error("%s '%s': expected VAR or VAR=value", name, value);
    char *entry;
    if (eq) {
        entry = osh_xstrdup(value);
    } else {
        const char *current = getenv(value);
        if (!current) {
            osh_msg("warning: -x %s: %s is not set in oshrun's environment; the PEs will not "
                    "have it either (use -x %s=value to set it)", value, value, value);
            return APPLY_OK;
        }
        entry = osh_xmalloc(namelen + strlen(current) + 2);
        sprintf(entry, "%s=%s", value, current);
    }
    add_export(o, entry);
    return APPLY_OK;
}

/* --profile[=PATH]: the PEs' SSHMEM_PROFILE (the library writes the files at the end). */
static enum apply_result apply_profile(struct osh_options *o, const char *name, const char *value)
{
    if (value && !*value)
        return usage_error("%s=: expected a path prefix, e.g. %s=run1 (or %s alone for "
                           "sshmem-profile)", name, name, name);
    const char *path = value ? value : "sshmem-profile";
    char *entry = osh_xmalloc(strlen("SSHMEM_PROFILE=") + strlen(path) + 1);
    sprintf(entry, "SSHMEM_PROFILE=%s", path);
    add_export(o, entry);
    return APPLY_OK;
}

/* --trace[=PATH]: the PEs' SSHMEM_TRACE (the library brings the recorder in and writes the
 * files at the end: src/core/trace_loader.c, src/trace). */
static enum apply_result apply_trace(struct osh_options *o, const char *name, const char *value)
{
    if (value && !*value)
        return usage_error("%s=: expected a path prefix, e.g. %s=run1 (or %s alone for "
                           "sshmem-trace)", name, name, name);
    const char *path = value ? value : "sshmem-trace";
    char *entry = osh_xmalloc(strlen("SSHMEM_TRACE=") + strlen(path) + 1);
    sprintf(entry, "SSHMEM_TRACE=%s", path);
    add_export(o, entry);
    return APPLY_OK;
}

/* --weak[=SEED]: the PEs' SSHMEM_WEAK (the library holds their operations back). */
static enum apply_result apply_weak(struct osh_options *o, const char *name, const char *value)
{
    char *end;
    errno = 0;
    unsigned long seed = value ? strtoul(value, &end, 10) : 1;
    if (value && (end == value || *end != '\0' || errno == ERANGE || seed == 0 ||
                  seed > 1000000000ul || value[0] == '-'))
        return usage_error("%s=%s: expected a seed, a whole number from 1 to 1000000000, e.g. "
                           "%s=3 (or %s alone for seed 1)", name, value, name, name);
    char *entry = osh_xmalloc(sizeof "SSHMEM_WEAK=" + 10);
    sprintf(entry, "SSHMEM_WEAK=%lu", seed);
    add_export(o, entry);
    return APPLY_OK;
}

static enum apply_result apply_tag_output(struct osh_options *o, const char *name,
                                          const char *value)
{
    o->tag_output = true;
    return APPLY_OK;
}

static enum apply_result apply_timeout(struct osh_options *o, const char *name, const char *value)
{
    char *end;
    errno = 0;
    double s = strtod(value, &end);
    if (end == value || *end != '\0' || errno == ERANGE || !isfinite(s) || s <= 0)
        return usage_error("%s '%s': expected a number of seconds greater than 0, e.g. "
                           "--timeout 60", name, value);
    o->timeout = s;
    return APPLY_OK;
}

static enum apply_result apply_oversubscribe(struct osh_options *o, const char *name,
                                            const char *value)
{
    o->oversubscribe = true;
    return APPLY_OK;
}

static enum apply_result apply_dry_run(struct osh_options *o, const char *name, const char *value)
{
    o->dry_run = true;
    return APPLY_OK;
}

/* The launcher's name, from --launcher or OSHRUN_LAUNCHER (what names it in messages). */
static enum apply_result set_launcher(struct osh_options *o, const char *what, const char *value)
{
    static const char *const names[] = { "oshrun", "mpirun", "prterun", "srun" };
    for (int i = 0; i < 4; i++)
        if (strcmp(value, names[i]) == 0) {
            o->launcher = (enum osh_launcher)i;
            return APPLY_OK;
        }
    return usage_error("%s '%s': expected mpirun, prterun, srun or oshrun", what, value);
}

static enum apply_result apply_launcher(struct osh_options *o, const char *name, const char *value)
{
    return set_launcher(o, name, value);
}

/* Host selection is only for external launchers; remembered here, checked at the end. */
static enum apply_result apply_hosts(struct osh_options *o, const char *name, const char *value)
{
    if (strcmp(name, "--hostfile") == 0)
        o->hostfile = value;
    else if (strcmp(name, "--host") == 0)
        o->hosts = value;
    else if (strcmp(name, "--nodes") == 0)
        o->nodes = value;
    else
        o->nodelist = value;
    return APPLY_OK;
}

static enum apply_result apply_ignored(struct osh_options *o, const char *name, const char *value)
{
    return APPLY_OK;
}

static enum apply_result apply_help(struct osh_options *o, const char *name, const char *value)
{
    fputs(usage_text, stdout);
    fflush(stdout);
    return APPLY_EXIT_SUCCESS;
}

static enum apply_result apply_version(struct osh_options *o, const char *name, const char *value)
{
    printf("oshrun (sshmem) %s\n", OSH_VERSION);
    fflush(stdout);
    return APPLY_EXIT_SUCCESS;
}

static const struct option_def option_table[] = {
    { { "-np", "-n", "--np", "-N", NULL }, true, apply_np },
    { { "--bind-to", NULL }, true, apply_bind },
    { { "-x", NULL }, true, apply_export },
    { { "--tag-output", NULL }, false, apply_tag_output },
    { { "--timeout", NULL }, true, apply_timeout },
    { { "--profile", NULL }, false, apply_profile, true },
    { { "--trace", NULL }, false, apply_trace, true },
    { { "--weak", NULL }, false, apply_weak, true },
    { { "--oversubscribe", NULL }, false, apply_oversubscribe },
    { { "--allow-run-as-root", NULL }, false, apply_ignored },
    { { "--launcher", NULL }, true, apply_launcher },
    { { "--hostfile", "--host", "--nodes", "--nodelist", NULL }, true, apply_hosts },
    { { "--dry-run", NULL }, false, apply_dry_run },
    { { "-h", "--help", NULL }, false, apply_help },
    { { "-V", "--version", NULL }, false, apply_version },
};

/* The definition whose spelling is the first namelen characters of arg, or NULL. */
static const struct option_def *find_option(const char *arg, size_t namelen)
{
    size_t n = sizeof option_table / sizeof option_table[0];
    for (size_t i = 0; i < n; i++)
        for (const char *const *s = option_table[i].names; *s; s++)
            if (strlen(*s) == namelen && strncmp(*s, arg, namelen) == 0)
                return &option_table[i];
    return NULL;
}

/* "-np4" is a common slip: suggest the spelling that works. */
static void report_unknown(const char *arg)
{
    const char *prefixes[] = { "-np", "-n", "-N" };
    for (size_t i = 0; i < 3; i++) {
        size_t len = strlen(prefixes[i]);
        if (strncmp(arg, prefixes[i], len) == 0 && isdigit((unsigned char)arg[len])) {
            osh_msg("unknown option '%s'; did you mean '%s %s'? (see 'oshrun --help')", arg,
                    prefixes[i], arg + len);
            return;
        }
    }
    osh_msg("unknown option '%s' (see 'oshrun --help')", arg);
}

/* Handle the option at argv[*i] (advancing *i past a separate value). */
static enum apply_result parse_one(int argc, char **argv, int *i, struct osh_options *o)
{
    const char *arg = argv[*i];
    const struct option_def *def = find_option(arg, strlen(arg));
    const char *value = NULL;
    size_t namelen = strlen(arg);
    if (!def) {
        /* "--name=value" (and "-np=4") for options that take a value. */
        const char *eq = strchr(arg, '=');
        if (eq) {
            namelen = (size_t)(eq - arg);
            def = find_option(arg, namelen);
            value = eq + 1;
        }
        if (!def || !(def->takes_value || def->optional_value)) {
            report_unknown(arg);
            return APPLY_USAGE_ERROR;
        }
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)namelen, arg);
    if (def->takes_value && !value) {
        if (*i + 1 >= argc) {
            osh_msg("option '%s' needs a value (see 'oshrun --help')", name);
            return APPLY_USAGE_ERROR;
        }
        value = argv[++*i];
    }
    return def->apply(o, name, value);
}

/* Host options need a launcher that can reach other hosts, and the one that understands them. */
static bool check_hosts(const struct osh_options *o)
{
    bool mpi_style = o->launcher == OSH_LAUNCHER_MPIRUN || o->launcher == OSH_LAUNCHER_PRTERUN;
    const char *wrong = NULL;
    if ((o->hostfile || o->hosts) && !mpi_style)
        wrong = o->hostfile ? "--hostfile" : "--host";
    else if ((o->nodes || o->nodelist) && o->launcher != OSH_LAUNCHER_SRUN)
        wrong = o->nodes ? "--nodes" : "--nodelist";
    if (!wrong)
        return true;
    if (o->launcher == OSH_LAUNCHER_OSHRUN)
        osh_msg("%s: oshrun alone starts PEs on this host only; add --launcher %s (see "
                "doc/multi-host.md)", wrong, wrong[2] == 'h' ? "mpirun" : "srun");
    else
        osh_msg("%s is not an option for --launcher %s: use %s", wrong,
                o->launcher == OSH_LAUNCHER_SRUN ? "srun" : "mpirun/prterun",
                o->launcher == OSH_LAUNCHER_SRUN ? "--nodes/--nodelist" : "--hostfile/--host");
    return false;
}

/* Options are done; check that what remains makes a job. */
static bool check_complete(const struct osh_options *o, int *exit_status)
{
    if (!check_hosts(o)) {
        *exit_status = OSH_EXIT_USAGE;
        return false;
    }
    if (o->np == 0) {
        osh_msg("the number of PEs is missing: give it with -np N, e.g. 'oshrun -np 4 ./a.out'");
        *exit_status = OSH_EXIT_USAGE;
        return false;
    }
    if (!o->argv || !o->argv[0]) {
        osh_msg("no program to run: e.g. 'oshrun -np %d ./a.out' (see 'oshrun --help')", o->np);
        *exit_status = OSH_EXIT_USAGE;
        return false;
    }
    return true;
}

bool osh_parse_options(int argc, char **argv, struct osh_options *o, int *exit_status)
{
    memset(o, 0, sizeof *o);
    o->bind = OSH_BIND_DEFAULT;
    const char *env_launcher = getenv("OSHRUN_LAUNCHER");
    if (env_launcher && *env_launcher &&
        set_launcher(o, "OSHRUN_LAUNCHER", env_launcher) != APPLY_OK) {
        *exit_status = OSH_EXIT_USAGE;
        return false;
    }
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            break; /* the program */
        enum apply_result r = parse_one(argc, argv, &i, o);
        if (r != APPLY_OK) {
            *exit_status = r == APPLY_EXIT_SUCCESS ? 0 : OSH_EXIT_USAGE;
            return false;
        }
    }
    o->argv = &argv[i];
    return check_complete(o, exit_status);
}

void osh_options_free(struct osh_options *o)
{
    for (size_t i = 0; i < o->nexports; i++)
        free(o->exports[i]);
    free(o->exports);
    o->exports = NULL;
    o->nexports = 0;
}
