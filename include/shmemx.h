/*
 * shmemx.h: sshmem extensions: the MPI-style layer.
 *
 * Derived datatypes, MINLOC/MAXLOC pair types, user-defined reduction operators, reductions
 * and irregular (v) collectives on teams, built on sshmem's own RMA core. The semantics are
 * those of the MPI standard's chapters on datatypes and collective reductions; the calling
 * conventions are OpenSHMEM's (dest first, teams, symmetric destinations). Guide and
 * examples: doc/mpix.md.
 *
 * Return values: every routine returns SHMEMX_SUCCESS (0) or one of the SHMEMX_ERR_* codes
 * below, after printing a message that names the PE, the call, the argument and the fix.
 * Collectives cannot return an error on one PE while the others wait, so a mistake found
 * inside a collective (say, overlapping receive regions) ends the job with that message.
 *
 * Counts: constructor counts and block lengths are int, as in MPI; byte displacements and
 * strides are ptrdiff_t (MPI_Aint); element counts of the data-moving routines and the per-PE
 * count and displacement arrays of the v-collectives are size_t, as in OpenSHMEM (so no count
 * is limited to 2^31 elements).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ error codes */
#define SHMEMX_SUCCESS      0
#define SHMEMX_ERR_ARG      1 /* a NULL pointer or an argument out of its range */
#define SHMEMX_ERR_COUNT    2 /* a negative (or absurdly large) count or block length */
#define SHMEMX_ERR_TYPE     3 /* an invalid, freed, uncommitted or predefined-where-not-allowed type */
#define SHMEMX_ERR_OP       4 /* an invalid operator, or one not defined on the datatype */
#define SHMEMX_ERR_TRUNCATE 5 /* a pack/unpack buffer too small for the data */
#define SHMEMX_ERR_NO_MEM   6 /* out of local memory */
#define SHMEMX_ERR_TEAM     7 /* an invalid team, or this PE is not a member */
#define SHMEMX_ERR_ROOT     8 /* a root outside the team */
/* A short text for an error code ("SHMEMX_ERR_TYPE: invalid datatype"). */
const char *shmemx_error_string(int code);

/* ------------------------------------------------------------------ datatypes */
typedef struct sshmemx_datatype *shmemx_datatype_t;
#define SHMEMX_DATATYPE_NULL ((shmemx_datatype_t)0)

/*
 * The predefined basic datatypes: X(C type, NAME, short name, category). SHMEMX_NAME is the
 * handle. The category decides which predefined operators apply (as in MPI): INTEGER: SUM,
 * PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR; FLOATING: SUM, PROD, MIN, MAX; COMPLEX:
 * SUM, PROD; LOGICAL: LAND, LOR, LXOR; BYTE: BAND, BOR, BXOR; CHARACTER: none.
 */
#define SHMEMX_BASIC_TYPES(X)                                                                    \
    X(char, CHAR, char, CHARACTER)                                                               \
    X(wchar_t, WCHAR, wchar, CHARACTER)                                                          \
    X(signed char, SIGNED_CHAR, schar, INTEGER)                                                  \
    X(unsigned char, UNSIGNED_CHAR, uchar, INTEGER)                                              \
    X(unsigned char, BYTE, byte, BYTE)                                                           \
    X(short, SHORT, short, INTEGER)                                                              \
    X(unsigned short, UNSIGNED_SHORT, ushort, INTEGER)                                           \
    X(int, INT, int, INTEGER)                                                                    \
    X(unsigned int, UNSIGNED, uint, INTEGER)                                                     \
    X(long, LONG, long, INTEGER)                                                                 \
    X(unsigned long, UNSIGNED_LONG, ulong, INTEGER)                                              \
    X(long long, LONG_LONG, longlong, INTEGER)                                                   \
    X(unsigned long long, UNSIGNED_LONG_LONG, ulonglong, INTEGER)                                \
    X(int8_t, INT8_T, int8, INTEGER)                                                             \
    X(int16_t, INT16_T, int16, INTEGER)                                                          \
    X(int32_t, INT32_T, int32, INTEGER)                                                          \
    X(int64_t, INT64_T, int64, INTEGER)                                                          \
    X(uint8_t, UINT8_T, uint8, INTEGER)                                                          \
    X(uint16_t, UINT16_T, uint16, INTEGER)                                                       \
    X(uint32_t, UINT32_T, uint32, INTEGER)                                                       \
    X(uint64_t, UINT64_T, uint64, INTEGER)                                                       \
    X(size_t, SIZE_T, size, INTEGER)                                                             \
    X(ptrdiff_t, PTRDIFF_T, ptrdiff, INTEGER)                                                    \
    X(float, FLOAT, float, FLOATING)                                                             \
    X(double, DOUBLE, double, FLOATING)                                                          \
    X(long double, LONG_DOUBLE, longdouble, FLOATING)                                            \
    X(_Bool, C_BOOL, bool, LOGICAL)                                                              \
    X(float _Complex, C_FLOAT_COMPLEX, cfloat, COMPLEX)                                          \
    X(double _Complex, C_DOUBLE_COMPLEX, cdouble, COMPLEX)                                       \
    X(long double _Complex, C_LONG_DOUBLE_COMPLEX, clongdouble, COMPLEX)

