/* sysv.c: the SysV segments the PEs left (see sysv.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

#include "sysv.h"

#define PIDS_FILE "/pe-pids"

static char *pids_path(const char *tmpdir)
{
    char *path = malloc(strlen(tmpdir) + sizeof PIDS_FILE);
    if (path)
        sprintf(path, "%s" PIDS_FILE, tmpdir);
    return path;
}

void osh_sysv_note_pe(const char *tmpdir, pid_t pid)
{
    char *path = tmpdir ? pids_path(tmpdir) : NULL;
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600) : -1;
    if (fd >= 0) {
        (void)!write(fd, &pid, sizeof pid); /* one write of 4 bytes: appended whole */
        close(fd);
    }
    free(path);
}

/* The noted pids (*n of them, malloc'ed), or NULL. */
static pid_t *noted_pids(const char *tmpdir, size_t *n)
{
    char *path = pids_path(tmpdir);
    FILE *f = path ? fopen(path, "re") : NULL;
    free(path);
    pid_t *pids = NULL, pid;
    size_t cap = 0;
    *n = 0;
    while (f && fread(&pid, sizeof pid, 1, f) == 1) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            pid_t *more = realloc(pids, cap * sizeof *pids);
            if (!more)
                break;
            pids = more;
        }
        pids[(*n)++] = pid;
    }
    if (f)
        fclose(f);
    return pids;
}

static int noted(const pid_t *pids, size_t n, long pid)
{
    for (size_t i = 0; i < n; i++)
        if (pids[i] == pid)
            return 1;
    return 0;
}

void osh_sysv_sweep(const char *tmpdir)
{
    size_t n;
    pid_t *pids = tmpdir ? noted_pids(tmpdir, &n) : NULL;
    FILE *f = pids ? fopen("/proc/sysvipc/shm", "re") : NULL;
    char line[512];
    if (f && fgets(line, sizeof line, f)) { /* the header */
        long key, id, perms, size, cpid, lpid, nattch, uid;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%ld %ld %lo %ld %ld %ld %ld %ld", &key, &id, &perms, &size, &cpid,
                       &lpid, &nattch, &uid) == 8 &&
                key == IPC_PRIVATE && nattch == 0 && uid == (long)geteuid() &&
                noted(pids, n, cpid))
                shmctl((int)id, IPC_RMID, NULL);
    }
    if (f)
        fclose(f);
    free(pids);
}
