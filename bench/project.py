#!/usr/bin/env python3
"""bench/project.py: sshmem's collective algorithms projected to many nodes, on paper.

For every collective algorithm of src/coll/ (the node-aware "hier" ones included: shared
memory inside a node, one leader per node across the network, src/coll/hier.h) it computes, as functions of P (PEs) and k (PEs per node, consecutive PEs on a node):

  rounds      communication steps one after the other on the longest path
  x-msgs      messages that cross nodes, whole job, one call (puts and signals each count
              one)
  bytes/PE    bytes the busiest PE sends (to any PE; the rest of the job sends no more)
  time        an estimate in microseconds from six measured constants (see below)

and prints markdown tables (doc/scaling.md shows them and explains each model). The time
of one step is the latency of the path it takes plus the bytes over that path's bandwidth;
a step in which any message crosses nodes costs the network's figures; the PEs of one node
share its network bandwidth when they send across at once. Ignored: contention in the
network and the node's memory system beyond that sharing, the NIC's message rate, the
placement of nodes in the network, OS noise and late arrivals, and the chunking of data
larger than a work buffer. See doc/scaling.md.

Constants (a file of "name value" lines, # comments; --constants FILE, default
bench/constants.txt beside this script; or --set name=value):
  lat_node_us   one signal round between two PEs of one node (direct path):
                barrier_all at 2 PEs
  lat_net_us    one signal round between two nodes: barrier_all at 2 PEs with
                SSHMEM_PES_PER_NODE=1 UCX_TLS=tcp,self
  bw_node_MBps  copy bandwidth on the node: put_bw 1 MiB, direct path
  bw_net_MBps   bandwidth between nodes: put_bw 1 MiB over UCX/TCP
  gap_node_us   time between two 8-byte puts one PE issues on the node (1 / msg_rate)
  gap_net_us    the same between nodes
  combine_MBps  rate at which a PE combines reduction data (default: bw_node_MBps)

  bench/project.py                           # the default grid, constants from the file
  bench/project.py --P 1024,65536 --k 64,128 --counts
  bench/project.py --measure --build _build  # measure the constants here (about 1 minute),
                                             # print them, then the tables
  bench/project.py --small                   # the model at 2..16 PEs, to set beside
                                             # bench/scaling.sh
  bench/project.py --update-doc doc/scaling.md --scaling OUT   # its tables, from the
                                             # constants and a scaling.sh output
Python 3 standard library only. P and k are taken as powers of two (the folding step of
recursive doubling for other counts is not modelled).
"""

import argparse
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# name, symbol in doc/scaling.md, meaning, how --measure takes it
CONSTANTS = [
    ("lat_node_us", "α_s", "one signal round on the node (µs)",
     "`barrier_latency`: `barrier_all` at 2 PEs, direct path"),
    ("lat_net_us", "α_n", "one signal round between nodes (µs)",
     "the same with `SSHMEM_PES_PER_NODE=1 UCX_TLS=tcp,self`"),
    ("bw_node_MBps", "β_s", "copy bandwidth on the node (MB/s)", "`put_bw` 1 MiB, direct path"),
    ("bw_net_MBps", "β_n", "bandwidth between nodes (MB/s)", "`put_bw` 1 MiB over UCX/TCP"),
    ("gap_node_us", "g_s", "between two puts of one PE on the node (µs)",
     "1 / `msg_rate` `putmem_nbi_8B`, direct path"),
    ("gap_net_us", "g_n", "the same between nodes (µs)",
     "1 / `msg_rate` `putmem_nbi_8B` over UCX/TCP"),
]
KEYS = [c[0] for c in CONSTANTS] + ["combine_MBps"]


def lg(x):
    """ceil(log2 x), 0 for x <= 1."""
    return 0 if x <= 1 else math.ceil(math.log2(x))


def log4(x):
    return 0 if x <= 1 else math.ceil(math.log(x, 4) - 1e-9)


class Machine:
    """The constants, in microseconds and bytes per microsecond (= MB/s)."""

    def __init__(self, c):
        self.a_s, self.a_n = c["lat_node_us"], c["lat_net_us"]
        self.b_s, self.b_n = c["bw_node_MBps"], c["bw_net_MBps"]
        self.g_s, self.g_n = c["gap_node_us"], c["gap_net_us"]
        self.comb = c.get("combine_MBps") or c["bw_node_MBps"]

    def step(self, cross, nbytes, nic_bytes=None):
        """One step: latency of its path + bytes over bandwidth; nic_bytes: the bytes one
        node pushes across in this step (its PEs share the node's bandwidth)."""
        if cross:
            load = nbytes if nic_bytes is None else max(nbytes, nic_bytes)
            return self.a_n + load / self.b_n
        return self.a_s + nbytes / self.b_s

    def combine(self, nbytes):
        return nbytes / self.comb


