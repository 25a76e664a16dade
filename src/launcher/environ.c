/* environ.c: the environment the PEs start with. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "environ.h"
#include "util.h"

extern char **environ;

/* PMIX_* variables describe the PMIx client identity of oshrun itself when it runs under
 * another launcher; PEs must see only the ones PMIx_server_setup_fork gives them, or a stale
 * server URI could win. PMIX_MCA_* are user settings of the PMIx library: keep those. */
static bool is_stale_pmix(const char *entry)
{
    return strncmp(entry, "PMIX_", 5) == 0 && strncmp(entry, "PMIX_MCA_", 9) != 0;
}

static size_t count(char *const env[])
{
    size_t n = 0;
    while (env[n])
        n++;
    return n;
}

/* Index of the entry for the variable named like the one in entry ("NAME=..."), or -1. */
static long find_var(char *const env[], size_t n, const char *entry)
{
    size_t namelen = strcspn(entry, "=");
    for (size_t i = 0; i < n; i++)
        if (strncmp(env[i], entry, namelen) == 0 && env[i][namelen] == '=')
            return (long)i;
    return -1;
}

char **osh_env_base(char *const exports[], size_t nexports)
{
    size_t n = 0;
    char **env = osh_xcalloc(count(environ) + nexports + 1, sizeof *env);
    for (char **e = environ; *e; e++)
        if (!is_stale_pmix(*e))
            env[n++] = osh_xstrdup(*e);
    for (size_t i = 0; i < nexports; i++) {
        long at = find_var(env, n, exports[i]);
        if (at >= 0) {
            free(env[at]);
            env[at] = osh_xstrdup(exports[i]);
        } else {
            env[n++] = osh_xstrdup(exports[i]);
        }
    }
    env[n] = NULL;
    return env;
}

char **osh_env_copy(char *const env[])
{
    size_t n = count(env);
    char **copy = osh_xcalloc(n + 1, sizeof *copy);
    for (size_t i = 0; i < n; i++)
        copy[i] = osh_xstrdup(env[i]);
    return copy;
}

void osh_env_free(char **env)
{
    if (!env)
        return;
    for (char **e = env; *e; e++)
        free(*e);
    free(env);
}

void osh_env_set(char ***env, const char *entry)
{
    size_t n = count(*env);
    long at = find_var(*env, n, entry);
    if (at >= 0) {
        free((*env)[at]);
        (*env)[at] = osh_xstrdup(entry);
        return;
    }
    char **grown = osh_xrealloc(*env, (n + 2) * sizeof *grown);
    grown[n] = osh_xstrdup(entry);
    grown[n + 1] = NULL;
    *env = grown;
}
