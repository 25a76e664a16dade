/*
 * profile_report.h: the files of the traffic profile, written by PE 0 at shmem_finalize:
 *   PREFIX.csv         one line per PE: pe, puts, put_bytes, gets, get_bytes, atomics,
 *                      atomic_bytes, barrier_seconds, wait_seconds
 *   PREFIX-matrix.csv  bytes from each source PE (line) to each target PE (column)
 *   PREFIX-ops.csv     the same grid, counting operations
 *   PREFIX.svg         a heat map of the byte matrix and the per-PE table, for a browser
 */
#ifndef SSHMEM_PROFILE_REPORT_H
#define SSHMEM_PROFILE_REPORT_H

#include <stddef.h>

#include "core/profile.h"

/* rows: n rows of row_len bytes each (sshmem_profile_row_t with n cells). A file that cannot
 * be written is a warning naming it and the reason. */
void sshmem_profile_write(const char *prefix, const char *rows, size_t row_len, int n);

/* Row pe of a gathered block. */
static inline const sshmem_profile_row_t *sshmem_profile_row_of(const char *rows, size_t row_len,
                                                                int pe)
{
    return (const sshmem_profile_row_t *)(const void *)(rows + (size_t)pe * row_len);
}

#endif