/*
 * The pair types of MINLOC and MAXLOC: X(value type, NAME, short name). Each is laid out as
 * the C struct { value; int index; } with its padding (the typedefs below), so SHMEMX_DOUBLE_INT
 * has size 12 and extent 16 on x86-64, exactly as MPI_DOUBLE_INT.
 */
#define SHMEMX_PAIR_TYPES(X)                                                                     \
    X(float, FLOAT_INT, float_int)                                                               \
    X(double, DOUBLE_INT, double_int)                                                            \
    X(long, LONG_INT, long_int)                                                                  \
    X(int, 2INT, 2int)                                                                           \
    X(short, SHORT_INT, short_int)                                                               \
    X(long double, LONG_DOUBLE_INT, long_double_int)

#define SHMEMX_DECLARE_PAIR_(VT, NAME, L)                                                        \
    typedef struct {                                                                             \
        VT value;                                                                                \
        int index;                                                                               \
    } shmemx_##L##_t;                                                                            \
    extern struct sshmemx_datatype sshmemx_type_##L;
SHMEMX_PAIR_TYPES(SHMEMX_DECLARE_PAIR_)
#define SHMEMX_DECLARE_BASIC_(CT, NAME, L, CAT) extern struct sshmemx_datatype sshmemx_type_##L;
SHMEMX_BASIC_TYPES(SHMEMX_DECLARE_BASIC_)
#undef SHMEMX_DECLARE_PAIR_
#undef SHMEMX_DECLARE_BASIC_

#define SHMEMX_CHAR                  (&sshmemx_type_char)
#define SHMEMX_WCHAR                 (&sshmemx_type_wchar)
#define SHMEMX_SIGNED_CHAR           (&sshmemx_type_schar)
#define SHMEMX_UNSIGNED_CHAR         (&sshmemx_type_uchar)
#define SHMEMX_BYTE                  (&sshmemx_type_byte)
#define SHMEMX_SHORT                 (&sshmemx_type_short)
#define SHMEMX_UNSIGNED_SHORT        (&sshmemx_type_ushort)
#define SHMEMX_INT                   (&sshmemx_type_int)
#define SHMEMX_UNSIGNED              (&sshmemx_type_uint)
#define SHMEMX_LONG                  (&sshmemx_type_long)
#define SHMEMX_UNSIGNED_LONG         (&sshmemx_type_ulong)
#define SHMEMX_LONG_LONG             (&sshmemx_type_longlong)
#define SHMEMX_UNSIGNED_LONG_LONG    (&sshmemx_type_ulonglong)
#define SHMEMX_INT8_T                (&sshmemx_type_int8)
#define SHMEMX_INT16_T               (&sshmemx_type_int16)
#define SHMEMX_INT32_T               (&sshmemx_type_int32)
#define SHMEMX_INT64_T               (&sshmemx_type_int64)
#define SHMEMX_UINT8_T               (&sshmemx_type_uint8)
#define SHMEMX_UINT16_T              (&sshmemx_type_uint16)
#define SHMEMX_UINT32_T              (&sshmemx_type_uint32)
#define SHMEMX_UINT64_T              (&sshmemx_type_uint64)
#define SHMEMX_SIZE_T                (&sshmemx_type_size)
#define SHMEMX_PTRDIFF_T             (&sshmemx_type_ptrdiff)
#define SHMEMX_FLOAT                 (&sshmemx_type_float)
#define SHMEMX_DOUBLE                (&sshmemx_type_double)
#define SHMEMX_LONG_DOUBLE           (&sshmemx_type_longdouble)
#define SHMEMX_C_BOOL                (&sshmemx_type_bool)
#define SHMEMX_C_FLOAT_COMPLEX       (&sshmemx_type_cfloat)
#define SHMEMX_C_DOUBLE_COMPLEX      (&sshmemx_type_cdouble)
#define SHMEMX_C_LONG_DOUBLE_COMPLEX (&sshmemx_type_clongdouble)
#define SHMEMX_FLOAT_INT             (&sshmemx_type_float_int)
#define SHMEMX_DOUBLE_INT            (&sshmemx_type_double_int)
#define SHMEMX_LONG_INT              (&sshmemx_type_long_int)
#define SHMEMX_2INT                  (&sshmemx_type_2int)
#define SHMEMX_SHORT_INT             (&sshmemx_type_short_int)
#define SHMEMX_LONG_DOUBLE_INT       (&sshmemx_type_long_double_int)
/* MPI's other spellings of the same types. */
#define SHMEMX_UNSIGNED_INT          SHMEMX_UNSIGNED
#define SHMEMX_LONG_LONG_INT         SHMEMX_LONG_LONG
#define SHMEMX_C_COMPLEX             SHMEMX_C_FLOAT_COMPLEX

