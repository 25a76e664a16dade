/*
 * mpix_signatures_cxx.cc: mpix_signatures.c compiled as C++ (-Wall -Wextra -Werror): shmemx.h
 * is C++-clean and the fixed v-collective signatures bind exactly from C++ as well.
 */
#include "mpix_signatures.c"
