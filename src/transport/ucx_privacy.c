/* ucx_privacy.c: what a PE's UCX context leaves open to other users of the host.
 *
 * UCX 1.13 makes its SysV shared-memory segments (the sysv transport's receive queues, and
 * memory it allocates when the sysv allocator comes first) with mode 0660 and offers no
 * setting for it: any user in the group could attach them read-write, and a segment outlives
 * a PE killed before it detached, counting against the host's table (kernel.shmmni) until
 * someone runs ipcrm. Its posix transport keeps the same queues in files it unlinks at once
 * and shares through /proc/PID/fd, which only the same user can open and which vanish with
 * their processes (oshrun also puts them in a 0700 directory, src/launcher/tmpdir.c). sshmem's
 * own shared memory (heap, global data) is memory files (heap/memfile.h), never SysV, but for
 * SSHMEM_LOCAL=ucx, where UCX allocates the heap (heap/heap.c says why) and its sysv
 * allocator keeps it sparse (posix would make every page real at start-up). Its
 * tcp transport listens on every network device, the host's external address included, and
 * accepts whoever connects.
 *
 * So, unless the user chose (UCX_TLS, UCX_NET_DEVICES set: never overridden):
 *   - no sysv transport (posix serves the same queues), so a running job holds no SysV
 *     segment and the host's SysV table puts no ceiling on the PEs it runs (SSHMEM_LOCAL=ucx
 *     keeps it, for the heap);
 *   - in a one-host job, no tcp transport (shared memory reaches every peer), and tcp, if the
 *     user asks for it, on the loopback device only.
 * A user's UCX_TLS that names sysv gets it: the segments this process made then become 0600
 * as soon as UCX returns them (sshmem_ucx_private_segments), which leaves the moment between
 * UCX creating a segment and the chmod. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/shm.h>
#include <unistd.h>

#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_tx.h"

/* Does a user's UCX_TLS list name a transport that runs over an RDMA device (which the
 * loopback device cannot serve)? "^..." lists exclude: they leave shared memory in. */
static int tls_needs_rdma(const char *tls)
{
    static const char *const rdma[] = { "rc", "ud", "dc", "ib", "gga", "srd" };
    if (tls[0] == '^')
        return 0;
    char *copy = strdup(tls), *save = NULL;
    int found = 0;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !found;
         t = strtok_r(NULL, ",", &save))
        for (size_t i = 0; i < sizeof rdma / sizeof rdma[0] && !found; i++)
            found = strncasecmp(t, rdma[i], strlen(rdma[i])) == 0;
    free(copy);
    return found;
}

static void modify(ucp_config_t *config, const char *name, const char *value)
{
    ucs_status_t st = ucp_config_modify(config, name, value);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "configuration (UCX_TLS/UCX_NET_DEVICES)", st);
}

void sshmem_ucx_private_config(ucp_config_t *config, int hosts)
{
    const char *tls = getenv("UCX_TLS");
    int one_host = hosts == 1;
    if (!tls && !sshmem_env.local)
        modify(config, "TLS", one_host ? "^tcp,sysv" : "^sysv");
    else if (!tls && one_host)
        modify(config, "TLS", "^tcp");
    if (one_host && !getenv("UCX_NET_DEVICES") && !(tls && tls_needs_rdma(tls)))
        modify(config, "NET_DEVICES", "lo");
}

/* The segments are found among this process's own mappings (UCX attaches what it makes;
 * a SysV mapping's inode is its shmid), not in /proc/sysvipc/shm: that lists every segment
 * of the host, a few per PE, so each PE reading it made start-up n^2 for the job. */
void sshmem_ucx_private_segments(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return;
    char line[512];
    pid_t self = getpid();
    while (fgets(line, sizeof line, f)) {
        unsigned long shmid;
        char path[16];
        /* address perms offset device inode path: "/SYSV<key> (deleted)" for SysV memory */
        if (sscanf(line, "%*s %*s %*s %*s %lu %15s", &shmid, path) != 2 ||
            strncmp(path, "/SYSV", 5) != 0)
            continue;
        struct shmid_ds ds;
        if (shmctl((int)shmid, IPC_STAT, &ds) != 0 || ds.shm_cpid != self ||
            (ds.shm_perm.mode & 077) == 0)
            continue; /* a peer's segment, already private, or gone */
        ds.shm_perm.mode = (ds.shm_perm.mode & ~0777u) | 0600;
        (void)shmctl((int)shmid, IPC_SET, &ds); /* a segment already gone is no longer a risk */
    }
    fclose(f);
}
