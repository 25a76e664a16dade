/*
 * team_traits.c: what the members of a team have in common, agreed once, so that collectives
 * can choose an algorithm by it and every member chooses alike.
 *
 * The one trait today: the members all reach each other by messages their target's CPU
 * applies (tcp: no member's UCX has RDMA, and the team spans several nodes or no member has
 * shared memory; transport.h, sshmem_tx_traits). Then the gather family returns early on
 * any team, and the call after an early one learns that every member has entered it through
 * a barrier of gated messages (coll/engine.c). Asking every member's card instead would make
 * each PE learn every member, an endpoint (a TCP connection) and on a node a mapping each.
 *
 * SHMEM_TEAM_WORLD: one OR-reduction of the PEs' bits at start-up, unless every PE maps every
 * heap (one host, the direct path: no messages anywhere). SHMEM_TEAM_SHARED and the
 * split teams take their parent's OR, a superset of their own members' (every member has the
 * same one): at worst a team whose members could use messages does not, never the reverse.
 * Whether a team spans several nodes each member works out alone, from the node ids.
 */
#include <string.h>

#include "coll/coll.h"
#include "core/sshmem.h"
#include "team/team.h"
#include "transport/transport.h"

/* Whether the members of t live on more than one node. */
static int spans_nodes(const sshmem_triplet_t *t)
{
    const int node0 = sshmem_node_of(sshmem_triplet_pe(t, 0));
    for (int i = 1; i < t->size; i++)
        if (sshmem_node_of(sshmem_triplet_pe(t, i)) != node0)
            return 1;
    return 0;
}

void sshmem_team_set_traits(struct sshmem_team *team, unsigned tx_traits)
{
    team->tx_traits = tx_traits;
    team->messages = !team->direct && /* a team of mapped heaps uses loads and stores */
                     !(tx_traits & (SSHMEM_TX_RDMA | SSHMEM_TX_NO_MESSAGES)) &&
                     (!(tx_traits & SSHMEM_TX_SHM) || spans_nodes(&team->pes));
}

void sshmem_team_agree_traits(void)
{
    struct sshmem_team *world = &sshmem_team_world;
    unsigned long long *scratch = (unsigned long long *)world->scratch; /* unused before */
    scratch[0] = sshmem_tx_traits();
    if (world->direct) {
        /* One host, every heap mapped (every PE sees it so): no team uses messages, and
         * start-up talks to no peer (a PE killed meanwhile is reported as such, not as
         * another PE's failed connection to it). */
        scratch[1] = SSHMEM_TX_NO_MESSAGES;
    } else if (world->pes.size > 1) {
        coll_t c;
        coll_buf_t mine, all;
        coll_setup_team(&c, world, "shmem_init");
        coll_buf(&mine, &scratch[0], sizeof *scratch, "team scratch", &c);
        coll_buf(&all, &scratch[1], sizeof *scratch, "team scratch", &c);
        coll_reduce(&c, &all, &mine, 1, COLL_OP(uint64, or));
    } else {
        scratch[1] = scratch[0];
    }
    const unsigned traits = (unsigned)scratch[1];
    sshmem_team_set_traits(world, traits);
    sshmem_team_set_traits(&sshmem_team_shared, traits);
}
