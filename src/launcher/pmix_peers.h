/* pmix_peers.h: who is on the other end of the PMIx server's TCP connections. */
#ifndef OSHRUN_PMIX_PEERS_H
#define OSHRUN_PMIX_PEERS_H
#include <stdbool.h>
#include <sys/types.h>

/* True when a process of a user other than oshrun's holds a TCP connection to one of the
 * ports oshrun listens on; *uid is then that user. */
bool osh_pmix_peer_foreign(uid_t *uid);

#endif
