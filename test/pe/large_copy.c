/*
 * large_copy.c: puts, gets, put-with-signal, collect and fcollect of every size the direct
 * path's copy treats differently (src/core/copy.h: memcpy below the streaming threshold,
 * non-temporal stores from it on, with a head and a tail of ordinary stores off the cache-line
 * grid), checked byte by byte on every PE:
 *  - sizes 1 B .. 16 MiB + 1: every size up to 130, each power of two to 1 MiB with its
 *    neighbours, 2, 4 and 8 MiB + 1, 12 and 16 MiB with their neighbours, and the run's
 *    threshold (SSHMEM_STREAM_COPY_MIN) with its neighbours (over TCP up to 1 MiB + 1);
 *  - source and destination starts off the line grid (offsets 0, 1, 7, 63), so ends are too;
 *  - the bytes just before and after every destination stay untouched;
 *  - streamed data is visible where the completion rules say, with no other synchronization
 *    (with the threshold at 256 B, 400 rounds of short streamed copies: without the store
 *    fence of the streaming copy this fails every run here):
 *    after a put-with-signal once the signal is seen, after put + fence + flag and put_nbi +
 *    quiet + flag once the flag is seen, after a barrier (the put rows).
 * The default run streams from 3/4 of a CPU's share of the last-level cache (12 MiB on this
 * machine, 32 MiB shared by 2 CPUs: 12 MiB and its neighbours are in the list); the forced runs put the threshold at the floor (256 B: almost every copy streams) and
 * at odd sizes, so the collectives stream too.
 *
 * sshmem-test: np=1 2 3 4
 * sshmem-test-env: np=1,2,3,4 paths=direct SSHMEM_STREAM_COPY_MIN=256
 * sshmem-test-env: np=3 paths=direct SSHMEM_STREAM_COPY_MIN=4097
 * sshmem-test-env: np=2,4 paths=direct,ucx SSHMEM_STREAM_COPY_MIN=1M
 * sshmem-test-env: np=2 paths=direct SSHMEM_STREAM_COPY_MIN=off
 */
#include <stdint.h>
#include <sys/types.h>

#include "check.h"

#define GUARD 64           /* bytes checked untouched on each side of a destination */
#define MAX_SIZE ((16 << 20) + 1)
#define MAX_OFF 63
#define GUARD_BYTE 0xA5

static int me, npes, right, left;
static unsigned char *sym_src, *sym_dst; /* symmetric: MAX_SIZE + 2 * GUARD + MAX_OFF */
static unsigned char *priv;              /* private get destination, the same size */
static uint64_t *sig;                    /* put-with-signal target */
static long *flag;                       /* fence/quiet flag */
static long signal_value;                 /* the last signal or flag value sent */
static size_t threshold;                 /* SSHMEM_STREAM_COPY_MIN when a size, else 0 */

/* Byte i of the transfer identified by seed: a misplaced byte, line or page shows. */
static inline unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)(i * 131u + (i >> 8) * 7u + (i >> 16) * 3u + seed);
}

static unsigned seed_of(int pe, size_t size, int so, int dof, int kind)
{
    return (unsigned)(pe * 37 + size * 13 + so * 5 + dof * 11 + kind * 101);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(i, seed);
}

/* Check buf[at .. at+n) holds the pattern and the GUARD bytes on both sides are untouched. */
static void expect(const unsigned char *buf, size_t at, size_t n, unsigned seed,
                   const char *what, size_t size, int so, int dof)
{
    size_t lo = at >= GUARD ? at - GUARD : 0;
    for (size_t i = lo; i < at; i++)
        if (buf[i] != GUARD_BYTE) {
            CHECK(0, "%s size %zu offsets %d/%d: byte %zd before the data was overwritten",
                  what, size, so, dof, (ssize_t)i - (ssize_t)at);
            return;
        }
    for (size_t i = 0; i < n; i++)
        if (buf[at + i] != pattern(i, seed)) {
            CHECK(0, "%s size %zu offsets %d/%d: byte %zu is %u, expected %u", what, size, so,
                  dof, i, buf[at + i], pattern(i, seed));
            return;
        }
    for (size_t i = 0; i < GUARD; i++)
        if (buf[at + n + i] != GUARD_BYTE) {
            CHECK(0, "%s size %zu offsets %d/%d: byte %zu after the data was overwritten", what,
                  size, so, dof, i);
            return;
        }
}

