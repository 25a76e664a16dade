/*
 * oshinfo: what this sshmem is and how it is set up: versions (sshmem, OpenSHMEM, UCX, PMIx,
 * hwloc), how it was built, and every environment variable it reads with its current value,
 * default and meaning (from the one table in src/core/env.h).
 *
 *   oshinfo            everything
 *   oshinfo --env      only the environment table
 *   oshinfo --space N  the library's internal symmetric space for a job of N PEs
 *   oshinfo --shmem4py-cflags   the compiler flags shmem4py needs to build on sshmem
 */
#include <hwloc.h>
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>
#include <shmem.h>

#include "config.h"
#include "core/env.h"
#include "api/space_layout.h"
#include "transport/ucx_quirks.h"

static void print_versions(void)
{
    unsigned ucx_major, ucx_minor, ucx_release;
    ucp_get_version(&ucx_major, &ucx_minor, &ucx_release);
    unsigned hw = hwloc_get_api_version();
    printf("sshmem:            %s\n", PACKAGE_VERSION);
    printf("OpenSHMEM:         %d.%d (%s)\n", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
           SHMEM_VENDOR_STRING);
    printf("UCX:               %u.%u.%u (built with %s)\n", ucx_major, ucx_minor, ucx_release,
           SSHMEM_UCX_BUILD_VERSION);
    printf("PMIx:              %s (built with %s)\n", PMIx_Get_version(), SSHMEM_PMIX_BUILD_VERSION);
    printf("hwloc:             %u.%u.%u\n", hw >> 16, (hw >> 8) & 0xff, hw & 0xff);
}

static void print_build(void)
{
    printf("installed in:      %s\n", SSHMEM_PREFIX);
    printf("compiler:          %s\n", SSHMEM_BUILD_CC);
    printf("configured with:   %s\n", SSHMEM_CONFIGURE_ARGS[0] ? SSHMEM_CONFIGURE_ARGS : "(defaults)");
}

static void print_paths(void)
{
    const char *tls = getenv("UCX_TLS");
    printf("on-node path:      %s\n", sshmem_env.local ? "ucx (SSHMEM_LOCAL=ucx)"
                                                       : "direct load/store into mapped heaps");
    printf("UCX transports:    %s\n",
           tls ? tls : "chosen by UCX (all but tcp in a one-host job; SysV segments made 0600) "
                       "(UCX_TLS unset; reference.md, Security)");
    printf("UCX workarounds:   %s\n", sshmem_ucx_quirks_describe());
}

/* The internal space a job of n_pes would have with the settings now (api/space_layout.h);
 * 0, or 1 after the error shmem_init would give. */
static int print_space(long n_pes)
{
    sshmem_space_settings_t s = sshmem_space_settings(n_pes, &sshmem_env);
    sshmem_space_layout_t layout;
    char why[200];
    if (sshmem_space_settings_check(&s, why, sizeof why) != 0) {
        fprintf(stderr, "oshinfo: %s\n", why);
        return 1;
    }
    sshmem_space_plan(&s, &layout);
    printf("  %6ld PEs: ", n_pes);
    sshmem_space_print(stdout, &layout);
    return 0;
}

/* shmem4py (the Python binding) picks its compatibility layer by vendor macros and, for a
 * library it does not know, compiles stand-ins for the OpenSHMEM 1.5 features unless
 * -DPySHMEM_HAVE_<feature> says the library has them; the stand-ins clash with the real
 * routines. Each feature here is part of OpenSHMEM 1.5, so the header's version decides. */
static const char *const shmem4py_features[] = {
    "shmem_malloc_with_hints", "shmem_team_t", "SHMEM_CTX_INVALID", "shmem_amo_nbi",
    "shmem_put_signal", "shmem_signal_fetch", "shmem_signal_wait_until", "shmem_broadcast",
    "shmem_collect", "shmem_fcollect", "shmem_alltoall", "shmem_alltoalls",
    "shmem_broadcastmem", "shmem_collectmem", "shmem_fcollectmem", "shmem_alltoallmem",
    "shmem_alltoallsmem", "shmem_reduce", "shmem_wait_test_many", "shmem_pcontrol",
};

static void print_shmem4py_cflags(void)
{
    int has_1_5 = SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5);
    const char *sep = "";
    for (size_t i = 0; has_1_5 && i < sizeof shmem4py_features / sizeof *shmem4py_features; i++) {
        printf("%s-DPySHMEM_HAVE_%s=1", sep, shmem4py_features[i]);
        sep = " ";
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int only_env = argc > 1 && !strcmp(argv[1], "--env");
    int space = argc > 2 && !strcmp(argv[1], "--space");
    if (argc > 1 && !strcmp(argv[1], "--shmem4py-cflags")) {
        print_shmem4py_cflags();
        return 0;
    }
    if (argc > 1 && !only_env && !space) {
        printf("usage: oshinfo [--env | --space NPES | --shmem4py-cflags]\n");
        return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
    }
    sshmem_env_load(); /* a malformed value is reported here, as at shmem_init */
    if (space) {
        printf("internal symmetric space per PE, on top of SHMEM_SYMMETRIC_SIZE:\n");
        return print_space(atol(argv[2]));
    }
    if (!only_env) {
        print_versions();
        print_build();
        print_paths();
        printf("internal symmetric space per PE, on top of SHMEM_SYMMETRIC_SIZE (with the "
               "settings below):\n");
        int bad = 0;
        long examples[] = {2, 1024, 65536};
        for (int i = 0; i < 3 && !bad; i++)
            bad = print_space(examples[i]);
        if (bad)
            return 1;
        printf("\nEnvironment variables (value now, default, meaning):\n");
    }
    sshmem_env_print(stdout);
    return 0;
}
