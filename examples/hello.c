/*
 * hello.c: the first OpenSHMEM program. Every PE
 *   - allocates a symmetric buffer and puts its number into its right neighbour's buffer,
 *   - reads a global (static) variable of its left neighbour,
 *   - adds one, atomically, to a counter on PE 0;
 * then PE 0 checks and prints the result.
 *
 *   oshcc hello.c -o hello && oshrun -np 4 ./hello
 */
#include <shmem.h>
#include <stdio.h>

static long counter;    /* global: symmetric, every PE has one at the same address */
static int my_square;   /* global, set before the barrier, read by a neighbour */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    int *from_left = shmem_malloc(sizeof *from_left); /* symmetric heap */
    my_square = me * me;
    shmem_barrier_all();

    shmem_int_p(from_left, me, right);                  /* put into the right neighbour */
    int left_square = shmem_int_g(&my_square, left);    /* read a global of the left one */
    shmem_long_atomic_inc(&counter, 0);                 /* atomic increment on PE 0 */
    shmem_barrier_all();

    int ok = *from_left == left && left_square == left * left;
    int all_ok = shmem_int_atomic_fetch_add((int *)from_left, 0, me) == left && ok;
    if (!all_ok)
        printf("PE %d: wrong values: got %d from the left (expected %d), square %d (expected %d)\n",
               me, *from_left, left, left_square, left * left);
    shmem_barrier_all();
    if (me == 0)
        printf("Hello from %d PEs: counter on PE 0 = %ld (expected %d): %s\n", npes, counter, npes,
               counter == npes && all_ok ? "OK" : "WRONG");
    shmem_free(from_left);
    shmem_finalize();
    return counter == npes || me != 0 ? !all_ok : 1;
}
