/*
 * globals.c: global and static variables are symmetric: puts, gets and atomics to them
 * reach every PE (initialised data and bss, arrays and scalars).
 */
#include "check.h"

#define N 4096
long data_array[N] = {1, 2, 3}; /* .data */
static int bss_array[N];        /* .bss */
static double scalar;
static long counter;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    CHECK(data_array[0] == 1 && data_array[2] == 3, "initialised data survived shmem_init");

    int src[N];
    for (int i = 0; i < N; i++)
        src[i] = me * N + i;
    shmem_barrier_all();
    shmem_int_put(bss_array, src, N, right);
    shmem_double_p(&scalar, me + 0.25, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        CHECK(bss_array[i] == left * N + i, "bss_array[%d] = %d", i, bss_array[i]);
    CHECK(scalar == left + 0.25, "scalar = %g", scalar);

    long got[N];
    for (int i = 0; i < N; i++)
        data_array[i] = (long)me * 1000000 + i;
    shmem_barrier_all();
    shmem_long_get(got, data_array, N, left);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == (long)left * 1000000 + i, "get of data_array[%d] = %ld", i, got[i]);
    CHECK(shmem_double_g(&scalar, left) == (me + npes - 2 + npes) % npes + 0.25,
          "g of scalar = %g", shmem_double_g(&scalar, left));

    for (int pe = 0; pe < npes; pe++)
        shmem_long_atomic_fetch_add(&counter, me + 1, pe);
    shmem_barrier_all();
    CHECK_EQ_LONG(counter, (long)npes * (npes + 1) / 2, "global counter");
    CHECK(shmem_addr_accessible(&counter, right), "shmem_addr_accessible(global)");
    CHECK(shmem_addr_accessible(bss_array, left), "shmem_addr_accessible(bss)");
    int on_stack;
    CHECK(!shmem_addr_accessible(&on_stack, right), "a stack variable is not accessible");
    /* shmem_ptr of a global: a direct pointer on-node (unless SSHMEM_LOCAL=ucx), else NULL;
     * SSHMEM_PES_PER_NODE=k makes each k consecutive PEs a node of their own. */
    long *p = shmem_ptr(&counter, right);
    const char *local = getenv("SSHMEM_LOCAL"), *k_env = getenv("SSHMEM_PES_PER_NODE");
    int k = k_env ? atoi(k_env) : 0;
    if (local && !strcmp(local, "ucx"))
        CHECK(p == NULL || right == me, "shmem_ptr under SSHMEM_LOCAL=ucx");
    else if (k > 0 && right / k != me / k)
        CHECK(p == NULL, "shmem_ptr to a PE of another SSHMEM_PES_PER_NODE group");
    else
        CHECK(p && *p == counter, "shmem_ptr to a global gives the peer's value");
    return check_finish();
}
