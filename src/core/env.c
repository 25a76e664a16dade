/* env.c: parse the environment table of env.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/env.h"
#include "core/error.h"
#include "core/size_parse.h"

sshmem_env_t sshmem_env;

/* The value set for a variable, under its name or its old SMA_* name. */
static const char *lookup(const char *name, const char *old_name, const char *def, const char **from)
{
    const char *v = getenv(name);
    *from = name;
    if (!v && old_name) {
        v = getenv(old_name);
        *from = old_name;
    }
    if (!v || !*v) {
        *from = NULL;
        v = def;
    }
    return v;
}

SSHMEM_NORETURN static void malformed(const char *from, const char *value, const char *accepted)
{
    /* The PE number is not known yet (this runs first), but the launcher has put it in
     * the environment. */
    const char *rank = getenv("PMIX_RANK");
    fprintf(stderr, "sshmem: PE %s: shmem_init: environment variable %s='%s' is not valid: "
            "expected %s.\n", rank ? rank : "0", from, value, accepted);
    exit(1);
}

static void parse_SIZE(size_t *out, const char *v, const char *from)
{
    if (sshmem_parse_size(v, out) != 0 || *out == 0)
        malformed(from ? from : "(default)", v, SSHMEM_SIZE_SYNTAX ", not zero");
}

static void parse_BYTES(size_t *out, const char *v, const char *from)
{
    if (sshmem_parse_size(v, out) != 0)
        malformed(from ? from : "(default)", v, SSHMEM_SIZE_SYNTAX ", or 0");
}

static void parse_BOOL(int *out, const char *v, const char *from)
{
    static const char *yes[] = {"1", "y", "yes", "true", "on"};
    static const char *no[] = {"0", "n", "no", "false", "off"};
    for (size_t i = 0; i < 5; i++) {
        if (!strcasecmp(v, yes[i])) { *out = 1; return; }
        if (!strcasecmp(v, no[i])) { *out = 0; return; }
    }
    malformed(from ? from : "(default)", v, "1 or 0 (also yes/no, true/false, on/off)");
}

static void parse_UINT(unsigned *out, const char *v, const char *from)
{
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || x > 1000000000UL)
        malformed(from ? from : "(default)", v, "a whole number from 0 to 1000000000");
    *out = (unsigned)x;
}

static void parse_STRING(const char **out, const char *v, const char *from)
{
    (void)from;
    *out = v;
}

static void parse_choice(int *out, const char *v, const char *from, const char *const *choices,
                         const char *meaning)
{
    for (int i = 0; choices[i]; i++)
        if (!strcasecmp(v, choices[i])) {
            *out = i;
            return;
        }
    malformed(from ? from : "(default)", v, meaning);
}

void sshmem_env_load(void)
{
    const char *v, *from;
#define SSHMEM_LOAD_SIZE(f) parse_SIZE(&sshmem_env.f, v, from)
#define SSHMEM_LOAD_BYTES(f) parse_BYTES(&sshmem_env.f, v, from)
#define SSHMEM_LOAD_BOOL(f) parse_BOOL(&sshmem_env.f, v, from)
#define SSHMEM_LOAD_UINT(f) parse_UINT(&sshmem_env.f, v, from)
#define SSHMEM_LOAD_STRING(f) parse_STRING(&sshmem_env.f, v, from)
#define SSHMEM_LOAD_CHOICE(f)                                                                     \
    do {                                                                                          \
        static const char *const choices[] = SSHMEM_ENV_CHOICES_##f;                              \
        parse_choice(&sshmem_env.f, v, from, choices, meaning);                                   \
    } while (0)
#define X(field, kind, name, old, def, mean)                                                      \
    {                                                                                             \
        const char *meaning = mean;                                                               \
        (void)meaning;                                                                            \
        v = lookup(name, old, def, &from);                                                        \
        SSHMEM_LOAD_##kind(field);                                                                \
    }
    SSHMEM_ENV_TABLE(X)
#undef X
    /* SSHMEM_DEBUG is the project's own spelling of SHMEM_DEBUG. */
    if ((v = getenv("SSHMEM_DEBUG")) && *v)
        parse_BOOL(&sshmem_env.debug, v, "SSHMEM_DEBUG");
}

void sshmem_env_print(void *file)
{
    FILE *f = file;
    fprintf(f, "%-22s %-10s %-10s %s\n", "variable", "value", "default", "meaning");
#define X(field, kind, name, old, def, mean)                                                      \
    {                                                                                             \
        const char *from, *v = lookup(name, old, def, &from);                                     \
        fprintf(f, "%-22s %-10s %-10s %s\n", name, *v ? v : "-", *def ? def : "-", mean);         \
    }
    SSHMEM_ENV_TABLE(X)
#undef X
}
