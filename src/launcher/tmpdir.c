/* tmpdir.c: the private directory of the PMIx server. The server's data store leaves files of
 * several MiB there, so the directory is oshrun's own and is removed as a whole at the end.
 * Both directories carry the pid of the oshrun the user started in their names
 * (oshrun.PID.XXXXXX), so whoever looks for what one job left behind (its tests, an
 * administrator) finds that job's alone. The guard makes and removes them (guard.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmpdir.h"
#include "util.h"

char *osh_tmpdir_create(pid_t owner)
{
    const char *base = getenv("TMPDIR");
    if (!base || base[0] != '/')
        base = "/tmp";
    char *path = osh_xmalloc(strlen(base) + sizeof "/oshrun.4294967295.XXXXXX");
    sprintf(path, "%s/oshrun.%u.XXXXXX", base, (unsigned)owner);
    if (!mkdtemp(path)) { /* mkdtemp creates it with mode 0700 */
        osh_msg("cannot create a temporary directory in %s: %s", base, strerror(errno));
        free(path);
        return NULL;
    }
    return path;
}

char *osh_shmdir_create(pid_t owner)
{
    if (getenv("UCX_POSIX_DIR"))
        return NULL; /* the user's choice stands */
    char *path = osh_xmalloc(sizeof "/dev/shm/oshrun.4294967295.XXXXXX");
    sprintf(path, "/dev/shm/oshrun.%u.XXXXXX", (unsigned)owner);
    if (!mkdtemp(path)) { /* no /dev/shm (or full): UCX's default place, without the net */
        free(path);
        return NULL;
    }
    setenv("UCX_POSIX_DIR", path, 1); /* the PEs inherit it */
    return path;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    /* FTW_DEPTH visits a directory after its contents, so rmdir finds it empty. */
    int rc = (type == FTW_DP) ? rmdir(path) : unlink(path);
    if (rc != 0 && errno != ENOENT)
        return -1;
    return 0;
}

int osh_tmpdir_remove(const char *path)
{
    if (!path)
        return 0;
    /* FTW_PHYS: never follow a symbolic link out of the directory. */
    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
        return -1;
    return 0;
}
