/*
 * trace_loader.c: SSHMEM_TRACE=PATH with any launcher. The timeline's recorder is a library
 * of its own (libsshmem_trace.so, src/trace/) that wraps every public routine, so that a job
 * without the trace runs the library exactly as it is: not one instruction more on any path.
 * Wrapping needs that library in the process before libsshmem (LD_PRELOAD). So when
 * SSHMEM_TRACE is set and the recorder is not in the process, this constructor, run when
 * the program is loaded and before its main, executes the program again, unchanged, with
 * the recorder (found beside this libsshmem, so always the matching one) added to
 * LD_PRELOAD: the same process, arguments and environment, for oshrun --trace, mpirun,
 * prterun, srun or a program run alone. Where that cannot work (a program that was not
 * started from its own file, or sshmem linked in statically) it says what to set instead.
 * Off, it is one getenv when the program starts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set for the second execution, so a recorder that still does not load is said, not retried. */
#define LOADER_MARK "SSHMEM_TRACE_LOADER"

/* Only one PE says it, where the launcher tells the rank (PMIx launchers do). */
static void tell(const char *why, const char *library)
{
    const char *rank = getenv("PMIX_RANK");
    if (rank && strcmp(rank, "0") != 0)
        return;
    fprintf(stderr, "sshmem: warning: SSHMEM_TRACE is set but the trace recorder is not loaded "
                    "(%s), so no trace will be written; start the program with "
                    "LD_PRELOAD=%s in its environment\n", why, library);
}

/* libsshmem_trace.so in the directory this libsshmem was loaded from. */
static int recorder_path(char *out, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)recorder_path, &info) || !info.dli_fname)
        return -1;
    const char *slash = strrchr(info.dli_fname, '/');
    int dir = slash ? (int)(slash - info.dli_fname) : 1;
    int n = snprintf(out, len, "%.*s/libsshmem_trace.so", dir, slash ? info.dli_fname : ".");
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* envp with LD_PRELOAD extended by library (after what the user preloads: sanitizers must
 * come first) and the mark added. */
static char **environment_with(char **envp, const char *library)
{
    size_t n = 0;
    while (envp[n])
        n++;
    char **env = calloc(n + 3, sizeof *env);
    char *preload = NULL;
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(envp[i], "LD_PRELOAD=", 11) == 0 && !preload) {
            if (asprintf(&preload, "%s:%s", envp[i], library) < 0)
                return NULL;
            env[k++] = preload;
        } else {
            env[k++] = envp[i];
        }
    }
    if (!preload && asprintf(&preload, "LD_PRELOAD=%s", library) >= 0)
        env[k++] = preload;
    env[k++] = LOADER_MARK "=1";
    env[k] = NULL;
    return env;
}

static void __attribute__((constructor)) sshmem_trace_loader(int argc, char **argv, char **envp)
{
    const char *path = getenv("SSHMEM_TRACE");
    if (!path || !*path || dlsym(RTLD_DEFAULT, "sshmem_trace_library_present"))
        return;
    char library[PATH_MAX];
    if (recorder_path(library, sizeof library) != 0) {
        tell("sshmem seems linked in statically: the recorder needs libsshmem.so",
             "<libdir of sshmem>/libsshmem_trace.so");
        return;
    }
    if (access(library, R_OK) != 0) {
        char why[PATH_MAX + 64];
        snprintf(why, sizeof why, "%s: %s", library, strerror(errno));
        tell(why, "<libdir of sshmem>/libsshmem_trace.so");
        return;
    }
    if (getenv(LOADER_MARK) || !argv || !envp) {
        tell("LD_PRELOAD did not load it", library);
        return;
    }
    char **env = environment_with(envp, library);
    if (env)
        execve("/proc/self/exe", argv, env);
    char why[PATH_MAX + 64];
    snprintf(why, sizeof why, "running the program again with it failed: %s", strerror(errno));
    tell(why, library);
}
