/*
 * api_defs.h: how a public routine is defined. Every routine NAME is compiled as pNAME (the
 * profiling interface of the specification) and NAME is a weak alias of it, so a tool can
 * define NAME itself, do its measuring, and call pNAME.
 *
 *   SSHMEM_DEFINE(void, shmem_quiet, (void)) { ... }
 */
#ifndef SSHMEM_API_DEFS_H
#define SSHMEM_API_DEFS_H

#include "core/sshmem.h"

#define SSHMEM_DEFINE(ret, name, params)                                                         \
    extern ret name params __attribute__((weak, alias("p" #name), visibility("default")));     \
    ret p##name params;                                                                          \
    SSHMEM_API ret p##name params

/* Entry checks shared by the API families. */
#define SSHMEM_CTX_OR_DEFAULT(ctx) (ctx)

#endif
