/*
 * ctx_errors.c: the program behind test/pe/ctx-errors-test.sh. It makes the mistake argv[1]
 * names with contexts or thread levels; the library must end the job with a message that
 * names the call, the argument and the fix.
 */
#include "check.h"

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "bad_thread_level")) {
        int provided;
        shmem_init_thread(42, &provided);
        return 0;
    }
    shmem_init();
    shmem_ctx_t ctx;
    if (!strcmp(what, "destroy_default")) {
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
    } else if (!strcmp(what, "destroy_twice")) {
        shmem_ctx_create(0, &ctx);
        shmem_ctx_destroy(ctx);
        shmem_ctx_destroy(ctx);
    } else if (!strcmp(what, "bad_options")) {
        shmem_ctx_create(64, &ctx);
    } else if (!strcmp(what, "null_ctx")) {
        shmem_ctx_create(0, NULL);
    } else if (!strcmp(what, "team_ctx_pe")) {
        /* a team of one PE (this one): its contexts know only team PE 0 */
        shmem_team_t solo;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, shmem_my_pe(), 1, 1, NULL, 0, &solo);
        shmem_team_create_ctx(solo, 0, &ctx);
        static long x;
        shmem_ctx_long_p(ctx, &x, 1, 1);
    } else if (!strcmp(what, "invalid_ctx_put")) {
        static long x;
        shmem_ctx_long_p(SHMEM_CTX_INVALID, &x, 1, 0);
    }
    shmem_finalize();
    return 0;
}