class Result:
    def __init__(self, rounds, xmsgs, bytes_pe, time_us):
        self.rounds, self.xmsgs, self.bytes_pe, self.time_us = rounds, xmsgs, bytes_pe, time_us


# ------------------------------------------------------------------ barriers

def cross_fraction(dist, k):
    """Share of PEs whose partner at distance dist (ring order) is on another node."""
    return 1.0 if dist >= k else dist / k


def barrier_dissem(m, P, k, _n=0):
    # Once P > k every round has PEs whose partner is past a node edge: all rounds wait
    # for the network.
    R = lg(P)
    x = sum(round(P * cross_fraction(1 << j, k)) for j in range(R)) if P > k else 0
    return Result(R, x, R * 8, R * m.step(P > k, 0))


def barrier_flat(m, P, k, _n=0):
    cross = P > k
    t = (m.a_n if cross else m.a_s) + (P - 1) * (m.g_n if cross else m.g_s)
    return Result(1, P * (P - k) if cross else 0, (P - 1) * 8, t)


def barrier_hier(m, P, k, _n=0):
    N = P // k
    gather = m.a_s + (k - 1) * m.g_s    # k - 1 arrivals counted on the leader's flag
    leaders = lg(N) * m.a_n             # dissemination among the N leaders
    release = m.a_s                     # one flag the members poll
    return Result(lg(N) + 2, N * lg(N), lg(N) * 8, gather + leaders + release)


# ------------------------------------------------------------------ broadcasts

