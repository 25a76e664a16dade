/* shmemx.h: sshmem extensions (the MPI-style layer comes with issue 5). */
#ifndef SHMEMX_H
#define SHMEMX_H
#include <shmem.h>
#endif