/*
 * Constructors (MPI_Type_*): the new type is not usable for data until shmemx_type_commit;
 * it can serve as the old type of further constructors right away. Each copies what it needs
 * from the old types, which may be freed afterwards.
 *   contiguous: count copies of old, one after the other (extent apart).
 *   vector:     count blocks of blocklength elements, block starts stride ELEMENTS apart.
 *   hvector:    the same with stride in BYTES (MPI_Type_create_hvector).
 *   indexed:    block i has blocklengths[i] elements at displacements[i] elements.
 *   hindexed:   the same with displacements in bytes (MPI_Type_create_hindexed).
 *   indexed_block / hindexed_block: one block length for every block.
 *   create_struct: block i is blocklengths[i] elements of types[i] at displacements[i] bytes;
 *               its extent is rounded up to the strictest alignment of its members (as C pads
 *               a struct), unless a member was resized.
 *   create_resized: the same data with lower bound lb and extent `extent` (bytes): element i of
 *               a count then starts at i * extent (the way to interleave columns or stride
 *               through an array of structs).
 *   dup:        an independent copy (committed if old was).
 * The extent of a type runs from its lowest to its highest byte (plus struct padding), so a
 * vector's extent ends at its last element, not at the full stride: vector(3, 2, 4, INT) has
 * size 24 and extent 40 on a 4-byte int.
 */
int shmemx_type_contiguous(int count, shmemx_datatype_t oldtype, shmemx_datatype_t *newtype);
int shmemx_type_vector(int count, int blocklength, int stride, shmemx_datatype_t oldtype,
                       shmemx_datatype_t *newtype);
int shmemx_type_create_hvector(int count, int blocklength, ptrdiff_t stride,
                               shmemx_datatype_t oldtype, shmemx_datatype_t *newtype);
int shmemx_type_indexed(int count, const int *blocklengths, const int *displacements,
                        shmemx_datatype_t oldtype, shmemx_datatype_t *newtype);
int shmemx_type_create_hindexed(int count, const int *blocklengths,
                                const ptrdiff_t *displacements, shmemx_datatype_t oldtype,
                                shmemx_datatype_t *newtype);
int shmemx_type_create_indexed_block(int count, int blocklength, const int *displacements,
                                     shmemx_datatype_t oldtype, shmemx_datatype_t *newtype);
int shmemx_type_create_hindexed_block(int count, int blocklength,
                                      const ptrdiff_t *displacements, shmemx_datatype_t oldtype,
                                      shmemx_datatype_t *newtype);
int shmemx_type_create_struct(int count, const int *blocklengths, const ptrdiff_t *displacements,
                              const shmemx_datatype_t *types, shmemx_datatype_t *newtype);
int shmemx_type_create_resized(shmemx_datatype_t oldtype, ptrdiff_t lb, ptrdiff_t extent,
                               shmemx_datatype_t *newtype);
