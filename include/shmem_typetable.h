/*
 * shmem_typetable.h: the ONE table of the OpenSHMEM typed API.
 *
 * Every typed routine (shmem_TYPE_put, shmem_ctx_TYPE_atomic_fetch_add, ...) is declared in
 * shmem.h and defined in the library by expanding these lists with a macro X(TYPE, TYPENAME).
 * Adding a type to a list adds every routine of that family for it; nothing is written out
 * by hand. The lists follow the tables of the OpenSHMEM 1.6 specification.
 */
#ifndef SHMEM_TYPETABLE_H
#define SHMEM_TYPETABLE_H

/* Basic C types that are distinct for C11 _Generic (fixed-width types alias some of these). */
#define SHMEM_GENERIC_RMA_TYPES(X)                                                        \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)            \
    X(signed char, schar) X(short, short) X(int, int) X(long, long)                       \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)              \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)

/* Fixed-width and other typedef'd types of the standard RMA table. */
#define SHMEM_FIXED_RMA_TYPES(X)                                                          \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)                 \
    X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)         \
    X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Table "Standard RMA Types and Names". */
#define SHMEM_RMA_TYPES(X) SHMEM_GENERIC_RMA_TYPES(X) SHMEM_FIXED_RMA_TYPES(X)

/* Sized RMA routines: shmem_put8 .. shmem_put128 (X(bits, bytes)). */
#define SHMEM_RMA_SIZES(X) X(8, 1) X(16, 2) X(32, 4) X(64, 8) X(128, 16)

/* Table "Standard AMO Types and Names". */
#define SHMEM_GENERIC_STD_AMO_TYPES(X)                                                    \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                \
    X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define SHMEM_FIXED_STD_AMO_TYPES(X)                                                      \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)           \
    X(size_t, size) X(ptrdiff_t, ptrdiff)
#define SHMEM_STD_AMO_TYPES(X) SHMEM_GENERIC_STD_AMO_TYPES(X) SHMEM_FIXED_STD_AMO_TYPES(X)

/* Table "Extended AMO Types and Names": fetch, set, swap also work on these. */
#define SHMEM_GENERIC_EXT_AMO_TYPES(X) X(float, float) X(double, double) SHMEM_GENERIC_STD_AMO_TYPES(X)
#define SHMEM_EXT_AMO_TYPES(X) X(float, float) X(double, double) SHMEM_STD_AMO_TYPES(X)

/* Table "Bitwise AMO Types and Names". The signed int32_t and int64_t are distinct from the
 * unsigned basic types on every platform, so the generic list names them too. */
#define SHMEM_GENERIC_BITWISE_AMO_TYPES(X)                                                \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)        \
    X(int32_t, int32) X(int64_t, int64)
#define SHMEM_BITWISE_AMO_TYPES(X)                                                        \
    SHMEM_GENERIC_BITWISE_AMO_TYPES(X) X(uint32_t, uint32) X(uint64_t, uint64)

/* Table "Point-to-Point Synchronization Types and Names". */
#define SHMEM_GENERIC_SYNC_TYPES(X)                                                       \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                      \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)               \
    X(unsigned long long, ulonglong)
#define SHMEM_SYNC_TYPES(X)                                                               \
    SHMEM_GENERIC_SYNC_TYPES(X)                                                           \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)           \
    X(size_t, size) X(ptrdiff_t, ptrdiff)

/* ------------------------------------------------------------------ reductions and scans */
/* Complex types (C99 _Complex; C++ compilers of the GNU family accept the same spelling).
 * SHMEM_HAVE_COMPLEX is 0 where they cannot be declared; the complex routines are then
 * left out of the declarations (the library always defines them). */
#if !defined(__cplusplus) || defined(__GNUC__) || defined(__clang__)
#define SHMEM_HAVE_COMPLEX 1
#define SHMEM_COMPLEX_TYPES(X) X(float _Complex, complexf) X(double _Complex, complexd)
#else
#define SHMEM_HAVE_COMPLEX 0
#define SHMEM_COMPLEX_TYPES(X)
#endif

/* Table "Team Reduction Types, Names, and Supporting Operations" (team-based reduce). */
/* AND, OR, XOR: the unsigned types and the fixed-width ones of the table, plus the signed
 * basic types of the active-set table (shmem_int_and_reduce, ...). */
#define SHMEM_BASIC_REDUCE_BITWISE_TYPES(X)                                               \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)               \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(short, short) X(int, int)  \
    X(long, long) X(long long, longlong)
/* The C11 selection: the basic types, and int8_t, the one fixed-width type of the table that
 * is none of them (it is signed char, distinct from char and unsigned char). */
#define SHMEM_GENERIC_REDUCE_BITWISE_TYPES(X) SHMEM_BASIC_REDUCE_BITWISE_TYPES(X) X(int8_t, int8)
#define SHMEM_REDUCE_BITWISE_TYPES(X)                                                     \
    SHMEM_BASIC_REDUCE_BITWISE_TYPES(X)                                                   \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)                 \
    X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)         \
    X(size_t, size)
/* MIN, MAX: every standard RMA type. */
#define SHMEM_GENERIC_REDUCE_MINMAX_TYPES(X) SHMEM_GENERIC_RMA_TYPES(X)
#define SHMEM_REDUCE_MINMAX_TYPES(X) SHMEM_RMA_TYPES(X)
/* SUM, PROD, and the scans (sum_inscan, sum_exscan): the RMA types and the complex types. */
#define SHMEM_GENERIC_REDUCE_ARITH_TYPES(X) SHMEM_GENERIC_RMA_TYPES(X) SHMEM_COMPLEX_TYPES(X)
#define SHMEM_REDUCE_ARITH_TYPES(X) SHMEM_RMA_TYPES(X) SHMEM_COMPLEX_TYPES(X)

/* Table "Reduction Types, Names, and Supporting Operations" of the active-set forms
 * (shmem_TYPE_OP_to_all, deprecated). */
#define SHMEM_TO_ALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SHMEM_TO_ALL_MINMAX_TYPES(X)                                                      \
    SHMEM_TO_ALL_BITWISE_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define SHMEM_TO_ALL_ARITH_TYPES(X) SHMEM_TO_ALL_MINMAX_TYPES(X) SHMEM_COMPLEX_TYPES(X)

/* The reduction operators, by the kind of types they apply to: X(op). */
#define SHMEM_REDUCE_BITWISE_OPS(X) X(and) X(or) X(xor)
#define SHMEM_REDUCE_MINMAX_OPS(X) X(min) X(max)
#define SHMEM_REDUCE_ARITH_OPS(X) X(sum) X(prod)

#endif /* SHMEM_TYPETABLE_H */
