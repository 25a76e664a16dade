/* pmix_peers.c: who is on the other end of the PMIx server's TCP connections.
 *
 * libpmix 4 serves its clients over TCP on 127.0.0.1, which every local user can reach. Its
 * "native" security plugin cannot ask the kernel who a TCP peer is, so it trusts the user id
 * the client writes in its handshake: a process of another user that writes oshrun's user id
 * is let in. The kernel does know: its socket table holds every socket of the host with the
 * user who created it. A connection to the server has two sockets there: oshrun's and the
 * client's, whose remote end is the listening address. Only the client's uid says who
 * connected.
 *
 * The table is read through the kernel's socket-diagnostics netlink (what `ss` uses), asking
 * only for connections to oshrun's listening ports. Reading /proc/net/tcp instead walks and
 * formats the whole table at every PE's connection, n^2 for a job, and was most of a small
 * job's start-up (doc/performance.md). oshrun's listening ports are found once: the
 * listening sockets whose inodes are among oshrun's descriptors. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmix_peers.h"

#define MAX_LISTEN 16
#define TCP_STATE_ESTABLISHED 1
#define TCP_STATE_LISTEN 10

struct listener {
    int family;
    uint16_t port;    /* network order, as the kernel reports it */
    uint32_t addr[4]; /* the bound address; all zero: any */
};

/* One socket of a dump; return true to stop the dump. */
typedef bool (*visit_fn)(const struct inet_diag_msg *m, void *arg);

/* Ask the kernel for the TCP sockets of `family` in the states of `states` (a bit mask),
 * with destination port `dport` when not 0, and visit each. -1 when netlink fails. */
static int dump_sockets(int family, unsigned states, uint16_t dport, visit_fn visit, void *arg)
{
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0)
        return -1;
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 req;
        struct nlattr bc_attr;
        struct inet_diag_bc_op bc[4];
    } msg;
    memset(&msg, 0, sizeof msg);
    size_t len = offsetof(__typeof__(msg), bc_attr); /* no filter: header and request */
    msg.req.sdiag_family = (uint8_t)family;
    msg.req.sdiag_protocol = IPPROTO_TCP;
    msg.req.idiag_states = states;
    if (dport) {
        /* "dport >= p and dport <= p": jump to the end (accept) or past it (reject). */
        uint16_t p = ntohs(dport);
        msg.bc[0] = (struct inet_diag_bc_op){INET_DIAG_BC_D_GE, 8, 20};
        msg.bc[1] = (struct inet_diag_bc_op){0, 0, p};
        msg.bc[2] = (struct inet_diag_bc_op){INET_DIAG_BC_D_LE, 8, 12};
        msg.bc[3] = (struct inet_diag_bc_op){0, 0, p};
        msg.bc_attr.nla_type = INET_DIAG_REQ_BYTECODE;
        msg.bc_attr.nla_len = (uint16_t)(sizeof msg.bc_attr + sizeof msg.bc);
        len = sizeof msg;
    }
    msg.nlh.nlmsg_len = (uint32_t)len;
    msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, &msg, len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        close(fd);
        return -1;
    }
    long buf[8192 / sizeof(long)];
    int rc = -1;
    bool stop = false;
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
             h = NLMSG_NEXT(h, n)) {
            if (h->nlmsg_type == NLMSG_DONE) {
                close(fd);
                return 0;
            }
            if (h->nlmsg_type == NLMSG_ERROR)
                goto out;
            if (!stop)
                stop = visit((const struct inet_diag_msg *)NLMSG_DATA(h), arg);
        }
    }
out:
    close(fd);
    return rc;
}

/* The inodes of oshrun's socket descriptors. */
struct own_sockets {
    unsigned long inode[4096];
    int n;
};

static void list_own_sockets(struct own_sockets *own)
{
    own->n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    struct dirent *e;
    char path[300], target[64];
    unsigned long inode;
    while (own->n < 4096 && (e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        if (sscanf(target, "socket:[%lu]", &inode) == 1)
            own->inode[own->n++] = inode;
    }
    closedir(d);
}

struct listen_scan {
    const struct own_sockets *own;
    struct listener *found;
    int n;
};

static bool visit_listener(const struct inet_diag_msg *m, void *arg)
{
    struct listen_scan *s = arg;
    for (int i = 0; i < s->own->n && s->n < MAX_LISTEN; i++)
        if (s->own->inode[i] == m->idiag_inode)
        {
            struct listener *l = &s->found[s->n++];
            l->family = m->idiag_family;
            l->port = m->id.idiag_sport;
            memcpy(l->addr, m->id.idiag_src, sizeof l->addr);
        }
    return false;
}

struct foreign_scan {
    const struct listener *to;
    uid_t me, uid;
    bool foreign;
};

static bool visit_connection(const struct inet_diag_msg *m, void *arg)
{
    struct foreign_scan *s = arg;
    static const uint32_t any[4];
    if (m->idiag_uid == s->me || m->id.idiag_dport != s->to->port)
        return false;
    if (memcmp(s->to->addr, any, sizeof any) != 0 &&
        memcmp(s->to->addr, m->id.idiag_dst, sizeof any) != 0)
        return false; /* the same port number on another address: not oshrun's */
    s->foreign = true;
    s->uid = (uid_t)m->idiag_uid;
    return true;
}

bool osh_pmix_peer_foreign(uid_t *uid)
{
    /* oshrun's listening ports, once: the server listens from its start to its end (the
     * PMIx server is up before the first PE can connect, so the first call finds them). */
    static struct listener listen[MAX_LISTEN];
    static int nlisten = -1;
    if (nlisten <= 0) {
        struct own_sockets own;
        list_own_sockets(&own);
        struct listen_scan s = {&own, listen, 0};
        dump_sockets(AF_INET, 1u << TCP_STATE_LISTEN, 0, visit_listener, &s);
        dump_sockets(AF_INET6, 1u << TCP_STATE_LISTEN, 0, visit_listener, &s);
        nlisten = s.n;
    }
    /* Connections to those ports, from the client's side (their destination), by anyone but
     * oshrun's user. oshrun's own accepted sockets have the port as source: not matched. */
    struct foreign_scan s = {NULL, geteuid(), 0, false};
    for (int i = 0; i < nlisten && !s.foreign; i++) {
        s.to = &listen[i];
        unsigned established = 1u << TCP_STATE_ESTABLISHED;
        if (dump_sockets(listen[i].family, established, listen[i].port, visit_connection, &s))
            dump_sockets(listen[i].family, established, 0, visit_connection, &s); /* no filter */
    }
    if (s.foreign)
        *uid = s.uid;
    return s.foreign;
}