/* One put and one get of size bytes, source at offset so, destination at GUARD + dof. */
static void put_get(size_t size, int so, int dof)
{
    const size_t at = GUARD + (size_t)dof;
    memset(sym_dst, GUARD_BYTE, at + size + GUARD);
    fill(sym_src + so, size, seed_of(me, size, so, dof, 0));
    shmem_barrier_all();
    shmem_putmem(sym_dst + at, sym_src + so, size, right);
    shmem_barrier_all();
    expect(sym_dst, at, size, seed_of(left, size, so, dof, 0), "put", size, so, dof);

    /* Get right's source (not changed until the next barrier) into private memory. */
    memset(priv, GUARD_BYTE, at + size + GUARD);
    shmem_getmem(priv + at, sym_src + so, size, right);
    expect(priv, at, size, seed_of(right, size, so, dof, 0), "get", size, so, dof);
    shmem_barrier_all();
}

/* Streamed data must be visible once the signal (or the flag after fence/quiet) is. */
static void ordering(size_t size, int so, int dof, long round)
{
    const size_t at = GUARD + (size_t)dof;
    const char *what[] = {"put_signal", "put+fence+flag", "put_nbi+quiet+flag"};
    for (int kind = 0; kind < 3; kind++) {
        memset(sym_dst, GUARD_BYTE, at + size + GUARD);
        fill(sym_src + so, size, seed_of(me, size, so, dof, kind + 1) + (unsigned)round);
        shmem_barrier_all();
        long v = ++signal_value; /* never the value of an earlier signal or flag */
        if (kind == 0) {
            shmem_putmem_signal(sym_dst + at, sym_src + so, size, sig, (uint64_t)v,
                                SHMEM_SIGNAL_SET, right);
            shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)v);
        } else {
            if (kind == 1) {
                shmem_putmem(sym_dst + at, sym_src + so, size, right);
                shmem_fence();
            } else {
                shmem_putmem_nbi(sym_dst + at, sym_src + so, size, right);
                shmem_quiet();
            }
            shmem_long_p(flag, v, right);
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, v);
        }
        expect(sym_dst, at, size, seed_of(left, size, so, dof, kind + 1) + (unsigned)round,
               what[kind], size, so, dof);
        shmem_barrier_all();
    }
}

/* fcollect (size bytes each) and collect (size + member index bytes each: blocks start and
 * end off the line grid), source at offset so, destination at GUARD + dof. */
static void collects(unsigned char *dst, size_t size, int so, int dof)
{
    const size_t at = GUARD + (size_t)dof;
    for (int variable = 0; variable < 2; variable++) {
        size_t mine = size + (variable ? (size_t)me : 0), total = 0;
        for (int pe = 0; pe < npes; pe++)
            total += size + (variable ? (size_t)pe : 0);
        memset(dst, GUARD_BYTE, at + total + GUARD);
        fill(sym_src + so, mine, seed_of(me, size, so, dof, 10 + variable));
        shmem_barrier_all();
        int rc = variable ? shmem_collectmem(SHMEM_TEAM_WORLD, dst + at, sym_src + so, mine)
                          : shmem_fcollectmem(SHMEM_TEAM_WORLD, dst + at, sym_src + so, mine);
        CHECK(rc == 0, "%s returned %d", variable ? "collectmem" : "fcollectmem", rc);
        /* Block by block; the guard checks of the inner blocks see the next block's start,
         * so check the guards of the whole range, and each block's data. */
        size_t pos = at;
        for (int pe = 0; pe < npes; pe++) {
            size_t n = size + (variable ? (size_t)pe : 0);
            unsigned seed = seed_of(pe, size, so, dof, 10 + variable);
            for (size_t i = 0; i < n; i++)
                if (dst[pos + i] != pattern(i, seed)) {
                    CHECK(0, "%s size %zu offsets %d/%d: block of PE %d, byte %zu is %u, "
                          "expected %u", variable ? "collect" : "fcollect", size, so, dof, pe, i,
                          dst[pos + i], pattern(i, seed));
                    break;
                }
            pos += n;
        }
        for (size_t i = 0; i < GUARD; i++) {
            CHECK(dst[at - GUARD + i] == GUARD_BYTE, "collect size %zu: byte before overwritten",
                  size);
            CHECK(dst[pos + i] == GUARD_BYTE, "collect size %zu: byte after overwritten", size);
        }
        shmem_barrier_all();
    }
}

