/* environ.h: the environment the PEs start with. */
#ifndef OSHRUN_ENVIRON_H
#define OSHRUN_ENVIRON_H
#include <stddef.h>

/* oshrun's own environment without a PMIx identity inherited from an outer launcher, with the
 * -x "VAR=value" entries applied. A NULL-terminated array of malloc'ed strings. */
char **osh_env_base(char *const exports[], size_t nexports);

/* A deep copy of env (malloc'ed array and strings, as PMIx_server_setup_fork needs: it
 * reallocates the array and replaces entries). */
char **osh_env_copy(char *const env[]);

/* Set "NAME=value" in a malloc'ed environment (replacing NAME if present). */
void osh_env_set(char ***env, const char *entry);

void osh_env_free(char **env);

#endif
