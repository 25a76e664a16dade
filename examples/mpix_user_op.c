/*
 * mpix_user_op.c: a user-defined, non-commutative reduction operator: 2x2 matrix product.
 *
 * PE p holds the matrix M_p = [[1, p], [0, 2]]. The product M_0 M_1 ... M_(n-1) depends on
 * the order; an operator created with commute = 0 is applied in ascending PE order, so every
 * PE gets exactly that product. The function follows MPI's signature: it combines *len
 * elements, inoutvec[i] = invec[i] o inoutvec[i].
 *
 *   oshcc mpix_user_op.c -o mpix_user_op && oshrun -np 4 ./mpix_user_op
 */
#include <shmemx.h>
#include <stdio.h>

typedef struct {
    double a, b, c, d; /* [[a, b], [c, d]] */
} mat2;

static mat2 mul(mat2 x, mat2 y)
{
    return (mat2){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                  x.c * y.b + x.d * y.d};
}

static void matmul(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    mat2 *in = invec, *inout = inoutvec;
    for (int i = 0; i < *len; i++)
        inout[i] = mul(in[i], inout[i]);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmemx_datatype_t mat_type;
    shmemx_op_t product;
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &mat_type);
    shmemx_type_commit(&mat_type);
    shmemx_op_create(matmul, 0 /* not commutative */, &product);

    mat2 mine = {1, me, 0, 2}, all;
    shmemx_allreduce(SHMEM_TEAM_WORLD, &all, &mine, 1, mat_type, product);

    mat2 want = {1, 0, 0, 2};
    for (int p = 1; p < npes; p++)
        want = mul(want, (mat2){1, p, 0, 2});
    int ok = all.a == want.a && all.b == want.b && all.c == want.c && all.d == want.d;
    if (me == 0)
        printf("M0 M1 ... M%d = [[%g, %g], [%g, %g]]: %s\n", npes - 1, all.a, all.b, all.c,
               all.d, ok ? "OK" : "WRONG");
    shmemx_op_free(&product);
    shmemx_type_free(&mat_type);
    shmem_finalize();
    return !ok;
}
