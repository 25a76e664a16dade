/*
 * mpix_column.c: send a column of a matrix with one call, using a vector datatype.
 *
 * Every PE has an N x N matrix (row-major, symmetric). PE p puts column p of its matrix into
 * column p of PE 0's matrix: the datatype describes the column's layout (N elements, N apart),
 * and the same layout is used on the remote side. Then PE 0 prints the matrix: column p came
 * from PE p.
 *
 *   oshcc mpix_column.c -o mpix_column && oshrun -np 4 ./mpix_column
 */
#include <shmemx.h>
#include <stdio.h>

#define N 8

static double matrix[N][N]; /* global: symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            matrix[i][j] = me + 0.01 * i; /* PE number . row */

    shmemx_datatype_t column;
    shmemx_type_vector(N, 1, N, SHMEMX_DOUBLE, &column); /* N blocks of 1, stride N */
    shmemx_type_commit(&column);
    shmem_barrier_all();

    if (me > 0 && me < N)
        shmemx_put_type(&matrix[0][me], &matrix[0][me], 1, column, 0);
    shmem_barrier_all();

    int ok = 1;
    if (me == 0) {
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                double want = (j < npes ? j : 0) + 0.01 * i;
                ok &= matrix[i][j] == want;
                printf(" %5.2f", matrix[i][j]);
            }
            printf("\n");
        }
        printf("column j came from PE j: %s\n", ok ? "OK" : "WRONG");
    }
    shmemx_type_free(&column);
    shmem_finalize();
    return !ok;
}
