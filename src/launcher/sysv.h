/* sysv.h: SysV shared-memory segments the PEs made and nobody removed.
 *
 * sshmem's PEs make none, but UCX's sysv transport does where UCX carries the traffic on a
 * host (SSHMEM_LOCAL=ucx): it creates a segment (IPC_PRIVATE), attaches it and marks it for
 * removal, and a PE killed between the create and the mark leaves a segment nobody can find,
 * one entry of the host's table (kernel.shmmni) until someone runs ipcrm. The launcher
 * notes each PE's pid in the job's directory as it starts it, and at the end of the job
 * (oshrun's own end, or the guard's after oshrun was killed) removes every private segment
 * of this user that a PE of the job created and nobody has attached. */
#ifndef OSHRUN_SYSV_H
#define OSHRUN_SYSV_H

#include <sys/types.h>

/* Note that pid is a PE of the job whose directory is tmpdir. */
void osh_sysv_note_pe(const char *tmpdir, pid_t pid);

/* Remove the segments the PEs noted in tmpdir left: private, this user's, not attached. */
void osh_sysv_sweep(const char *tmpdir);

#endif
