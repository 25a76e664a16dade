/*
 * space.h: the library's internal symmetric space: its parts and their layout (types only).
 *
 * Every PE's heap begins with the library's own symmetric memory (the user's
 * SHMEM_SYMMETRIC_SIZE comes after it, all of it the user's). Its parts are below; each is
 * sized by the job (PE count) and the settings (SSHMEM_TEAMS_MAX, SSHMEM_LOCKS_MAX,
 * SHMEM_DEBUG, SSHMEM_PROFILE). The plan that sizes them knows every owner, so it sits at the
 * top, beside start-up (api/space_layout.h); the heap keeps the layout and hands each owner
 * its part (heap/heap.h).
 *
 * Nothing here grows with the PE count times the teams: team state is a fixed size per
 * team (it holds the collectives' sync areas and flags and the per-team staging buffer of
 * the shmemx reductions); only the two optional tools (SHMEM_DEBUG's mailboxes,
 * SSHMEM_PROFILE's row) hold a few bytes per PE, once, and stop at a bound (see the table in
 * doc/reference.md). What is not here: the per-peer tables and the atomic-operand rings of
 * the transport are private memory, not symmetric.
 */
#ifndef SSHMEM_SPACE_H
#define SSHMEM_SPACE_H
#include <stddef.h>

/* Every part starts at a multiple of this (a cache line: no false sharing between parts). */
#define SSHMEM_SPACE_ALIGN 64
/* The space is a whole number of pages. */
#define SSHMEM_SPACE_PAGE 4096

/* The bounds of the two settings (a split reduces two bitmaps of the pool's slots in half of
 * a parent's 512-byte scratch; a lock node's name keeps 16 bits for the slot). */
#define SSHMEM_TEAMS_MAX_LIMIT 1024
#define SSHMEM_LOCKS_MAX_LIMIT 65535

typedef enum sshmem_space_part {
    SSHMEM_SPACE_TEAMS_PREDEFINED, /* state of SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED */
    SSHMEM_SPACE_TEAM_POOL,        /* one state per split team alive at once (SSHMEM_TEAMS_MAX) */
    SSHMEM_SPACE_LOCKS,            /* MCS queue nodes, one per lock held (SSHMEM_LOCKS_MAX) */
    SSHMEM_SPACE_HANG,             /* this PE's hang-report record */
    SSHMEM_SPACE_PROFILE,          /* SSHMEM_PROFILE: this PE's row (a cell per target PE) */
    SSHMEM_SPACE_DEBUG_FLAGS,      /* SHMEM_DEBUG: two flags per PE */
    SSHMEM_SPACE_DEBUG_MAILBOX,    /* SHMEM_DEBUG: one argument descriptor per PE */
    SSHMEM_SPACE_PARTS
} sshmem_space_part_t;

/* What the layout depends on. */
typedef struct sshmem_space_settings {
    long n_pes;
    long teams_max; /* SSHMEM_TEAMS_MAX */
    long locks_max; /* SSHMEM_LOCKS_MAX */
    int debug;      /* SHMEM_DEBUG */
    int profile;    /* SSHMEM_PROFILE set */
} sshmem_space_settings_t;

typedef struct sshmem_space_region {
    size_t offset; /* from the start of the heap; a multiple of SSHMEM_SPACE_ALIGN */
    size_t size;   /* 0: the part is not used in this job */
} sshmem_space_region_t;

typedef struct sshmem_space_layout {
    sshmem_space_region_t part[SSHMEM_SPACE_PARTS];
    size_t total; /* bytes, a multiple of SSHMEM_SPACE_PAGE */
} sshmem_space_layout_t;

/* Largest job (SHMEM_DEBUG's and SSHMEM_PROFILE's per-PE parts stop there: beyond, the tool
 * warns and stays off). */
#define SSHMEM_SPACE_DEBUG_MAX_PES 65536
#define SSHMEM_SPACE_PROFILE_MAX_PES 16383
/* Bytes of one PE's SHMEM_DEBUG argument descriptor (the checks assert theirs fits). */
#define SSHMEM_SPACE_DEBUG_DESC_BYTES 128

#endif