int shmemx_type_dup(shmemx_datatype_t oldtype, shmemx_datatype_t *newtype);
/*
 * create_subarray (MPI_Type_create_subarray): the block subsizes[0] x .. x subsizes[ndims-1]
 * starting at index starts[] of an array sizes[0] x .. x sizes[ndims-1] of oldtype elements
 * (each subsize 1..size, start 0..size - subsize). order says how the array lies in memory:
 * SHMEMX_ORDER_C, the last index fastest (C arrays); SHMEMX_ORDER_FORTRAN, the first index
 * fastest. The type's lb is 0 and its extent the whole array, so the origin to pass is the
 * array's first element (not the block's), and a halo face or interior tile of a stencil grid
 * is one type: e.g. the east column of an ny x nx C grid is
 *     shmemx_type_create_subarray(2, (int[]){ny, nx}, (int[]){ny, 1}, (int[]){0, nx - 1},
 *                                 SHMEMX_ORDER_C, SHMEMX_DOUBLE, &east);
 */
#define SHMEMX_ORDER_C       56
#define SHMEMX_ORDER_FORTRAN 57
int shmemx_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                                const int starts[], int order, shmemx_datatype_t oldtype,
                                shmemx_datatype_t *newtype);
/* The short names of the issue text. */
#define shmemx_type_hvector  shmemx_type_create_hvector
#define shmemx_type_hindexed shmemx_type_create_hindexed

/* Make a type usable for data (pack, RMA, collectives); a no-op on committed types. */
int shmemx_type_commit(shmemx_datatype_t *type);
/* Release a derived type and set *type to SHMEMX_DATATYPE_NULL; predefined types refuse. */
int shmemx_type_free(shmemx_datatype_t *type);

/* Bytes of data in one element (padding and gaps not counted). */
int shmemx_type_size(shmemx_datatype_t type, size_t *size);
/* Lower bound and extent: element i of a count starts at i * extent bytes. */
int shmemx_type_get_extent(shmemx_datatype_t type, ptrdiff_t *lb, ptrdiff_t *extent);
/* Where the data really lies: the first data byte and the span to the last one. */
int shmemx_type_get_true_extent(shmemx_datatype_t type, ptrdiff_t *true_lb,
                                ptrdiff_t *true_extent);

/*
 * Pack incount elements of type from inbuf into outbuf (outsize bytes) at *position, and
 * advance *position by the bytes written; unpack is the inverse. Packed data is the data bytes
 * in type-map order without gaps (pack_size bytes for incount elements).
 */
int shmemx_pack(const void *inbuf, size_t incount, shmemx_datatype_t type, void *outbuf,
                size_t outsize, size_t *position);
int shmemx_unpack(const void *inbuf, size_t insize, size_t *position, void *outbuf,
                  size_t outcount, shmemx_datatype_t type);
int shmemx_pack_size(size_t incount, shmemx_datatype_t type, size_t *size);

/*
 * Typed RMA: count elements of type move between source and dest with the SAME layout on
 * both sides (a column of a matrix lands as a column). dest (put) / source (get) is the
 * remote side and must be symmetric; the local side may be any memory. Contiguous types move
 * as one transfer, others block by block without a bounce buffer. The blocking forms return
 * when the local buffer may be reused (put) or holds the data (get); the _nbi forms complete
 * at the next shmem_quiet.
 */
int shmemx_put_type(void *dest, const void *source, size_t count, shmemx_datatype_t type, int pe);
int shmemx_get_type(void *dest, const void *source, size_t count, shmemx_datatype_t type, int pe);
int shmemx_put_type_nbi(void *dest, const void *source, size_t count, shmemx_datatype_t type,
                        int pe);
int shmemx_get_type_nbi(void *dest, const void *source, size_t count, shmemx_datatype_t type,
                        int pe);
int shmemx_ctx_put_type(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                        shmemx_datatype_t type, int pe);
int shmemx_ctx_get_type(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                        shmemx_datatype_t type, int pe);
int shmemx_ctx_put_type_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                            shmemx_datatype_t type, int pe);
int shmemx_ctx_get_type_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                            shmemx_datatype_t type, int pe);

/* ------------------------------------------------------------------ operators */
typedef struct sshmemx_op *shmemx_op_t;
#define SHMEMX_OP_NULL ((shmemx_op_t)0)

/* X(NAME, short name): the predefined operators; SHMEMX_NAME is the handle. */
#define SHMEMX_PREDEFINED_OPS(X)                                                                 \
    X(SUM, sum) X(PROD, prod) X(MIN, min) X(MAX, max) X(LAND, land) X(BAND, band) X(LOR, lor)    \
    X(BOR, bor) X(LXOR, lxor) X(BXOR, bxor) X(MINLOC, minloc) X(MAXLOC, maxloc)
