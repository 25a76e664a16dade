/*
 * kinds.c: the basic kinds (one per predefined type, with its size, alignment and operator
 * category) and the predefined datatype handles, all expanded from the lists of shmemx.h.
 * The pair types take their layout from the C structs shmemx_*_t, padding included.
 */
#include <stddef.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "datatype/datatype.h"

#define PAIR_INDEX_OFF_(L) offsetof(shmemx_##L##_t, index)
/* Value and index touch (no hole between them): the pair's data is one run. */
#define PAIR_ADJACENT_(VT, L) (PAIR_INDEX_OFF_(L) == sizeof(VT))
/* ... and no padding after the index: count pairs are one run. */
#define PAIR_CONTIG_(VT, L) (PAIR_ADJACENT_(VT, L) && sizeof(shmemx_##L##_t) == sizeof(VT) + sizeof(int))

const mpix_kind_info_t mpix_kinds[MPIX_NUM_KINDS] = {
#define BASIC_KIND_(CT, NAME, L, CAT)                                                            \
    [MPIX_KIND_##L] = {"SHMEMX_" #NAME, sizeof(CT), sizeof(CT), _Alignof(CT),                    \
                       MPIX_CAT_##CAT, sizeof(CT), 0},
    SHMEMX_BASIC_TYPES(BASIC_KIND_)
#undef BASIC_KIND_
#define PAIR_KIND_(VT, NAME, L)                                                                  \
    [MPIX_KIND_##L] = {"SHMEMX_" #NAME, sizeof(VT) + sizeof(int), sizeof(shmemx_##L##_t),        \
                       _Alignof(shmemx_##L##_t), MPIX_CAT_PAIR, sizeof(VT), PAIR_INDEX_OFF_(L)},
    SHMEMX_PAIR_TYPES(PAIR_KIND_)
#undef PAIR_KIND_
};

/* A basic type: one item at offset 0, lb 0, extent sizeof; its plan is one run. */
#define BASIC_TYPE_(CT, NAME, L, CAT)                                                            \
    static mpix_seg_t seg_##L = {0, 1, 1, 0, MPIX_KIND_##L};                                     \
    static copy_piece_t piece_##L = {.disp = 0, .run = sizeof(CT), .depth = 0};                 \
    SSHMEM_API struct sshmemx_datatype sshmemx_type_##L = {                                      \
        .magic = MPIX_TYPE_MAGIC,                                                                \
        .flags = MPIX_COMMITTED | MPIX_PREDEFINED | MPIX_CONTIG,                                 \
        .name = "SHMEMX_" #NAME,                                                                 \
        .size = sizeof(CT),                                                                      \
        .align = _Alignof(CT),                                                                   \
        .lb = 0, .ub = sizeof(CT), .true_lb = 0, .true_ub = sizeof(CT),                          \
        .kind = MPIX_KIND_##L,                                                                   \
        .nsegs = 1, .segs = &seg_##L,                                                            \
        .plan = {.npieces = 1, .pieces = &piece_##L, .bytes = sizeof(CT), .extent = sizeof(CT),  \
                 .contiguous = 1},                                                               \
    };
SHMEMX_BASIC_TYPES(BASIC_TYPE_)

/* A pair type: value at 0, index at its offset in the struct, extent sizeof(struct). */
#define PAIR_TYPE_(VT, NAME, L)                                                                  \
    static mpix_seg_t seg_##L = {0, 1, 1, 0, MPIX_KIND_##L};                                     \
    static copy_piece_t pieces_##L[2] = {                                                        \
        {.run = PAIR_ADJACENT_(VT, L) ? sizeof(VT) + sizeof(int) : sizeof(VT)},                  \
        {.disp = PAIR_INDEX_OFF_(L), .run = sizeof(int)},                                        \
    };                                                                                           \
    SSHMEM_API struct sshmemx_datatype sshmemx_type_##L = {                                      \
        .magic = MPIX_TYPE_MAGIC,                                                                \
        .flags = MPIX_COMMITTED | MPIX_PREDEFINED | (PAIR_CONTIG_(VT, L) ? MPIX_CONTIG : 0),      \
        .name = "SHMEMX_" #NAME,                                                                 \
        .size = sizeof(VT) + sizeof(int),                                                        \
        .align = _Alignof(shmemx_##L##_t),                                                       \
        .lb = 0, .ub = sizeof(shmemx_##L##_t),                                                   \
        .true_lb = 0, .true_ub = PAIR_INDEX_OFF_(L) + sizeof(int),                               \
        .kind = MPIX_KIND_##L,                                                                   \
        .nsegs = 1, .segs = &seg_##L,                                                            \
        .plan = {.npieces = PAIR_ADJACENT_(VT, L) ? 1 : 2, .pieces = pieces_##L,                 \
                 .bytes = sizeof(VT) + sizeof(int), .extent = sizeof(shmemx_##L##_t),            \
                 .contiguous = PAIR_CONTIG_(VT, L)},                                             \
    };
SHMEMX_PAIR_TYPES(PAIR_TYPE_)