def tree_bcast(m, P, k, n, radix):
    """Binomial (radix 2) / k-nomial (radix 4) tree over ranks from the root: arrivals go
    up, data comes down; children at distance >= k are on other nodes."""
    levels = lg(P) if radix == 2 else log4(P)
    N = max(1, P // k)
    t = 0.0
    # Up (signals) and down (data), level by level from the top: distance radix^level.
    # Ranks count from the root, which is taken as its node's first PE: child j * dist is on
    # another node when j * dist >= k.
    for lvl in range(levels):
        dist = radix ** (levels - 1 - lvl)
        any_cross = (radix - 1) * dist >= k and P > k
        t += 2 * (m.a_n if any_cross else m.a_s)
        for j in range(1, radix):
            cross = j * dist >= k and P > k
            t += (m.g_n if cross else m.g_s) + n / (m.b_n if cross else m.b_s)
    x = 3 * (N - 1) if P > k else 0     # an arrival signal up, a put and a signal down
    return Result(2 * levels, x, levels * (radix - 1) * n, t)


def bcast_binomial(m, P, k, n):
    return tree_bcast(m, P, k, n, 2)


def bcast_knomial(m, P, k, n):
    return tree_bcast(m, P, k, n, 4)


def bcast_linear(m, P, k, n):
    cross = P > k
    x_peers = P - k if cross else 0
    put = (k - 1) * (m.g_s + n / m.b_s) + x_peers * (m.g_n + n / m.b_n)
    bar = barrier_dissem(m, P, k)
    return Result(1 + bar.rounds, x_peers + bar.xmsgs, (P - 1) * n,
                  (m.a_n if cross else m.a_s) + put + bar.time_us)


def bcast_coop(m, P, k, n):
    if P > k:
        return None  # shared memory only: every member reads the root's source
    t = 2 * m.a_s + n / m.b_s + m.a_s  # go, every member copies ~n, done, release
    return Result(3, 0, n, t)


def bcast_hier(m, P, k, n):
    N = P // k
    gather = m.a_s + (k - 1) * m.g_s            # arrivals on the node
    up = lg(N) * m.a_n                          # leaders' arrivals up the binomial tree
    down = lg(N) * (m.a_n + n / m.b_n)          # data down the leaders' tree
    copy = m.a_s + n / m.b_s                    # members copy from their leader
    return Result(2 * lg(N) + 2, 3 * (N - 1), lg(N) * n, gather + up + down + copy)


# ------------------------------------------------------------------ reductions

def reduce_shm(m, P, k, n):
    if P > k:
        return None
    bar = barrier_flat(m, P, k) if P <= 4 else barrier_dissem(m, P, k)
    t = n / m.b_s + bar.time_us + P * m.combine(n)
    return Result(bar.rounds, 0, n, t)


def reduce_shmrs(m, P, k, n):
    if P > k:
        return None
    bar = barrier_dissem(m, P, k)
    t = bar.time_us + P * m.combine(n / P) + (P - 1) * (n / P) / m.b_s + m.a_s
    return Result(bar.rounds + 1, 0, n, t)


def reduce_rd(m, P, k, n):
    """Recursive doubling, partner = me XOR 2^e: rounds below k stay on the node; each round
    is a handshake (ready, then data): two latencies."""
    t, x = 0.0, 0
    for e in range(lg(P)):
        cross = (1 << e) >= k and P > k
        t += m.step(cross, n, k * n if cross else None) + (m.a_n if cross else m.a_s)
        t += m.combine(n)
        x += 3 * P if cross else 0          # ready signal, data put, data signal
    return Result(2 * lg(P), x, lg(P) * n, t)


def reduce_rsag(m, P, k, n):
    """Recursive halving (nearest partner first: the big halves stay on the node) then
    recursive doubling back, straight into dest."""
    t, x = 0.0, 0
    L = lg(P)
    for e in range(L):                      # reduce-scatter: round e sends n / 2^(e+1)
        cross = (1 << e) >= k and P > k
        b = n / (2 ** (e + 1))
        t += m.step(cross, b, k * b if cross else None) + (m.a_n if cross else m.a_s)
        t += m.combine(b)
        x += 3 * P if cross else 0          # ready signal, data put, data signal
    for e in reversed(range(L)):            # allgather: the same sizes, reverse order
        cross = (1 << e) >= k and P > k
        b = n / (2 ** (e + 1))
        t += m.step(cross, b, k * b if cross else None)
        x += 2 * P if cross else 0          # put, signal
    return Result(3 * L, x, 2 * n * (1 - 1 / P), t)


def reduce_hier(m, P, k, n):
    """The leader combines its node's k sources (read through shared memory), recursive
    doubling among the N leaders, then the members copy the result from their leader."""
    N = P // k
    node = m.a_s + k * m.combine(n)
    lead = reduce_rd(m, N, 1, n)
    copy = m.a_s + n / m.b_s
    return Result(lead.rounds + 2, lead.xmsgs, lead.bytes_pe, node + lead.time_us + copy)


# ------------------------------------------------------------------ fcollect, collect

def fcollect_linear(m, P, k, n):
    cross = P > k
    x_peers = P - k if cross else 0
    t = (m.a_n if cross else m.a_s) + (k - 1) * (m.g_s + n / m.b_s)
    # the node's k PEs each push n to every PE of the other nodes, through one NIC
    t += x_peers * m.g_n + k * x_peers * n / m.b_n
    return Result(1, 2 * P * x_peers, (P - 1) * n, t)


def fcollect_bruck(m, P, k, n):
    t, x, sent = 0.0, 0, 0
    for j in range(lg(P)):
        d = 1 << j
        blocks = min(d, P - d)
        frac = cross_fraction(d, k) if P > k else 0.0
        crossers = k * frac                    # PEs of one node whose target is elsewhere
        t += m.step(frac > 0, blocks * n, crossers * blocks * n if frac > 0 else None)
        x += 2 * round(P * frac)
        sent += blocks * n
    return Result(lg(P), x, sent, t)


def collect_linear(m, P, k, n):
    """collect: the offsets by recursive doubling of the sizes (values in the flags),
    then as fcollect linear."""
    off = barrier_dissem(m, P, k)
    f = fcollect_linear(m, P, k, n)
    return Result(off.rounds + 1, off.xmsgs + f.xmsgs, f.bytes_pe, off.time_us + f.time_us)


def fcollect_hier(m, P, k, n):
    """The leader copies its node's k blocks from the members' sources; the leaders take
    Bruck's ceil(log2 N) steps over the nodes' runs (step j: min(2^j, N - 2^j) runs of k
    blocks, one put and its signal, across nodes); the members copy the whole P*n result from
    their leader (hier_collect.c)."""
    N = P // k
    gather = m.a_s + k * n / m.b_s
    lead, x, sent = 0.0, 0, 0
    for j in range(lg(N)):
        d = 1 << j
        run = min(d, N - d) * k * n
        lead += m.step(True, run)
        x += 2 * N
        sent += run
    copy = m.a_s + P * n / m.b_s
    return Result(lg(N) + 2, x, sent, gather + lead + copy)


# ------------------------------------------------------------------ alltoall, scans

def alltoall_pairwise(m, P, k, n):
    cross = P > k
    x_peers = P - k if cross else 0
    t = (m.a_n if cross else m.a_s) + (k - 1) * (m.g_s + n / m.b_s)
    t += x_peers * m.g_n + k * x_peers * n / m.b_n
    return Result(1, 2 * P * x_peers, (P - 1) * n, t)


def scan_shm(m, P, k, n):
    if P > k:
        return None
    bar = barrier_dissem(m, P, k)
    return Result(bar.rounds, 0, n, n / m.b_s + bar.time_us + (P - 1) * m.combine(n))


def scan_rd(m, P, k, n):
    """Hillis-Steele: round e, i sends to i + 2^e (ready handshake, data, combine)."""
    t, x = 0.0, 0
    for e in range(lg(P)):
        d = 1 << e
        frac = cross_fraction(d, k) if P > k else 0.0
        t += m.step(frac > 0, n, k * frac * n if frac > 0 else None)
        t += (m.a_n if frac > 0 else m.a_s) + m.combine(n)
        x += 3 * round(P * frac)
    return Result(2 * lg(P), x, lg(P) * n, t)


# ------------------------------------------------------------------ log-step exchanges

SIZE_WORD = 8  # a v-collective's block carries its size (or offset) with it
RECORD_WORD = 4  # a block in the alltoall's Bruck steps travels behind its 4-byte length


def bruck_steps(m, P, k, n, blocks_at):
    """Bruck's steps: in step j every PE sends to the PE 2^j ahead, blocks_at(j) blocks of n
    bytes in one message and its signal. Returns (time, messages across nodes, bytes)."""
    t, x, sent = 0.0, 0, 0
    for j in range(lg(P)):
        d = 1 << j
        b = blocks_at(j, d) * n
        frac = cross_fraction(d, k) if P > k else 0.0
        t += m.step(frac > 0, b, k * frac * b if frac > 0 else None)
        x += 2 * round(P * frac)
        sent += b
    return t, x, sent


def alltoall_bruck(m, P, k, n):
    """Bruck's index algorithm: step j carries the blocks whose distance has bit j set,
    about P/2 of them, so each block travels up to log2(P) times, each behind its length
    (alltoallv's too: its size says its count)."""
    t, x, sent = bruck_steps(m, P, k, n + RECORD_WORD, lambda j, d: P // 2)
    return Result(lg(P), x, sent, t)


def collect_bruck(m, P, k, n):
    """collect: Bruck's concatenation with each block's size beside it."""
    t, x, sent = bruck_steps(m, P, k, n + SIZE_WORD, lambda j, d: min(d, P - d))
    return Result(lg(P), x, sent, t)


alltoallv_bruck = alltoall_bruck


RECORD_HEADER = 4  # an allgatherv record's header: the count and the call number's low bits


def allgatherv_bruck(m, P, k, n):
    """allgatherv where node mates do not share memory: Bruck's steps over all PEs on the
    records (fcollect's steps, each block behind its header and padded to 4 bytes)."""
    return fcollect_bruck(m, P, k, RECORD_HEADER + -(-n // 4) * 4)


def allgatherv_hier(m, P, k, n):
    """allgatherv between nodes of several PEs: fcollect's node-aware steps (hier_collect.c)
    on records, each block behind its header and padded to 4 bytes."""
    return fcollect_hier(m, P, k, RECORD_HEADER + -(-n // 4) * 4)


def rooted_tree(m, P, k, n):
    """scatterv down a binomial tree, gatherv up it: at level j the PEs at odd multiples of
    2^j receive their subtree's 2^j blocks, with sizes, from their parent (gatherv: send them
    to it, the levels in the other order)."""
    t, x = 0.0, 0
    for j in range(lg(P)):
        d = 1 << j
        cross = d >= k and P > k
        b = d * (n + SIZE_WORD)
        t += m.step(cross, b, (k // (2 * d) if d < k else 1) * b if cross else None)
        x += 2 * (P >> (j + 1)) if cross else 0
    return Result(lg(P), x, (P // 2) * (n + SIZE_WORD), t)


def gatherv_linear(m, P, k, n):
    """gatherv: every member puts its block (with its header) straight into the root's dest:
    one round, and P - 1 messages arriving at one PE one after the other."""
    cross = P > k
    t = (m.a_n if cross else m.a_s) + (P - 1) * (m.g_n if cross else m.g_s)
    t += (P - 1) * (n + 2 * SIZE_WORD) / (m.b_n if cross else m.b_s)
    return Result(1, 3 * (P - k) if cross else 0, n + 2 * SIZE_WORD, t)


def bound_gather(m, P, k, n):
    """No log-step algorithm does better: a network latency for each of the log2(P/k)
    rounds between nodes (those inside a node taken as free), and the P - 1 blocks that must
    reach one PE (for allgather every PE; for a rooted call the root) through its link."""
    N = max(1, P // k)
    return Result(lg(P), 0, (P - 1) * n, lg(N) * m.a_n + (P - 1) * n / m.b_n)


def bound_alltoall(m, P, k, n):
    """An alltoall in log2(P) rounds forwards each block about log2(P)/2 times (Bruck et
    al.); at best the rounds inside a node cost nothing, and each of the log2(P/k) rounds
    between nodes moves half of the node's k*P blocks through its link."""
    N = max(1, P // k)
    v = k * (P // 2) * lg(N) * n
    return Result(lg(P), 0, (P // 2) * lg(P) * n, lg(N) * m.a_n + v / m.b_n)


# (collective, size in bytes, [(algorithm, model)]); sizes: per PE (bcast: the data;
# alltoall: per PE pair)
COLLECTIVES = [
    ("barrier", [0], [("dissem", barrier_dissem), ("flat", barrier_flat),
                      ("hier", barrier_hier)]),
    ("broadcast", [8, 1 << 20], [("linear", bcast_linear), ("coop", bcast_coop),
                                 ("binomial", bcast_binomial), ("knomial", bcast_knomial),
                                 ("hier", bcast_hier)]),
    ("reduce", [8, 1 << 20], [("shm", reduce_shm), ("shmrs", reduce_shmrs), ("rd", reduce_rd),
                              ("rsag", reduce_rsag), ("hier", reduce_hier)]),
    ("fcollect", [8, 1024], [("linear", fcollect_linear), ("bruck", fcollect_bruck),
                             ("hier", fcollect_hier),
                             ("log-step bound", bound_gather)]),
    ("collect", [8, 1024], [("linear", collect_linear), ("bruck", collect_bruck),
                            ("log-step bound", bound_gather)]),
    ("alltoall", [8, 1024], [("pairwise", alltoall_pairwise), ("bruck", alltoall_bruck),
                             ("log-step bound", bound_alltoall)]),
    ("scan", [8, 1 << 20], [("shm", scan_shm), ("rd", scan_rd)]),
    ("allgatherv", [8, 1024], [("bruck", allgatherv_bruck), ("hier", allgatherv_hier),
                               ("log-step bound", bound_gather)]),
    ("alltoallv", [8, 1024], [("bruck", alltoallv_bruck), ("log-step bound", bound_alltoall)]),
    ("gatherv", [8, 1024], [("linear", gatherv_linear), ("binomial tree", rooted_tree),
                            ("log-step bound", bound_gather)]),
    ("scatterv", [8, 1024], [("binomial tree", rooted_tree), ("log-step bound", bound_gather)]),
]


def human_bytes(b):
    if b == 0:
        return "-"
    for unit, s in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= s:
            v = b / s
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.3g} {unit}"
    return f"{b:.0f} B"


def human_us(t):
    if t >= 1e6:
        return f"{t / 1e6:.3g} s"
    if t >= 1e3:
        return f"{t / 1e3:.3g} ms"
    return f"{t:.3g} µs"


def human_count(x):
    return f"{x:,}"


def size_label(n):
    return "" if n == 0 else " " + human_bytes(n).replace(" ", " ")


def tables(m, Ps, ks, counts):
    out = []
    grid = [(P, k) for P in Ps for k in ks if k <= P]
    for name, sizes, algos in COLLECTIVES:
        for n in sizes:
            out.append(f"\n**{name}{size_label(n)}**: estimated time per call"
                       + (" (rounds, messages across nodes, bytes sent by the busiest PE)"
                          if counts else "") + "\n")
            head = "| algorithm | " + " | ".join(f"P={P:,} k={k}" for P, k in grid) + " |"
            out.append(head)
            out.append("|---" * (len(grid) + 1) + "|")
            one_node = []
            for aname, f in algos:
                cells = []
                for P, k in grid:
                    r = f(m, P, k, n)
                    if r is None:
                        cells.append("one node only")
                        continue
                    c = human_us(r.time_us)
                    if counts:
                        c += f" ({r.rounds}, {human_count(r.xmsgs)}, {human_bytes(r.bytes_pe)})"
                    cells.append(c)
                if all(c == "one node only" for c in cells):
                    one_node.append(aname)  # a shared-memory algorithm: no row on many nodes
                    continue
                out.append(f"| {aname} | " + " | ".join(cells) + " |")
            if one_node:
                out.append(f"\n({', '.join(one_node)}: one node only)")
    return "\n".join(out)


# ------------------------------------------------------------------ start-up and memory

# Figures of the code, not of the network (test/scale/check-scale.sh measures the memory;
# a card's size is what a PE publishes: its core part and UCX's address and rkeys).
STARTUP = {
    "card_bytes": 262,        # one card on this machine (UCX's shared-memory and TCP addresses)
    "card_bytes_ib": 1024,    # a guess for a node with InfiniBand transports (a longer address)
    "peer_bytes": 16,         # per PE of the job, in every table, for a peer never contacted
    "peer_bytes_before": 138, # the same before issue 33 (peer 40 B, UCX card 56 B, context 42 B)
    "learnt_bytes": 4096,     # per peer contacted: its card, endpoint, rkeys, views (estimate)
}


def startup_rows(Ps, k, st):
    """Start-up bytes each node holds for the cards, collected (as start-up did across hosts
    before, and still does under a launcher that does not name every PE's host) against
    fetched on first contact (what it does now, on one host and across hosts), and the
    memory each PE holds for its peers. A PE meets about 2 log2(P) peers in a barrier and a
    reduction, 2 log2(P/k) of them on other nodes: the node's server holds its own k cards
    and fetches those."""
    rows = ["| P | cards per node, collected (before) | fetched on contact (now) | per PE, "
            "peer tables before | after | + the peers met |", "|---|---|---|---|---|---|"]
    for P in Ps:
        met = 2 * lg(P)
        rows.append("| {:,} | {} | {} | {} | {} | {} |".format(
            P, human_bytes(P * st["card_bytes_ib"]),
            human_bytes(min(P, k + k * 2 * lg(P // k)) * st["card_bytes_ib"]),
            human_bytes(P * st["peer_bytes_before"]), human_bytes(P * st["peer_bytes"]),
            human_bytes(met * st["learnt_bytes"])))
    return "\n".join(rows)


# ------------------------------------------------------------------ constants

def read_constants(path, sets):
    c = {}
    if path and os.path.exists(path):
        for line in open(path):
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:
                c[line[0]] = float(line[1])
    for s in sets:
        key, _, val = s.partition("=")
        c[key] = float(val)
    missing = [k for k in KEYS[:-1] if k not in c]
    if missing:
        sys.exit(f"project.py: constants missing: {', '.join(missing)} "
                 f"(give --constants FILE, --set NAME=VALUE or --measure)")
    return c


def run_bench(build, prog, np, args, env):
    e = dict(os.environ)
    e.update(env)
    cmd = [os.path.join(build, "oshrun"), "-np", str(np),
           os.path.join(build, "bench", prog)] + args
    p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"project.py: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    rows = {}
    for line in p.stdout.splitlines():
        if line.startswith("#") or len(line.split()) < 2:
            continue
        key, val = line.split()[:2]
        rows[key] = float(val)
    return rows


def measure(build, reps):
    """Each constant: the best of reps runs (the two paths alternating), since other work
    on the machine only ever adds time."""
    paths = {"node": {}, "net": {"SSHMEM_PES_PER_NODE": "1", "UCX_TLS": "tcp,self"}}
    got = {key: [] for key in KEYS[:-1]}
    for _ in range(reps):
        for path, env in paths.items():
            bar = run_bench(build, "barrier_latency", 2, [], env)
            got[f"lat_{path}_us"].append(bar["barrier_all"])
            bw = run_bench(build, "put_bw", 2, ["--min-size", "1M", "--max-size", "1M"], env)
            got[f"bw_{path}_MBps"].append(bw[str(1 << 20)])
            rate = run_bench(build, "msg_rate", 2, [], env)
            got[f"gap_{path}_us"].append(1e6 / rate["putmem_nbi_8B"])
    return {key: (max(v) if key.startswith("bw_") else min(v)) for key, v in got.items()}


def write_constants(c, how):
    lines = [f"# constants for bench/project.py, {how}"]
    for key, _sym, meaning, method in CONSTANTS:
        lines.append(f"{key:14s} {c[key]:<10.4g} # {meaning}: {method.replace('`', '')}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ doc/scaling.md

def number(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def constants_table(c):
    rows = ["| symbol | constant (`bench/constants.txt`) | measured here with | value |",
            "|---|---|---|---|"]
    for key, sym, meaning, method in CONSTANTS:
        rows.append(f"| {sym} | `{key}`: {meaning} | {method} | {number(c[key])} |")
    rows.append(f"| γ | `combine_MBps`: combining reduction data (MB/s) | not measured: β_s | "
                f"{number(c.get('combine_MBps') or c['bw_node_MBps'])} |")
    return "\n".join(rows)


def scaling_rows(path):
    """bench/scaling.sh's output: {"k0"|"k<k>": {row: [values at each count]}}."""
    tables, cur = {}, None
    for line in open(path):
        if line.startswith("# coll_latency"):
            m = line.split("SSHMEM_PES_PER_NODE=")
            cur = "k0" if len(m) == 1 else "k" + m[1].split(":")[0]
            tables[cur] = {}
        elif cur and line.strip() and not line.startswith(("#", "op ")):
            f = line.split()
            tables[cur][f[0]] = f[1:]
    return tables


def small_beside_measured(m, path):
    """The model at 2..16 PEs, each cell "model / measured" when a scaling.sh output is given."""
    measured = scaling_rows(path) if path else {}
    out = []
    for k, title in (("one node", "One node"), (2, "Nodes of 2 PEs over UCX/TCP")):
        meas = measured.get("k0" if k == "one node" else "k2", {})
        out.append(f"{title}, µs" + (" (model / measured)" if meas else " (model)") + ":\n")
        for line in tables_small(m, k).splitlines():
            f = [x.strip() for x in line.strip("|").split("|")]
            label = SMALL_ROWS.get(f[0])
            if label and label in meas:
                f[1:] = [f"{a} / {number(float(b))}" for a, b in zip(f[1:], meas[label])]
            out.append("| " + " | ".join(f) + " |")
        out.append("")
    return "\n".join(out).strip()


# Typical of an InfiniBand-class network (an assumption for doc/scaling.md, not a measurement).
RDMA_GUESS = {"lat_net_us": 2.0, "bw_net_MBps": 12000.0, "gap_net_us": 0.01}


# The 8-byte rows that doc/scaling.md sets beside their log-step bound.
LOGSTEP_ROWS = ("fcollect 8 B", "collect 8 B", "alltoall 8 B", "allgatherv 8 B",
                "alltoallv 8 B", "gatherv 8 B", "scatterv 8 B")


def update_doc(path, m, c, scaling, only=None):
    """Replace the text between <!-- project.py NAME --> and <!-- end NAME --> markers (of
    the parts named in only, when given)."""
    text = open(path).read()
    corners = tables(m, [1024, 65536], [64, 128], True).split("\n\n**")
    # The same with a guess at an RDMA network instead of TCP (not measured: RDMA_GUESS).
    rdma = tables(Machine({**c, **RDMA_GUESS}), [1024, 4096, 16384, 65536], [128], False)
    rdma_all = tables(Machine({**c, **RDMA_GUESS}), [1024, 65536], [128], True)
    parts = {
        "rdma": "\n\n**".join(b for b in rdma.split("\n\n**")
                               if b.lstrip("*\n").startswith(("barrier", "broadcast 8 B", "reduce",
                                                               "fcollect"))).strip(),
        "constants": constants_table(c),
        "projection": tables(m, [1024, 4096, 16384, 65536], [64, 128], False).strip(),
        "counts": "\n\n**".join(b for b in corners
                                 if b.lstrip("*\n").startswith(("barrier", "reduce"))).strip(),
        "small": small_beside_measured(m, scaling),
        "startup": startup_rows([1024, 4096, 16384, 65536], 128, STARTUP),
        "logstep": "**" + "\n\n**".join(b for b in rdma_all.split("\n\n**")
                                          if b.lstrip("*\n").startswith(LOGSTEP_ROWS)).strip(),
    }
    for name, body in parts.items():
        if only and name not in only:
            continue
        begin, end = f"<!-- project.py {name} -->", f"<!-- end {name} -->"
        if begin not in text or end not in text:
            sys.exit(f"project.py: {path} has no {begin} ... {end} markers")
        head, rest = text.split(begin, 1)
        text = head + begin + "\n" + body + "\n" + end + rest.split(end, 1)[1]
    open(path, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--constants", default=os.path.join(HERE, "constants.txt"))
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--measure", action="store_true",
                    help="measure the constants with the benchmarks of --build first")
    ap.add_argument("--build", default="_build", help="sshmem build tree (for --measure)")
    ap.add_argument("--reps", type=int, default=3, help="runs per constant (--measure)")
    ap.add_argument("--save", metavar="FILE", help="write the measured constants there")
    ap.add_argument("--P", default="1024,4096,16384,65536", help="PE counts")
    ap.add_argument("--k", default="64,128", help="PEs per node")
    ap.add_argument("--small", action="store_true",
                    help="P = 2,4,8,16 with k = P (one node) and k = 2, as bench/scaling.sh")
    ap.add_argument("--startup", action="store_true",
                    help="the start-up bytes per node and the memory per PE for the peers")
    ap.add_argument("--counts", action="store_true",
                    help="add rounds, messages across nodes and bytes per PE to each cell")
    ap.add_argument("--update-doc", metavar="FILE",
                    help="rewrite the marked tables of FILE (doc/scaling.md)")
    ap.add_argument("--only", metavar="NAMES",
                    help="with --update-doc: only these marked parts (comma-separated), e.g. "
                         "startup,logstep")
    ap.add_argument("--scaling", metavar="OUT",
                    help="with --update-doc: bench/scaling.sh output (--ks \"0 2\") to set "
                         "beside the model at 2..16 PEs")
    a = ap.parse_args()

    if a.measure:
        c = measure(a.build, a.reps)
        text = write_constants(c, f"measured with {a.build} (best of {a.reps} runs each)")
        print(text)
        if a.save:
            open(a.save, "w").write(text)
        c = read_constants(None, [f"{k}={v}" for k, v in c.items()] + a.set)
    else:
        c = read_constants(a.constants, a.set)
    m = Machine(c)
    if a.update_doc:
        update_doc(a.update_doc, m, c, a.scaling, a.only.split(",") if a.only else None)
        return
    print("constants: " + ", ".join(f"{k} {c[k]:g}" for k in KEYS if k in c))
    if a.small:
        for k in ("one node", 2):
            print(f"\n{'One node' if k == 'one node' else 'Nodes of 2 PEs'}, µs:\n")
            print(tables_small(m, k))
        return
    Ps = [int(x) for x in a.P.split(",")]
    ks = [int(x) for x in a.k.split(",")]
    if a.startup:
        print(startup_rows(Ps, ks[-1], STARTUP))
        return
    print(tables(m, Ps, ks, a.counts))


# The rows of tables_small and their names in bench/coll_latency.
SMALL_ROWS = {"barrier_all": "barrier_all", "reduce 8 B": "reduce_float_sum_8B",
              "bcast 8 B": "bcast_8B", "reduce 1 MiB": "reduce_float_sum_1MiB",
              "bcast 1 MiB": "bcast_1MiB", "fcollect 1 MiB": "fcollect_1MiB"}


def tables_small(m, k):
    """The rows of bench/coll_latency at 2..16 PEs with the algorithm auto picks there."""
    rows = []
    Ps = (2, 4, 8, 16)
    rows.append("| row | " + " | ".join(f"np={P}" for P in Ps) + " |")
    rows.append("|---" * (len(Ps) + 1) + "|")
    one = k == "one node"
    picks = [
        ("barrier_all", 0, lambda P: barrier_flat if one and P <= 4 else barrier_dissem),
        ("reduce 8 B", 8, lambda P: reduce_shm if one else reduce_rd),
        ("bcast 8 B", 8, lambda P: bcast_linear if one else (bcast_knomial if P > 4 else bcast_binomial)),
        ("reduce 1 MiB", 1 << 20, lambda P: reduce_shmrs if one else reduce_rsag),
        ("bcast 1 MiB", 1 << 20, lambda P: bcast_coop if one else bcast_binomial),
        ("fcollect 1 MiB", 1 << 20, lambda P: fcollect_linear if one else fcollect_bruck),
    ]
    for label, n, pick in picks:
        cells = []
        for P in Ps:
            kk = P if one else k
            r = pick(P)(m, P, kk, n)
            cells.append("-" if r is None else
                         (f"{r.time_us:,.0f}" if r.time_us >= 100 else f"{r.time_us:.3g}"))
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
