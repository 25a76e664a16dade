/* options.h: the command line of oshrun. */
#ifndef OSHRUN_OPTIONS_H
#define OSHRUN_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>

#define OSH_MAX_PES 4096

/* The package version from configure.ac when built by the project, else the one it has. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifdef PACKAGE_VERSION
#define OSH_VERSION PACKAGE_VERSION
#else
#define OSH_VERSION "0.1.0"
#endif

enum osh_bind {
    OSH_BIND_DEFAULT, /* core when the PEs fit on the cores, none when oversubscribed */
    OSH_BIND_NONE,
    OSH_BIND_CORE,
};

/* Who starts the PEs: oshrun itself (one host, its own PMIx server) or an external launcher
 * that serves PMIx and may span hosts (external.c). */
enum osh_launcher {
    OSH_LAUNCHER_OSHRUN,
    OSH_LAUNCHER_MPIRUN,
    OSH_LAUNCHER_PRTERUN,
    OSH_LAUNCHER_SRUN,
};

struct osh_options {
    int np;              /* number of PEs, 1..OSH_MAX_PES */
    enum osh_bind bind;
    bool tag_output;
    double timeout;      /* seconds; 0 means no limit */
    char **exports;      /* "VAR=value" strings from -x, to set in the PEs' environment */
    size_t nexports;
    char **argv;         /* the program and its arguments (points into main's argv) */
    enum osh_launcher launcher; /* --launcher or OSHRUN_LAUNCHER */
    bool oversubscribe;  /* --oversubscribe given (passed on to mpirun/prterun) */
    bool dry_run;        /* --dry-run: print the external launcher's command line only */
    const char *hostfile; /* --hostfile F (mpirun, prterun) */
    const char *hosts;    /* --host h1,h2 (mpirun, prterun) */
    const char *nodes;    /* --nodes N (srun -N) */
    const char *nodelist; /* --nodelist L (srun) */
};

/* Parse argv. Returns true when the job should run; otherwise *exit_status is what oshrun
 * should exit with (0 after --help or --version, 2 after a usage error, already reported). */
bool osh_parse_options(int argc, char **argv, struct osh_options *opts, int *exit_status);

void osh_options_free(struct osh_options *opts);

#endif
