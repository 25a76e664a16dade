/* pmix_peers.c: who is on the other end of the PMIx server's TCP connections.
 *
 * libpmix 4 serves its clients over TCP on 127.0.0.1, which every local user can reach. Its
 * "native" security plugin cannot ask the kernel who a TCP peer is, so it trusts the user id
 * the client writes in its handshake: a process of another user that writes oshrun's user id
 * is let in. The kernel does know: /proc/net/tcp lists every socket of the host with the user
 * who created it. A connection to the server has two sockets there: oshrun's (its inode is
 * one of oshrun's descriptors) and the client's, whose remote end is the listening address.
 * Only the client's uid says who connected. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix_peers.h"

#define TCP_ESTABLISHED 0x01
#define TCP_LISTEN 0x0A
#define MAX_LISTEN 16

struct tcp_entry {
    char local[64], remote[64]; /* "ADDR:PORT" in /proc/net/tcp's hexadecimal */
    unsigned state;
    unsigned long uid, inode;
};

static bool parse_entry(const char *line, struct tcp_entry *e)
{
    return sscanf(line, " %*d: %63s %63s %x %*s %*s %*s %lu %*d %lu", e->local, e->remote,
                  &e->state, &e->uid, &e->inode) == 5;
}

/* Is inode one of the sockets among oshrun's descriptors? */
static bool own_socket(unsigned long inode)
{
    char want[48];
    snprintf(want, sizeof want, "socket:[%lu]", inode);
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    char path[300], target[64];
    while (!found && (e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            found = strcmp(target, want) == 0;
        }
    }
    closedir(d);
    return found;
}

/* One table (tcp or tcp6): oshrun's listening addresses first, then the connections to
 * them. Returns true with *uid for a connection of another user. */
static bool table_has_foreign_peer(const char *table, uid_t me, uid_t *uid)
{
    FILE *f = fopen(table, "re");
    if (!f)
        return false;
    char line[512], listen[MAX_LISTEN][64];
    int nlisten = 0;
    struct tcp_entry e;
    while (fgets(line, sizeof line, f))
        if (parse_entry(line, &e) && e.state == TCP_LISTEN && nlisten < MAX_LISTEN &&
            own_socket(e.inode))
            strcpy(listen[nlisten++], e.local);
    rewind(f);
    bool foreign = false;
    while (!foreign && fgets(line, sizeof line, f)) {
        if (!parse_entry(line, &e) || e.state != TCP_ESTABLISHED || e.uid == me)
            continue;
        for (int i = 0; i < nlisten && !foreign; i++)
            if (strcmp(e.remote, listen[i]) == 0) {
                foreign = true;
                *uid = (uid_t)e.uid;
            }
    }
    fclose(f);
    return foreign;
}

bool osh_pmix_peer_foreign(uid_t *uid)
{
    uid_t me = geteuid();
    return table_has_foreign_peer("/proc/net/tcp", me, uid) ||
           table_has_foreign_peer("/proc/net/tcp6", me, uid);
}
