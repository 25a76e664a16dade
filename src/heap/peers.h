/*
 * peers.h: what this PE knows of the others, and when it learns it (heap/peers.c).
 *
 * Start-up does a fixed amount of work per PE whatever the size of the job: every PE
 * publishes its card (one PMIx fence), and learns a peer's card (endpoint, region bases,
 * direct views) only when it first talks to that peer (sshmem_peer() in core/sshmem.h).
 */
#ifndef SSHMEM_PEERS_H
#define SSHMEM_PEERS_H

/* After the boot layer knows rank and size: allocate the peer table, set every PE's node id
 * (arithmetic on one host; the launcher's per PE otherwise), sshmem.my_node and n_nodes. */
void sshmem_peers_init(void);

/* Once the heap and global data are registered: publish this PE's card, learn its own and
 * one neighbour's (the probe of whether this node's mappings work), then decide the node's
 * direct mappings, the atomics and whether UCX is in use. globals_fd: the memory file of the
 * global data, -1 when it could not be shared; heap_fd: the heap's (heap/memfile.h). */
void sshmem_peers_exchange(int globals_fd, int heap_fd);

/* A load/store view of on-node peer pe's symmetric heap, mapped on first use from its memory
 * file even where UCX has no shared-memory transport and direct views stay NULL: for the
 * node-aware collectives (coll/hier.h), which read it only after the peer's flag said so.
 * Its direct view where it has one. Fatal when the file cannot be mapped. */
char *sshmem_peer_node_heap(int pe);

#endif
