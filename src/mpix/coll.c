/* coll.c: entry checks of the shmemx collectives (see coll.h). */
#include <stdint.h>
#include <shmemx.h>

#include "core/error.h"
#include "mpix/coll.h"
#include "team/team.h"
#include "datatype/regions.h"
#include "datatype/report.h"

struct sshmem_team *mpix_team_get(shmem_team_t team, const char *call)
{
    return sshmem_team_check(team, call);
}

const struct sshmem_team *mpix_coll_enter(shmem_team_t team, shmemx_datatype_t type,
                                          size_t count, const char *count_arg, const char *call)
{
    const struct sshmem_team *t = sshmem_team_check(team, call);
    if (SSHMEM_LIKELY(type && type->magic == MPIX_TYPE_MAGIC && (type->flags & MPIX_COMMITTED) &&
                      count <= (size_t)PTRDIFF_MAX))
        return t; /* the common case, without the reporting machinery (thread-local state) */
    mpix_errors_fatal(1);
    mpix_type_check(type, call, "type", 1);
    mpix_count_check(count, call, count_arg);
    mpix_errors_fatal(0);
    return t;
}

void mpix_check_root(const struct sshmem_team *t, int root, const char *call)
{
    if (root < 0 || root >= t->pes.size)
        sshmem_fatal(call, "root is %d, but the team has %d PEs (0 to %d); root is an index in "
                     "the team", root, t->pes.size, t->pes.size - 1);
}

void mpix_check_buf(const void *buf, size_t count, shmemx_datatype_t type, const char *arg,
                    const char *call)
{
    if (!buf && count && type->size)
        sshmem_fatal(call, "%s is NULL but %zu elements of %s go there", arg, count,
                     mpix_type_name(type));
}

void mpix_check_symmetric(const void *dest, const char *call)
{
    size_t off;
    if (dest && sshmem_region_of(dest, 1, &off) < 0)
        sshmem_fatal(call, "dest (%p) is not symmetric: other PEs write into it, so it must come "
                     "from shmem_malloc or be a global or static variable (the same one on every "
                     "PE)", dest);
}

void mpix_check_counts(const size_t *counts, int n, const char *arg, const char *call)
{
    if (!counts)
        sshmem_fatal(call, "%s is NULL; pass an array of %d values, one per PE of the team", arg,
                     n);
    for (int i = 0; i < n; i++)
        if (counts[i] > (size_t)PTRDIFF_MAX)
            sshmem_fatal(call, "%s[%d] is %zu, which cannot be real: was a negative number "
                         "stored in the size_t array?", arg, i, counts[i]);
}

void mpix_check_overlap(shmemx_datatype_t type, int n, const size_t *counts, const size_t *displs,
                        const char *counts_arg, const char *displs_arg, const char *call)
{
    mpix_check_counts(displs, n, displs_arg, call);
    int a, b;
    ptrdiff_t at;
    int found = mpix_find_overlap(type, n, counts, displs, &a, &b, &at);
    if (found < 0)
        sshmem_fatal(call, "out of memory checking the receive regions");
    if (found && a == b)
        sshmem_fatal(call, "the receive region of PE %d (%s[%d] = %zu elements at %s[%d] = %zu) "
                     "writes the byte at offset %td of dest twice: its datatype's elements "
                     "overlap; every receive location may be written once", a, counts_arg, a,
                     counts[a], displs_arg, a, displs[a], at);
    if (found)
        sshmem_fatal(call, "the receive regions of PE %d (%s[%d] = %zu at %s[%d] = %zu) and PE %d "
                     "(%zu at %zu) overlap at byte %td of dest; every receive location may be "
                     "written once: check %s", a, counts_arg, a, counts[a], displs_arg, a,
                     displs[a], b, counts[b], displs[b], at, displs_arg);
}

void mpix_count_mismatch(const char *call, const char *mine, size_t my_count, int partner,
                         const char *theirs, long long their_count)
{
    sshmem_fatal(call, "%s is %zu on this PE, but PE %d has %s = %lld for it; the counts of a "
                 "sender and its receiver must agree", mine, my_count, partner, theirs,
                 their_count);
}
