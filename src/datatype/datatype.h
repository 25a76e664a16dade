/*
 * datatype.h: how a datatype is represented inside the MPI-style layer.
 *
 * A type describes ONE element. Its data is a list of segments in type-map order; a segment
 * is `reps` blocks, `stride` bytes apart, each block holding `n` consecutive items of one
 * basic kind (items sit at the kind's extent from each other). Constructors append shifted
 * copies of their old types' segments and merge what lines up, so a vector of a basic type
 * is one segment whatever its count. The segments serve the operators (they know the kinds).
 *
 * commit compiles the segments into a copy plan (core/copy_plan.h): merged contiguous runs in
 * nested constant-stride loops, so a vector of doubles is one strided loop and a vector of
 * vectors two. Everything that moves data runs the plan: pack, unpack, copies, typed RMA. A
 * contiguous type (its data one run of `size` bytes at true_lb and extent == size) moves
 * count elements as one run.
 *
 * Bounds follow MPI: lb/ub from the lowest/highest byte of every copy (using the old type's
 * lb/ub), a struct's extent rounded up to its strictest alignment; a resized type's lb/ub are
 * sticky markers that override the data in later constructors. true_lb/true_ub ignore markers.
 */
#ifndef SSHMEM_DATATYPE_DATATYPE_H
#define SSHMEM_DATATYPE_DATATYPE_H

#include <stddef.h>
#include <stdint.h>
#include <shmemx.h>

#include "core/copy_plan.h"
#include "core/abi.h"

/* The basic kinds: one per predefined basic or pair type. */
enum mpix_kind {
#define MPIX_KIND_ENUM_(CT, NAME, L, CAT) MPIX_KIND_##L,
    SHMEMX_BASIC_TYPES(MPIX_KIND_ENUM_)
#undef MPIX_KIND_ENUM_
#define MPIX_KIND_ENUM_(VT, NAME, L) MPIX_KIND_##L,
    SHMEMX_PAIR_TYPES(MPIX_KIND_ENUM_)
#undef MPIX_KIND_ENUM_
    MPIX_NUM_KINDS
};

/* Which predefined operators a kind accepts (see shmemx.h). */
enum mpix_category {
    MPIX_CAT_INTEGER,
    MPIX_CAT_FLOATING,
    MPIX_CAT_COMPLEX,
    MPIX_CAT_LOGICAL,
    MPIX_CAT_BYTE,
    MPIX_CAT_CHARACTER,
    MPIX_CAT_PAIR,
};

typedef struct mpix_kind_info {
    const char *name;       /* "SHMEMX_DOUBLE_INT" */
    size_t size;            /* data bytes of one item (a pair: value + index) */
    size_t extent;          /* bytes from one item to the next in memory (sizeof) */
    size_t align;           /* alignment in memory */
    enum mpix_category category;
    size_t value_size;      /* pairs: bytes of the value; else size */
    size_t index_offset;    /* pairs: offset of the int index in memory */
} mpix_kind_info_t;

extern const mpix_kind_info_t mpix_kinds[MPIX_NUM_KINDS];

typedef struct mpix_seg {
    ptrdiff_t disp;   /* byte offset of the first item from the element's origin */
    size_t n;         /* items per block */
    size_t reps;      /* blocks */
    ptrdiff_t stride; /* bytes between block starts */
    int kind;
} mpix_seg_t;

#define MPIX_TYPE_MAGIC 0x7d47a1e5u

enum mpix_type_flags {
    MPIX_COMMITTED = 1,
    MPIX_PREDEFINED = 2,
    MPIX_STICKY_LB = 4, /* lb set by create_resized: it wins over the data in constructors */
    MPIX_STICKY_UB = 8,
    MPIX_CONTIG = 16,   /* committed and plan.contiguous: data one run of size bytes at true_lb,
                           extent == size */
};

struct sshmemx_datatype {
    union { /* one fixed size for the life of the soname: core/abi.h */
        struct {
            unsigned magic; /* MPIX_TYPE_MAGIC while valid; cleared by free */
            unsigned flags;
            const char *name;
            size_t size;  /* data bytes of one element */
            size_t align; /* strictest alignment of the basic items (for struct padding) */
            ptrdiff_t lb, ub, true_lb, true_ub;
            int kind;     /* the one kind of all the data, or -1 (mixed or no data) */
            size_t nsegs;
            mpix_seg_t *segs;
            copy_plan_t plan; /* after commit (its pieces are the type's own) */
        };
        unsigned char abi_size[SSHMEM_ABI_DATATYPE_BYTES];
    };
};
_Static_assert(sizeof(struct sshmemx_datatype) == SSHMEM_ABI_DATATYPE_BYTES,
               "struct sshmemx_datatype outgrew its fixed size (core/abi.h)");

static inline ptrdiff_t mpix_extent(shmemx_datatype_t t) { return t->ub - t->lb; }

/* Check a type argument: valid handle, and committed when `committed` is set. Reports the
 * mistake (naming call and argument) and returns its code, or SHMEMX_SUCCESS. */
int mpix_type_check(shmemx_datatype_t t, const char *call, const char *arg, int committed);
/* A count of elements that can be real (not a negative int converted to size_t). */
int mpix_count_check(size_t count, const char *call, const char *arg);
/* The same, and count elements of t fit in memory: their data bytes and their byte span
 * (count - 1 extents plus the true bounds) do not overflow. For every call that moves data. */
int mpix_elems_check(shmemx_datatype_t t, size_t count, const char *call, const char *arg);

/* "SHMEMX_INT" or "a derived datatype", for messages. */
const char *mpix_type_name(shmemx_datatype_t t);

/* The bytes [lo, hi) relative to the origin that count elements of t may touch (data only). */
void mpix_span(shmemx_datatype_t t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi);

/* Unchecked data movement of count committed elements (origin = where element 0 starts):
 * the type's plan run by copy_plan_pack/unpack/copy. */
void mpix_pack_elems(const void *origin, size_t count, shmemx_datatype_t t, void *out);
void mpix_unpack_elems(const void *in, size_t count, shmemx_datatype_t t, void *origin);
void mpix_copy_elems(void *dst_origin, const void *src_origin, size_t count,
                     shmemx_datatype_t t);

#endif
