/*
 * exchange.h: the one protocol behind gatherv, scatterv, allgatherv, alltoallv and their
 * regular forms: typed blocks travel from senders to receivers on src/coll's engine (the
 * team's sync areas, flags and puts; see coll/engine.h).
 *
 * A collective is described by its two sides: what this PE sends to each member, and what it
 * receives from each (count elements of the type at a displacement, in extents, from a buffer's
 * origin). Per pair of sender and receiver:
 *  - small blocks (eager): the sender writes a header (its count) and the packed data into the
 *    receiver's slot of the sync area's work space and signals; the receiver checks the count
 *    against its own and unpacks into its dest. One step, and dest is written only by its owner,
 *    inside the call (MPI's rule). Where the pair stamps, the header's call number, stored last,
 *    is the signal (coll/engine.h, stamps): one cache line brings header and small block.
 *  - large blocks (rendezvous): at entry the receiver invites the sender, saying where the block
 *    goes (its dest's symmetric location); the sender, now knowing the receiver is inside the
 *    call, puts the data straight there with the type's layout (memcpy or strided copy on mapped
 *    memory, UCX puts otherwise) and signals "done". No staging copy, two signal latencies.
 * Each side chooses the path from its own count. Every sender's count travels in a header (also
 * for large blocks), so a sender and receiver that disagree get a clear error on the receiving
 * PE, whatever the sizes and paths.
 */
#ifndef SSHMEM_MPIX_EXCHANGE_H
#define SSHMEM_MPIX_EXCHANGE_H
#include <shmemx.h>

#include "mpix/sides.h"

/* Run the exchange on team: send side `send`, receive side `recv` (its origin is dest, which
 * must be symmetric when anybody sends to this PE). rooted: the pattern has a root (gatherv,
 * scatterv). A rooted exchange may return early, as MPI allows (where: exchange.c): a PE leaves
 * once its own blocks are through (a gatherv member once its block is delivered, a scatterv
 * member once its block is in dest, the root once it has all or sent all; coll/engine.h, "Early
 * return"). Otherwise PEs that do not hear from every member learn that all have entered before
 * they leave (the engine's reuse rule). A block from this PE to itself is copied locally
 * (nothing when already in place). Fatal errors name call. */
void mpix_exchange(shmem_team_t team, const mpix_side_t *send, const mpix_side_t *recv,
                   shmemx_datatype_t type, int rooted, const char *call);

#endif
