/* mpp/shmem.h: the place the OpenSHMEM specification also gives the library's header. */
#include <shmem.h>
