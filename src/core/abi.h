/*
 * abi.h: fixed sizes for the structs whose objects programs reach by name: SHMEM_TEAM_WORLD
 * and SHMEM_TEAM_SHARED (struct sshmem_team), SHMEM_CTX_DEFAULT (struct sshmem_ctx), the
 * predefined SHMEMX_ datatypes and operators (struct sshmemx_datatype, struct sshmemx_op).
 *
 * Why: a program built as a position-independent executable (gcc's default) that takes the
 * address of such an object gets its own copy of it at load time (a copy relocation), as
 * many bytes as the object had when the program was linked, and the library then uses that
 * copy. If the struct grew in a later libsshmem.so.0, the library would write past the copy
 * of every program built before: silent memory corruption, of which the dynamic linker only
 * warns ("Symbol `sshmem_team_world' has different size in shared object"). Swapping builds
 * of the library under one benchmark binary (LD_LIBRARY_PATH) hit exactly that.
 *
 * So each such struct is a union of its fields and a byte array of the size below: the
 * exported objects keep that size for the life of the soname, and a struct whose fields
 * outgrow it fails to compile (the static assertions next to each struct). Growing past a
 * size means a new soname.
 */
#ifndef SSHMEM_ABI_H
#define SSHMEM_ABI_H

#define SSHMEM_ABI_TEAM_BYTES 2048     /* struct sshmem_team (about 640 used) */
#define SSHMEM_ABI_CTX_BYTES 128       /* struct sshmem_ctx (32 used) */
#define SSHMEM_ABI_DATATYPE_BYTES 512  /* struct sshmemx_datatype (128 used) */
#define SSHMEM_ABI_OP_BYTES 128        /* struct sshmemx_op (32 used) */

#endif