#define SHMEMX_DECLARE_OP_(NAME, L) extern struct sshmemx_op sshmemx_op_##L;
SHMEMX_PREDEFINED_OPS(SHMEMX_DECLARE_OP_)
#undef SHMEMX_DECLARE_OP_
#define SHMEMX_SUM    (&sshmemx_op_sum)
#define SHMEMX_PROD   (&sshmemx_op_prod)
#define SHMEMX_MIN    (&sshmemx_op_min)
#define SHMEMX_MAX    (&sshmemx_op_max)
#define SHMEMX_LAND   (&sshmemx_op_land)
#define SHMEMX_BAND   (&sshmemx_op_band)
#define SHMEMX_LOR    (&sshmemx_op_lor)
#define SHMEMX_BOR    (&sshmemx_op_bor)
#define SHMEMX_LXOR   (&sshmemx_op_lxor)
#define SHMEMX_BXOR   (&sshmemx_op_bxor)
#define SHMEMX_MINLOC (&sshmemx_op_minloc)
#define SHMEMX_MAXLOC (&sshmemx_op_maxloc)

/*
 * MINLOC/MAXLOC work on the pair types: (u,i) MAXLOC (v,j) = (max(u,v), k) with k = i if
 * u > v, min(i,j) if u == v, j if u < v (MINLOC likewise with min): the first extreme wins.
 * The logical operators give 0 or 1.
 *
 * A user operator: fn(invec, inoutvec, len, datatype) must set inoutvec[i] = invec[i] o
 * inoutvec[i] for the *len elements of *datatype (laid out with its extent). It may be called
 * several times on consecutive chunks of a reduction. A non-commutative operator (commute = 0)
 * is applied in ascending PE order: the result is x0 o x1 o ... o x(n-1), with x0 from the
 * team's PE 0; it must be associative. A commutative one may be applied in any order.
 */
typedef void shmemx_user_function(void *invec, void *inoutvec, int *len,
                                  shmemx_datatype_t *datatype);
int shmemx_op_create(shmemx_user_function *fn, int commute, shmemx_op_t *op);
/* Release a user operator and set *op to SHMEMX_OP_NULL; predefined operators refuse. */
int shmemx_op_free(shmemx_op_t *op);
int shmemx_op_commutative(shmemx_op_t op, int *commute);
/* inoutbuf[i] = inbuf[i] o inoutbuf[i] for count elements, locally (MPI_Reduce_local). */
int shmemx_reduce_local(const void *inbuf, void *inoutbuf, size_t count, shmemx_datatype_t type,
                        shmemx_op_t op);

/*
 * ------------------------------------------------------------------ collectives on a team
 * Every member of the team calls the routine, in the same order as its other collectives on
 * that team, with the same count, type, op and root. dest and source hold count elements of
 * type laid out with its extent. A routine returns when this PE's part is complete: its
 * source may be reused and its dest holds the result. One thread of a PE at a time may be
 * inside a shmemx collective on one team (as with OpenSHMEM collectives); under
 * SHMEM_THREAD_MULTIPLE, reductions and scans on different teams may run in different threads
 * at once.
 *
 * Reductions (reduce, allreduce, scan, exscan) run on the same engine, algorithms and operator
 * table as shmem_TYPE_OP_reduce. source and dest may be any local memory:
 *   - symmetric (shmem_malloc, globals): the reduction works on them directly, the fast case.
 *     Then every PE passes symmetric buffers at the same place (the same objects, as for
 *     shmem_TYPE_OP_reduce): a PE passing local memory where another passes symmetric memory
 *     is a mistake the library cannot see;
 *   - other memory, or a type with gaps: the data goes in pieces through the team's own
 *     symmetric staging buffer (slower for large counts).
 * source == dest is allowed, and so is SHMEMX_IN_PLACE as source (the input is in dest, the
 * result replaces it); for reduce only the root may pass it (as MPI_Reduce), and only the
 * root's dest is used (other PEs may pass NULL). Derived types work with every operator: a
 * predefined operator applies to each basic element of the type (each must be of a type the
 * operator accepts), a user operator to whole elements.
 *   reduce:    dest on root = x0 o x1 o ... o x(n-1); dest of other PEs is not touched.
 *   allreduce: that result on every PE.
 *   scan:      dest on PE i = x0 o ... o xi.
 *   exscan:    dest on PE i = x0 o ... o x(i-1); dest on PE 0 is not touched.
 */
