/* external.h: handing the job to an external launcher (mpirun, prterun, srun) that serves
 * PMIx to the PEs and can start them on several hosts. */
#ifndef OSHRUN_EXTERNAL_H
#define OSHRUN_EXTERNAL_H
#include "options.h"

/* Exec the launcher chosen in opts for the program at path (never returns on success).
 * With opts->dry_run, print its command line and return 0; otherwise return the exit status
 * oshrun should end with (the launcher could not be started). */
int osh_exec_external(const struct osh_options *opts, const char *path);

#endif
