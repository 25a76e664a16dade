/*
 * env.h: every environment variable sshmem reads, in ONE table.
 *
 * Each row: X(field, kind, NAME, OLD_NAME, default, meaning). The table drives parsing
 * (sshmem_env_load), the struct below, and the printout of SHMEM_INFO=1 / oshinfo.
 * OLD_NAME is the SGI-era SMA_* spelling that old programs still set (NULL if none).
 * Kinds: SIZE (byte count with K/M/G suffix), BYTES (the same, 0 allowed), BOOL (0/1,
 * yes/no, true/false, on/off), CHOICE (one of the words listed in the meaning, the first is
 * index 0), UINT, STRING (any text, e.g. a path; the empty default means unset).
 */
#ifndef SSHMEM_ENV_H
#define SSHMEM_ENV_H
#include <stddef.h>

#define SSHMEM_ENV_TABLE(X)                                                                      \
    X(symmetric_size, SIZE, "SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", "256M",                 \
      "bytes of symmetric heap per PE (suffix K, M, G)")                                          \
    X(info, BOOL, "SHMEM_INFO", "SMA_INFO", "0",                                                  \
      "print the library version and settings at start-up (PE 0)")                                \
    X(debug, BOOL, "SHMEM_DEBUG", "SMA_DEBUG", "0",                                               \
      "extra argument checks (also SSHMEM_DEBUG): pSync values, the same sizes to shmem_malloc " \
      "and the same arguments to collectives on every PE; turns hang reports on (60 s)")          \
    X(hang_timeout, UINT, "SSHMEM_HANG_TIMEOUT", NULL, "0",                                       \
      "seconds a barrier, collective, wait or lock may make no progress before sshmem reports "  \
      "where every PE waits and ends the job; 0 = off (60 with SHMEM_DEBUG when unset); also "   \
      "how long start-up's launcher fences and a fetch of a peer's address (60 when unset) may " \
      "wait for the launcher")                                                                    \
    X(local, CHOICE, "SSHMEM_LOCAL", NULL, "direct",                                              \
      "how PEs on one host reach each other: direct (load/store) | ucx (through UCX calls)")    \
    X(spin, UINT, "SSHMEM_SPIN", NULL, "200",                                                     \
      "polls of a wait before it starts yielding the CPU to other processes (0 when the host "   \
      "runs more PEs than it has CPUs, unless set)")                                              \
    X(progress_thread, CHOICE, "SSHMEM_PROGRESS_THREAD", NULL, "auto",                            \
      "a thread serving operations that UCX emulates on this PE while it computes: auto (on "    \
      "when some PE is reached through UCX) | 1 | 0")                                             \
    X(stage_min_runs, UINT, "SSHMEM_STAGE_MIN_RUNS", NULL, "2",                                  \
      "strided and typed puts/gets through UCX with at least this many runs travel packed in "   \
      "messages the target unpacks, not one UCX put per run; 0 = never")                         \
    X(stage_min_runs_shm, UINT, "SSHMEM_STAGE_MIN_RUNS_SHM", NULL, "128",                         \
      "... the same for a heap UCX reaches through shared memory (one-sided puts cost ~20 ns)")  \
    X(stage_mapped, BOOL, "SSHMEM_STAGE_MAPPED", NULL, "1",                                       \
      "non-contiguous transfers to a heap UCX maps through shared memory are one strided copy "  \
      "through UCX's mapping (1), or packed messages like any UCX peer (0)")                    \
    X(stage_max_run, SIZE, "SSHMEM_STAGE_MAX_RUN", NULL, "8K",                                    \
      "... as long as their runs average at most this many bytes (longer runs go as puts)")      \
    X(stage_piece, SIZE, "SSHMEM_STAGE_PIECE", NULL, "256K",                                      \
      "bytes of packed data per staged message (larger transfers go in several)")                \
    X(coll_barrier, CHOICE, "SSHMEM_COLL_BARRIER", NULL, "auto",                                  \
      "barrier/sync algorithm: auto | dissem (dissemination) | flat (all signal all) | hier "  \
      "(node-aware: shared memory in a node, leaders across nodes)")            \
    X(coll_bcast, CHOICE, "SSHMEM_COLL_BCAST", NULL, "auto",                                      \
      "broadcast: auto | linear (shared memory, root writes all) | coop (shared memory, all copy) | binomial | "  \
      "knomial (radix 4) | hier (node-aware)")                                                                        \
    X(coll_reduce, CHOICE, "SSHMEM_COLL_REDUCE", NULL, "auto",                                    \
      "reductions: auto | shm (read all, shared memory; on a team up to 56 bytes one stamped "  \
      "line per PE) | shmrs (reduce-scatter + allgather, shared memory) | rd (recursive "       \
      "doubling) | rsag (reduce-scatter + allgather) | hier (node-aware) | stamp (= shm)")      \
    X(coll_fcollect, CHOICE, "SSHMEM_COLL_FCOLLECT", NULL, "auto",                                \
      "fcollect: auto | linear (all write all) | bruck | ring (= bruck) | hier (node-aware)")     \
    X(coll_exchange, CHOICE, "SSHMEM_COLL_EXCHANGE", NULL, "auto",                                \
      "shmemx gather family: auto (small blocks through the sync area, large ones put "          \
      "straight into dest) | rendezvous (every block straight into dest) | tree (gatherv and "  \
      "scatterv over a binomial tree from 4 PEs on teams not all on shared memory)")             \
    X(coll_messages, BOOL, "SSHMEM_COLL_MESSAGES", NULL, "1",                                    \
      "where UCX emulates one-sided operations (tcp, no RDMA), a collective's data and its "     \
      "signal travel as one message (1) or as a put and an atomic (0)")                          \
    X(coll_hold, BYTES, "SSHMEM_COLL_HOLD", NULL, "8M",                                            \
      "... and a PE keeps up to about this many bytes of such messages from members running "   \
      "calls ahead of it (MPI-style rooted collectives), so they need not wait; 0 = they wait") \
    X(pes_per_node, UINT, "SSHMEM_PES_PER_NODE", NULL, "0",                                       \
      "split each host into nodes of k consecutive PEs (UCX between them); 0 = the real hosts")       \
    X(stream_copy_min, STRING, "SSHMEM_STREAM_COPY_MIN", NULL, "auto",                            \
      "direct-path copies (put, get, collect) of at least this many bytes use streaming "        \
      "(non-temporal) stores: auto (3/4 of this CPU's share of the last-level cache; x86-64) | " \
      "a size | off")                                                                           \
    X(profile, STRING, "SSHMEM_PROFILE", NULL, "",                                                \
      "write a traffic profile at shmem_finalize to PATH.csv, PATH-matrix.csv and PATH.svg "     \
      "(PE 0; see doc/reference.md); unset = off")                                              \
    X(trace, STRING, "SSHMEM_TRACE", NULL, "",                                                    \
      "write a timeline of every OpenSHMEM call at shmem_finalize to PATH.json (Perfetto, "      \
      "chrome://tracing) and PATH-timeline.svg (see doc/reference.md); unset = off")            \
    X(trace_events, UINT, "SSHMEM_TRACE_EVENTS", NULL, "100000",                                  \
      "calls each PE records for SSHMEM_TRACE (32 bytes each); later calls are only counted; "  \
      "0 = the default")                                                                         \
    X(teams_max, UINT, "SSHMEM_TEAMS_MAX", NULL, "32",                                            \
      "split teams a PE may be in at once (1 to 1024); each costs 50 KiB of symmetric memory " \
      "per PE, on top of SHMEM_SYMMETRIC_SIZE")                                                   \
    X(weak, UINT, "SSHMEM_WEAK", NULL, "0",                                                      \
      "weak-ordering mode (oshrun --weak=SEED): puts, signals, non-fetching atomics and _nbi "  \
      "operations land late and out of order, as the memory model allows, in an order the "     \
      "seed picks; 0 = off")                                                                     \
    X(locks_max, UINT, "SSHMEM_LOCKS_MAX", NULL, "256",                                           \
      "locks a PE may hold or wait for at once (1 to 65535); each costs 64 bytes of symmetric "  \
      "memory per PE")

