/*
 * active_sets.h: the active sets (PE_start, logPE_stride, PE_size) the collective tests run
 * their routines on, and membership in them. Shared by coll_active.c and coll_to_all.c.
 */
#ifndef SSHMEM_TEST_ACTIVE_SETS_H
#define SSHMEM_TEST_ACTIVE_SETS_H

/* One active set: members start + k * 2^logs, k < size. */
typedef struct {
    int start, logs, size;
} aset_t;

/* The member index of pe in s, or -1 when pe is not in it. */
static inline int aset_member(const aset_t *s, int pe)
{
    int d = pe - s->start, st = 1 << s->logs;
    if (d < 0 || d % st || d / st >= s->size)
        return -1;
    return d / st;
}

/* Up to four sets for npes PEs: all PEs; the even ones; every 4th from PE 1; all but PE 0.
 * Returns how many it wrote to sets[4]. */
static inline int aset_list(aset_t sets[4], int npes)
{
    int n = 0;
    sets[n++] = (aset_t){0, 0, npes};
    if (npes > 2)
        sets[n++] = (aset_t){0, 1, (npes + 1) / 2};
    if (npes > 4)
        sets[n++] = (aset_t){1, 2, (npes - 2) / 4 + 1};
    if (npes > 1)
        sets[n++] = (aset_t){1, 0, npes - 1};
    return n;
}

#endif