/*
 * SHMEMX_IN_PLACE (MPI_IN_PLACE): pass it as source of reduce, allreduce, scan and exscan to
 * take the input from dest and overwrite it with the result; as source of gather/gatherv on the
 * root and of allgather/allgatherv on every PE (the PE's own block is already in place in
 * dest); as dest of scatter/scatterv on the root (the root's block stays in source).
 */
#define SHMEMX_IN_PLACE ((void *)1)

int shmemx_reduce(shmem_team_t team, void *dest, const void *source, size_t count,
                  shmemx_datatype_t type, shmemx_op_t op, int root);
int shmemx_allreduce(shmem_team_t team, void *dest, const void *source, size_t count,
                     shmemx_datatype_t type, shmemx_op_t op);
int shmemx_scan(shmem_team_t team, void *dest, const void *source, size_t count,
                shmemx_datatype_t type, shmemx_op_t op);
int shmemx_exscan(shmem_team_t team, void *dest, const void *source, size_t count,
                  shmemx_datatype_t type, shmemx_op_t op);

/*
 * Irregular collectives. PE numbers, roots and array indices are team indices. Data lands in
 * the destination with the type's layout: element block of PE i starts at dest + displs[i] *
 * extent(type). Receive regions must not overlap (no byte written twice): that is an error.
 * The destination is written only while its owner is inside the call (as in MPI).
 *
 *   gatherv:    root receives sendcount elements from each PE i at dest + displs[i]*extent;
 *               recvcounts[i] must equal PE i's sendcount (counts may be zero).
 *               dest: SYMMETRIC on the root (others write into it; non-roots' dest is not
 *               used and may be NULL); source: any local memory;
 *               recvcounts, displs: local arrays, read on the root only (may be NULL elsewhere).
 *   scatterv:   PE i receives recvcount elements from the root's source + displs[i]*extent.
 *               dest: SYMMETRIC on every PE but the root (the root writes into them; its own
 *               dest may be any memory); source: any local memory on the root (ignored
 *               elsewhere); sendcounts, displs: local arrays, read on the root only.
 *   allgatherv: every PE receives every PE's block as in gatherv.
 *               dest: SYMMETRIC; source: any local memory; recvcounts, displs: local arrays,
 *               the same on every PE.
 *   alltoallv:  PE i sends sendcounts[j] elements from source + sdispls[j]*extent to PE j,
 *               which receives them at dest + rdispls[i]*extent (its own rdispls);
 *               sendcounts[j] on PE i must equal recvcounts[i] on PE j. The receive side
 *               (dest, recvcounts, rdispls) comes before the send side (source, sendcounts,
 *               sdispls), as dest comes before source everywhere in OpenSHMEM.
 *               dest: SYMMETRIC; source: any local memory; all four arrays local.
 *   gather, scatter, allgather, alltoall: the regular forms (count elements per PE, PE i's block
 *               at i * count elements), with the same rules for dest and source.
 */
int shmemx_gatherv(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                   const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type, int root);
int shmemx_scatterv(shmem_team_t team, void *dest, const void *source, const size_t sendcounts[],
                    const size_t displs[], size_t recvcount, shmemx_datatype_t type, int root);
int shmemx_allgatherv(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                      const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type);
int shmemx_alltoallv(shmem_team_t team, void *dest, const size_t recvcounts[], const size_t rdispls[],
                     const void *source, const size_t sendcounts[], const size_t sdispls[], shmemx_datatype_t type);
int shmemx_gather(shmem_team_t team, void *dest, const void *source, size_t count,
                  shmemx_datatype_t type, int root);
int shmemx_scatter(shmem_team_t team, void *dest, const void *source, size_t count,
                   shmemx_datatype_t type, int root);
int shmemx_allgather(shmem_team_t team, void *dest, const void *source, size_t count,
                     shmemx_datatype_t type);
int shmemx_alltoall(shmem_team_t team, void *dest, const void *source, size_t count,
                    shmemx_datatype_t type);

/* ------------------------------------------------------------------ counting messages */
/* How many messages this PE has handed to the network layer (UCX) since shmem_init: each
 * put, get, atomic and active message, the library's own (collectives, locks, signals)
 * included. Loads and stores to on-node peers on the direct path are not messages; with
 * SSHMEM_LOCAL=ucx every transfer is one. Read it before and after a call to see what the
 * call sends (doc/scaling.md). */
uint64_t shmemx_messages_sent(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