/* The choices of CHOICE variables, index 0 first. */
#define SSHMEM_ENV_CHOICES_local {"direct", "ucx", NULL}
#define SSHMEM_ENV_CHOICES_progress_thread {"auto", "0", "1", NULL}
enum { SSHMEM_PROGRESS_THREAD_AUTO, SSHMEM_PROGRESS_THREAD_OFF, SSHMEM_PROGRESS_THREAD_ON };
/* Collective algorithms (src/coll/algo.h keeps the same order). */
#define SSHMEM_ENV_CHOICES_coll_barrier {"auto", "dissem", "flat", "hier", NULL}
#define SSHMEM_ENV_CHOICES_coll_bcast {"auto", "linear", "coop", "binomial", "knomial", "hier", NULL}
#define SSHMEM_ENV_CHOICES_coll_reduce {"auto", "shm", "shmrs", "rd", "rsag", "hier", "stamp", NULL}
#define SSHMEM_ENV_CHOICES_coll_fcollect {"auto", "linear", "ring", "bruck", "hier", NULL}
#define SSHMEM_ENV_CHOICES_coll_exchange {"auto", "rendezvous", "tree", NULL}

typedef struct sshmem_env {
    size_t symmetric_size;
    int info;
    int debug;
    unsigned hang_timeout; /* seconds; 0: off (see src/sync/hang.c for the SHMEM_DEBUG default) */
    int local; /* 0 direct, 1 ucx */
    unsigned spin;
    int progress_thread; /* SSHMEM_PROGRESS_THREAD_AUTO, _OFF or _ON */
    unsigned stage_min_runs, stage_min_runs_shm; /* 0: never stage (transport/ucx_staging.c) */
    int stage_mapped;
    size_t stage_max_run, stage_piece;
    int coll_barrier, coll_bcast, coll_reduce, coll_fcollect; /* 0 = auto */
    int coll_exchange; /* 0 = auto */
    int coll_messages; /* transport/ucx_put_add.c */
    size_t coll_hold;  /* bytes of early messages a PE holds (coll/engine.c, coll_gate) */
    unsigned pes_per_node; /* 0: node ids from the launcher */
    const char *profile;   /* SSHMEM_PROFILE path prefix, "" when off */
    unsigned teams_max;    /* split-team pool slots (core/space.h) */
    unsigned locks_max;    /* lock queue nodes per PE (core/space.h) */
    unsigned weak;         /* the weak-ordering mode's seed, 0 off (sync/weak.c) */
    const char *stream_copy_min; /* "auto", "off" or a size (core/copy.c parses it) */
    /* SSHMEM_TRACE and SSHMEM_TRACE_EVENTS: checked and printed here; the recorder
     * (src/trace, a library of its own) reads them itself. Last, so that no field the
     * library's paths read moves. */
    const char *trace;
    unsigned trace_events;
} sshmem_env_t;

extern sshmem_env_t sshmem_env;

/* Read every variable; a malformed value is a fatal error naming it and what is accepted. */
void sshmem_env_load(void);
/* Print the table with current values (for SHMEM_INFO and oshinfo). */
void sshmem_env_print(void *file);

#endif
