/*
 * errors.c: the program behind test/pe/errors-test.sh. It makes one mistake, named by argv[1],
 * on the last PE; the script checks that the job ends with a message that names the PE, the
 * call and the fix.
 */
#include "check.h"

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "uninit")) {
        static int x;
        shmem_int_p(&x, 1, 0); /* before shmem_init */
        return 0;
    }
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *heap = shmem_malloc(64 * sizeof(int));
    int on_stack[4] = {0};
    shmem_barrier_all();
    if (me == npes - 1) {
        if (!strcmp(what, "bad_pe"))
            shmem_int_p(heap, 1, npes);
        else if (!strcmp(what, "negative_pe"))
            shmem_int_g(heap, -1);
        else if (!strcmp(what, "not_symmetric"))
            shmem_int_put(on_stack, on_stack, 4, 0);
        else if (!strcmp(what, "past_heap"))
            shmem_putmem(heap, on_stack, (size_t)1 << 40, 0);
        else if (!strcmp(what, "atomic_not_symmetric"))
            shmem_long_atomic_inc((long *)on_stack, 0);
        else if (!strcmp(what, "free_bad"))
            shmem_free(on_stack);
        else if (!strcmp(what, "put_null"))
            shmem_putmem(heap, NULL, 8, 0);
        else if (!strcmp(what, "get_null"))
            shmem_getmem(NULL, heap, 8, 0);
        else if (!strcmp(what, "misaligned_amo"))
            shmem_long_atomic_add((long *)((char *)heap + 4), 1, 0);
    }
    if (!strncmp(what, "after_finalize_", 15)) { /* every PE finalizes, the last one goes on */
        static long global;
        shmem_finalize();
        if (me != npes - 1)
            return 0;
        if (!strcmp(what, "after_finalize_put"))
            shmem_putmem(heap, on_stack, sizeof on_stack, 0);
        else if (!strcmp(what, "after_finalize_get"))
            shmem_getmem(on_stack, heap, sizeof on_stack, 0);
        else if (!strcmp(what, "after_finalize_amo"))
            shmem_long_atomic_add((long *)heap, 1, 0);
        else if (!strcmp(what, "after_finalize_global"))
            shmem_long_p(&global, 1, 0);
        else if (!strcmp(what, "after_finalize_malloc"))
            shmem_malloc(8);
        return 0;
    }
    if (!strcmp(what, "exhaust")) {
        void *p = shmem_malloc((size_t)1 << 40);
        if (p != NULL)
            return 1;
        shmem_finalize();
        return 0; /* exhaustion is not fatal: NULL and a message */
    }
    if (!strcmp(what, "free_bad"))
        shmem_free(on_stack); /* every PE: the collective reaches the check */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