/* The offset pairs (source, destination) tried for a size. */
static const int offs[][2] = {{0, 0}, {7, 63}, {1, 0}, {0, 1}, {63, 7}};

/* Sizes up to 1 MiB + 1 with every offset pair; beyond, one pair per size (each byte costs
 * time, and the offsets matter only at the two ends). Over TCP nothing beyond 1 MiB + 1: the
 * sizes there exercise UCX, not the copy. */
static size_t max_size;
static void put_get_sizes(size_t size, int pair)
{
    if (size < 1 || size > max_size)
        return;
    if (size > (1u << 20) + 1) {
        put_get(size, offs[pair % 5][0], offs[pair % 5][1]);
        return;
    }
    for (int o = 0; o < 5; o++)
        put_get(size, offs[o][0], offs[o][1]);
}

static size_t parse_threshold(void)
{
    const char *v = getenv("SSHMEM_STREAM_COPY_MIN");
    char *end;
    if (!v || *v < '0' || *v > '9')
        return 0;
    size_t n = strtoull(v, &end, 10);
    if (*end == 'K' || *end == 'k')
        n <<= 10;
    else if (*end == 'M' || *end == 'm')
        n <<= 20;
    return n;
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    threshold = parse_threshold();

    const size_t span = MAX_SIZE + 2 * GUARD + MAX_OFF;
    sym_src = shmem_malloc(span);
    sym_dst = shmem_malloc(span);
    sig = shmem_calloc(1, sizeof *sig);
    flag = shmem_calloc(1, sizeof *flag);
    priv = malloc(span);
    if (!sym_src || !sym_dst || !sig || !flag || !priv) {
        fprintf(stderr, "PE %d: out of memory\n", me);
        return 1;
    }

    /* Every size up to 130 (heads and tails of every length around a line), then the powers
     * of two and their neighbours, then the threshold and its neighbours. */
    for (size_t s = 1; s <= 130; s++)
        put_get(s, offs[s % 5][0], offs[s % 5][1]);
    max_size = on_tcp() ? (1u << 20) + 1 : MAX_SIZE;
    for (size_t p = 256; p <= (1u << 20); p <<= 1)
        for (size_t s = p - 1; s <= p + 1; s++)
            put_get_sizes(s, 0);
    put_get_sizes((2u << 20) + 1, 1);
    put_get_sizes((4u << 20) + 1, 1);
    put_get_sizes((8u << 20) + 1, 1);
    for (int d = -1; d <= 1; d++) { /* 12 MiB: the default threshold here */
        put_get_sizes((12u << 20) + (size_t)d, d + 1);
        put_get_sizes((16u << 20) + (size_t)d, d + 2);
    }
    if (threshold)
        for (int d = -1; d <= 1; d++)
            put_get_sizes(threshold + (size_t)d, d + 1);

    /* Visibility after the completion rules, below and above the threshold. */
    size_t big = threshold && threshold + 65 < max_size ? threshold + 65 : max_size;
    for (long round = 0; round < 3; round++) {
        ordering(big, offs[round % 5][0], offs[round % 5][1], round);
        ordering(4096 + 1, 7, 63, round);
    }
    /* Many short streamed copies: a store fence missing shows in some of them. */
    for (long round = 3; threshold && threshold < 8192 && round < 400; round++)
        ordering(threshold + 65 + (size_t)(round % 64), offs[round % 5][0], offs[round % 5][1],
                 round);

    /* Collectives: a destination of npes blocks of up to the largest size tried. */
    size_t csizes[] = {1, 63, 4097, (1u << 20) + 1, threshold - 1, threshold, threshold + 1};
    size_t ncs = threshold ? 7 : 4;
    size_t cmax = 0;
    for (size_t i = 0; i < ncs; i++)
        cmax = csizes[i] > cmax ? csizes[i] : cmax;
    unsigned char *cdst = shmem_malloc((cmax + (size_t)npes) * (size_t)npes + 2 * GUARD + MAX_OFF);
    CHECK(cdst != NULL, "shmem_malloc of the collect destination");
    if (cdst)
        for (size_t i = 0; i < ncs; i++)
            for (int o = 0; o < 2; o++)
                collects(cdst, csizes[i], offs[o][0], offs[o][1]);

    shmem_free(cdst);
    shmem_free(flag);
    shmem_free(sig);
    shmem_free(sym_dst);
    shmem_free(sym_src);
    free(priv);
    return check_finish();
}
