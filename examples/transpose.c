/*
 * transpose.c: transpose a matrix distributed by rows, with one all-to-all.
 *
 * What it teaches
 *   - a block-row distribution: the N x N matrix A (N = B * npes) is cut into horizontal
 *     strips of B rows, strip p on PE p;
 *   - shmem_double_alltoall(team, dest, source, nelems): PE p's source holds npes blocks of
 *     nelems; block q goes to PE q, where it lands as block p of dest. Every element of the
 *     matrix moves exactly once, all PEs at the same time;
 *   - the packing around it: the block that PE p sends to PE q is the B x B square at rows of
 *     p and columns of q; after the exchange PE q transposes each square locally.
 *
 * A[i][j] = i * N + j, so the transpose T must hold T[i][j] = j * N + i: every element of
 * every PE is checked.
 *
 *   oshcc transpose.c -o transpose && oshrun -np 4 ./transpose
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define B 4 /* rows per PE (and the size of the square blocks) */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), n = B * npes;

    /* Symmetric buffers for the collective; a and t are private (any memory). */
    double *send = shmem_malloc((size_t)n * B * sizeof *send);
    double *recv = shmem_malloc((size_t)n * B * sizeof *recv);
    double (*a)[n] = malloc(sizeof(double[B][n])); /* my strip of A: B rows of n */
    double (*t)[n] = malloc(sizeof(double[B][n])); /* my strip of the transpose */

    /* My strip: global rows me * B ... me * B + B - 1. */
    for (int r = 0; r < B; r++)
        for (int j = 0; j < n; j++)
            a[r][j] = (double)(me * B + r) * n + j;

    /* Pack: block q (contiguous, B * B elements) = the square at my rows, columns of PE q. */
    for (int q = 0; q < npes; q++)
        for (int r = 0; r < B; r++)
            for (int c = 0; c < B; c++)
                send[(q * B + r) * B + c] = a[r][q * B + c];

    /* The exchange: block q of my send goes to PE q; block p of my recv came from PE p. */
    shmem_double_alltoall(SHMEM_TEAM_WORLD, recv, send, B * B);

    /* Unpack: block p is A's square (rows of p, my columns); transposed, it is T's square
     * (my rows, columns of p). */
    for (int p = 0; p < npes; p++)
        for (int r = 0; r < B; r++)
            for (int c = 0; c < B; c++)
                t[c][p * B + r] = recv[(p * B + r) * B + c];

    /* Check every element of my strip of T: T[i][j] = A[j][i] = j * n + i. */
    int wrong = 0;
    for (int r = 0; r < B; r++)
        for (int j = 0; j < n; j++) {
            double want = (double)j * n + (me * B + r);
            if (t[r][j] != want && wrong++ < 5)
                printf("PE %d: T[%d][%d] = %g, expected %g\n", me, me * B + r, j, t[r][j], want);
        }
    if (me == 0)
        printf("transpose of a %d x %d matrix on %d PEs: %s\n", n, n, npes,
               wrong ? "WRONG" : "OK");
    shmem_free(send);
    shmem_free(recv);
    free(a);
    free(t);
    shmem_finalize();
    return wrong != 0;
}
