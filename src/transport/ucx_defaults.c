/*
 * ucx_defaults.c: UCX settings sshmem chooses where UCX's own defaults measured badly here.
 * A variable the user sets always wins, and a setting is made only where a transport that
 * reads it may run: UCX warns at every start about a setting nothing used ("invalid
 * configuration: ..."). Settings that keep other users of the host out are in
 * ucx_privacy.c, which runs first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ucx_tx.h"

/* name as a transport's own table spells it: "SNDBUF" for UCX_TCP_SNDBUF (the "TCP_" is the
 * transport's prefix, not part of the name; UCX offers the setting to every transport it
 * opens, and warns if none took it). */
static void set(ucp_config_t *config, const char *name, const char *value)
{
    ucs_status_t st = ucp_config_modify(config, name, value);
    if (st != UCS_OK) {
        char what[64];
        snprintf(what, sizeof what, "configuration (%s=%s)", name, value);
        sshmem_ucx_fail("shmem_init", what, st);
    }
}

/* Does the comma-separated list name `tl` (exactly: UCX takes "TCP" for no transport)? */
static int list_names(const char *list, const char *tl)
{
    const size_t len = strlen(tl);
    for (const char *t = list; *t;) {
        const size_t n = strcspn(t, ","); /* this name's length */
        if (n == len && strncmp(t, tl, len) == 0)
            return 1;
        t += n + (t[n] == ','); /* past the name and its comma */
    }
    return 0;
}

/* UCX's shared-memory transports (sysv, posix) start with a receive pool of 512 buffers of
 * 8 KiB, 4 MiB per transport and PE, made real at start-up (posix writes every byte of it to
 * check the space): 8 MiB per PE, a third of a 4-PE job's CPU time in ucp_worker_create here.
 * 128 buffers are twice the receive FIFO (64 entries, UCX_MM_FIFO_SIZE); the pool grows by as
 * many when more are held. Only with the transports sshmem chooses (UCX_TLS unset): a user's
 * UCX_TLS may leave shared memory out (tcp,self). */
static void size_receive_pools(ucp_config_t *config)
{
    if (getenv("UCX_TLS") || getenv("UCX_MM_RX_BUFS_GROW") || getenv("UCX_SYSV_RX_BUFS_GROW") ||
        getenv("UCX_POSIX_RX_BUFS_GROW"))
        return;
    set(config, "MM_RX_BUFS_GROW", "128");
}

/* Whether UCX may open its tcp transport: a job across hosts (or of unknown extent) with
 * UCX_TLS unset, or a UCX_TLS that names tcp ("all", or an exclusion list without it). A
 * one-host job without UCX_TLS leaves tcp out (ucx_privacy.c). */
static int tcp_may_run(int hosts)
{
    const char *tls = getenv("UCX_TLS");
    if (!tls)
        return hosts != 1;
    if (tls[0] == '^')
        return !list_names(tls + 1, "tcp");
    return list_names(tls, "tcp") || list_names(tls, "all");
}

/* Over tcp the kernel sizes each socket's send buffer itself, and here it grew past a whole
 * 1 MiB block: one sendmsg took the block at once (strace: 1,048,601 bytes in one call,
 * where Open MPI's sends over the same UCX went out in two or three pieces), and on loopback
 * that call pushes the block through both ends of the stack before the receiver copies any
 * of it. Asked for 256 KiB (the kernel doubles it), a large block goes in pieces that the
 * receiver copies out while the sender queues the next: 1 MiB blocks of the gather family
 * went up to twice as fast over tcp, and nothing else got slower (doc/collectives.md). The
 * cost: a connection has at most 512 KiB in flight, which caps a long link's bandwidth. */
static void size_tcp_send_buffers(ucp_config_t *config, int hosts)
{
    if (getenv("UCX_TCP_SNDBUF") || !tcp_may_run(hosts))
        return;
    set(config, "SNDBUF", "256k");
}

void sshmem_ucx_default_config(ucp_config_t *config, int hosts)
{
    size_receive_pools(config);
    size_tcp_send_buffers(config, hosts);
}
