/*
 * shmem_generic.h: part of shmem.h: the C11 _Generic forms of the generic routines
 * (shmem_put, shmem_atomic_fetch_add, ...), generated from shmem_typetable.h.
 * Only for C11 and later; C++ and C99 programs use the typed names.
 */
#ifndef SHMEM_GENERIC_H
#define SHMEM_GENERIC_H
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

/* issue 3 */

#endif
#endif
