/*
 * hier_node.c: how the members of one node reach each other in the node-aware collectives
 * (see hier.h): straight into each other's memory when UCX maps their heaps, else through node
 * mirrors.
 *
 * A mirror is a memory file (memfd) the size of this PE's heap + globals, sparse: only the
 * pages collectives expose ever exist. Offsets in it are those of the symmetric regions (the
 * heap first, then the globals), so a symmetric buffer has the same mirror offset on every
 * PE, and the on-node flags of a sync area are the mirror words of its flags: separate words
 * that only CPU atomics of this node touch, resting at 0. Node mates map a mirror through
 * /proc/PID/fd/FD (as heap/globals.c shares the globals), PID and FD read once with a UCX get
 * from the owner's slot of internal symmetric space, written at start-up.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/hier.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "transport/transport.h"

typedef struct mirror_card {
    int32_t pid, fd; /* fd < 0: no mirror */
} mirror_card_t;

static mirror_card_t *own_card; /* internal symmetric space: every PE's at the same offset */
static size_t mirror_bytes;
/* Node mates' mirrors mapped here, NULL until first use: sshmem_peer_chunks(n_pes) pointers
 * to chunks of SSHMEM_PEER_CHUNK, each made when one of its PEs is first reached, so PEs of
 * other nodes cost no slot. */
static char ***mirror_chunks;
static char *own_mirror;
static int use_mirrors;         /* node mates' heaps are not mapped */

/* pe's slot in mirror_chunks, its chunk made now if need be (threads may race: one wins). */
static char **mirror_slot(int pe)
{
    char ***dir = &mirror_chunks[pe >> SSHMEM_PEER_CHUNK_BITS];
    char **chunk = __atomic_load_n(dir, __ATOMIC_ACQUIRE);
    if (SSHMEM_UNLIKELY(!chunk)) {
        char **fresh = calloc(SSHMEM_PEER_CHUNK, sizeof *fresh), **expected = NULL;
        if (!fresh)
            sshmem_fatal("sshmem", "out of memory for the node mirror of PE %d", pe);
        if (__atomic_compare_exchange_n(dir, &expected, fresh, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            chunk = fresh;
        } else {
            free(fresh);
            chunk = expected;
        }
    }
    return &chunk[pe & (SSHMEM_PEER_CHUNK - 1)];
}

/* Do the PEs of this node map each other's heap and globals? (All nodes run the same
 * configuration, so every PE answers alike.) */
static int node_mapped(void)
{
    int need_data = sshmem.region[SSHMEM_REGION_DATA].size != 0;
    return sshmem.node_maps[SSHMEM_REGION_HEAP] &&
           (!need_data || sshmem.node_maps[SSHMEM_REGION_DATA]);
}

static size_t mirror_off(const coll_buf_t *b)
{
    return b->region == SSHMEM_REGION_HEAP ? b->off
                                           : sshmem.region[SSHMEM_REGION_HEAP].size + b->off;
}

void hier_node_init(void)
{
    _Static_assert(sizeof(mirror_card_t) <= SSHMEM_HIER_CARD_BYTES, "the card fits its part");
    own_card = sshmem_heap_space(SSHMEM_SPACE_NODE_MIRROR);
    own_card->pid = (int32_t)getpid();
    own_card->fd = -1;
    if (sshmem_env.local != 0 || node_mapped())
        return;
    mirror_bytes = sshmem.region[SSHMEM_REGION_HEAP].size + sshmem.region[SSHMEM_REGION_DATA].size;
    mirror_chunks = calloc(sshmem_peer_chunks(sshmem.n_pes), sizeof *mirror_chunks);
    int fd = memfd_create("sshmem-node-mirror", MFD_CLOEXEC);
    char *own = MAP_FAILED;
    if (mirror_chunks && fd >= 0 && ftruncate(fd, (off_t)mirror_bytes) == 0)
        own = mmap(NULL, mirror_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (own == MAP_FAILED)
        sshmem_fatal("shmem_init", "cannot set up the node mirror of %zu bytes that node-aware "
                     "collectives use when UCX does not map node mates' heaps; set "
                     "SSHMEM_LOCAL=ucx, or give UCX_TLS a shared-memory transport (sysv)",
                     mirror_bytes);
    own_mirror = *mirror_slot(sshmem.my_pe) = own;
    own_card->fd = fd;
    use_mirrors = 1;
}

/* Member's mirror, mapped on first use. */
static char *mirror_of(coll_t *c, int member)
{
    int pe = coll_pe(c, member);
    char **slot = mirror_slot(pe);
    char *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (SSHMEM_LIKELY(m != NULL))
        return m;
    mirror_card_t card;
    sshmem_tx_get(sshmem_tx_default(), pe, SSHMEM_REGION_HEAP,
                  sshmem_peer(pe)->remote[SSHMEM_REGION_HEAP] +
                      ((uintptr_t)own_card - sshmem.region[SSHMEM_REGION_HEAP].base),
                  &card, sizeof card, 1);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)card.pid, (int)card.fd);
    int fd = card.fd >= 0 ? open(path, O_RDWR | O_CLOEXEC) : -1;
    m = fd < 0 ? MAP_FAILED
               : mmap(NULL, mirror_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                      fd, 0);
    if (fd >= 0)
        close(fd); /* the mapping keeps the file */
    if (m == MAP_FAILED)
        sshmem_fatal(c->call, "cannot map the node mirror of PE %d (%s) for a node-aware "
                     "collective; set SSHMEM_COLL_BARRIER, _BCAST, _REDUCE and _FCOLLECT to "
                     "another algorithm than hier", pe, path);
    char *expected = NULL;
    if (!__atomic_compare_exchange_n(slot, &expected, m, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        munmap(m, mirror_bytes); /* another thread was first */
        m = expected;
    }
    return m;
}

const char *hier_node_view(coll_t *c, const coll_buf_t *b, int member, size_t at)
{
    if (!use_mirrors)
        return coll_peer(c, b, member, at);
    return mirror_of(c, member) + mirror_off(b) + at;
}

void hier_node_expose(const coll_t *c, const coll_buf_t *b, size_t at, size_t len)
{
    if (use_mirrors && len)
        memcpy(own_mirror + mirror_off(b) + at, b->addr + at, len);
}

/* The on-node flag of slot on member, and the value it rests at. */
static long *node_flag(coll_t *c, int member, int slot, long *rest)
{
    size_t at = (size_t)slot * sizeof(long);
    *rest = use_mirrors ? 0 : SHMEM_SYNC_VALUE;
    return (long *)hier_node_view(c, &c->flags, member, at);
}

void hier_node_add(coll_t *c, int member, int slot, long amount)
{
    long rest;
    long *flag = node_flag(c, member, slot, &rest);
    __atomic_fetch_add(flag, amount, __ATOMIC_RELEASE); /* our exposed data comes first */
}

void hier_node_wait(coll_t *c, int slot, long count)
{
    long rest;
    long *flag = node_flag(c, c->me, slot, &rest);
    coll_wait_cpu(c, flag, rest, count);
}
