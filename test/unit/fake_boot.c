/* fake_boot.c: what the per-PE tables' code (heap/peers.c, transport/ucx_cards.c,
 * transport/ucx_worker.c) calls below and beside it, faked for test_peer_tables: a launcher
 * that says "one host" and answers nothing else, and a transport and error layer that must
 * not be reached while tables are only laid out (reaching one fails the test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "boot/boot.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/memfile.h"
#include "transport/ucx_tx.h"

struct sshmem_env sshmem_env; /* every setting at its zero: no SSHMEM_PES_PER_NODE */

/* The launcher: one host (node 0), and no node map or cards asked for. */
int sshmem_boot_host_count(void) { return 1; }
int sshmem_boot_node_id(void) { return 0; }

static void unexpected(const char *what)
{
    fail_msg("the table layout reached %s", what);
}

int sshmem_boot_host_ids(int *ids, int n_pes)
{
    (void)ids;
    (void)n_pes;
    unexpected("the node map");
    return -1;
}

void sshmem_boot_exchange(const void *card, size_t len, int collect)
{
    (void)card;
    (void)len;
    (void)collect;
    unexpected("the exchange of cards");
}

void *sshmem_boot_card(int pe, size_t *len)
{
    (void)pe;
    (void)len;
    unexpected("a card");
    return NULL;
}

void sshmem_fatal(const char *call, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg("%s: %s", call, msg);
    abort();
}

void sshmem_fatal_peer_lost(const char *call, const char *fmt, ...)
{
    (void)fmt;
    fail_msg("%s: a peer lost", call);
    abort();
}

/* The transport beside the tables, and UCX's: not reached by a layout. */
ucp_context_h sshmem_ucx_context;
static struct sshmem_tx fake_default_tx;
struct sshmem_tx *sshmem_tx_default(void) { return &fake_default_tx; }
void sshmem_ucx_staging_setup(struct sshmem_tx *tx) { (void)tx; }
void sshmem_ucx_put_add_setup(struct sshmem_tx *tx) { (void)tx; }

void *sshmem_tx_card(size_t *len)
{
    (void)len;
    unexpected("this PE's card");
    return NULL;
}

void sshmem_tx_connect(int pe, const void *card, size_t len)
{
    (void)pe;
    (void)card;
    (void)len;
    unexpected("a connection");
}

void *sshmem_tx_direct_ptr(int pe, enum sshmem_region region, uint64_t raddr)
{
    (void)pe;
    (void)region;
    (void)raddr;
    unexpected("a peer's mapping");
    return NULL;
}

void *sshmem_memfile_map_peer(pid_t pid, int fd, size_t size, const char *what, char *why,
                              size_t why_len)
{
    (void)what;
    (void)why;
    (void)why_len;
    (void)pid;
    (void)fd;
    (void)size;
    unexpected("a peer's global data");
    return NULL;
}

unsigned sshmem_tx_traits(void)
{
    unexpected("the transport's traits");
    return 0;
}

int sshmem_memfile_limit(int err)
{
    (void)err;
    return 0;
}

void sshmem_tx_quiet(struct sshmem_tx *tx)
{
    (void)tx;
    unexpected("a quiet");
}

void sshmem_ucx_fail(const char *call, const char *what, ucs_status_t st)
{
    (void)st;
    unexpected(what);
    fail_msg("%s", call);
    abort();
}

void sshmem_ucx_late_discard(struct sshmem_tx *tx) { (void)tx; }
void sshmem_ucx_staging_release(struct sshmem_tx *tx) { (void)tx; }
