/*
 * team_math.h: the arithmetic of teams, as pure functions (unit-tested without a launcher).
 *
 * Every team of OpenSHMEM is an arithmetic progression of PEs: SHMEM_TEAM_WORLD is
 * (0, 1, n_pes), a strided split of a progression is a progression, and so are the rows and
 * columns of a 2-D split. A team is kept as its triplet in world numbering: member i is world
 * PE start + i * stride. Splits are described relative to the parent and composed here.
 */
#ifndef SSHMEM_TEAM_MATH_H
#define SSHMEM_TEAM_MATH_H

typedef struct sshmem_triplet {
    int start;  /* world PE of member 0 */
    int stride; /* world distance between members i and i+1 (may be negative; 1 when size is 1) */
    int size;   /* number of members, at least 1 */
} sshmem_triplet_t;

/* World PE of member i (0 <= i < t->size). */
static inline int sshmem_triplet_pe(const sshmem_triplet_t *t, int i)
{
    return t->start + i * t->stride;
}

/* Member index of world PE pe in t, or -1 if pe is not a member. */
int sshmem_triplet_index(const sshmem_triplet_t *t, int pe);

/* Is (start, stride, size) a valid shmem_team_split_strided triplet of a parent of
 * parent_size members? Members start + i*stride (0 <= i < size) must all lie in
 * [0, parent_size); size >= 1; stride 0 only with size 1. 0 if valid, else -1. */
int sshmem_split_valid(int parent_size, int start, int stride, int size);

/* The world triplet of the split (start, stride, size) of parent (already validated). */
sshmem_triplet_t sshmem_split_compose(const sshmem_triplet_t *parent, int start, int stride,
                                      int size);

/* shmem_team_split_2d of a parent of n members with xrange columns, for the member with
 * parent index me: its x-axis team (the row: same y) and its y-axis team (the column: same
 * x), both relative to the parent. -1 if xrange < 1, else 0. */
int sshmem_split_2d(int n, int xrange, int me, sshmem_triplet_t *xteam, sshmem_triplet_t *yteam);

/* shmem_team_translate_pe: the index in dst of member src_pe of src, or -1. */
int sshmem_triplet_translate(const sshmem_triplet_t *src, int src_pe, const sshmem_triplet_t *dst);

/* If the n sorted, distinct PEs of list form an arithmetic progression, store it in *t and
 * return 0; else -1. (Used for SHMEM_TEAM_SHARED, which comes from a set of PEs.) */
int sshmem_triplet_from_list(const int *list, int n, sshmem_triplet_t *t);

#endif
