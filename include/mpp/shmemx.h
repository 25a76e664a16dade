/* mpp/shmemx.h: the place the OpenSHMEM specification also gives the extensions' header. */
#include <shmemx.h>
