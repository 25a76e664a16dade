/*
 * regions.h: do the receive regions of a v-collective overlap? Region i is counts[i] elements
 * of a committed type starting displs[i] extents from the origin (MPI forbids writing a
 * receive location twice).
 */
#ifndef SSHMEM_DATATYPE_REGIONS_H
#define SSHMEM_DATATYPE_REGIONS_H
#include <shmemx.h>

/* Runs beyond which only the regions' spans are compared (a type's own overlaps go unseen). */
#define MPIX_OVERLAP_MAX_RUNS (1u << 18)

/*
 * 1 if some byte lies in two regions, with their indices in *a <= *b (equal when one region
 * covers a byte twice) and that byte's offset from the origin in *at; 0 if none; -1 when out
 * of memory for the check.
 */
int mpix_find_overlap(shmemx_datatype_t t, int n, const size_t *counts, const size_t *displs,
                      int *a, int *b, ptrdiff_t *at);

#endif
