/* program.c: finding the program to run before anything is started, so that a typo is reported
 * clearly and costs no PMIx server, no fork and no cleanup. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program.h"
#include "util.h"

/* What execvp uses when PATH is unset. */
#define DEFAULT_PATH "/bin:/usr/bin"

enum candidate { CAND_MISSING, CAND_NOT_RUNNABLE, CAND_OK };

static enum candidate check_candidate(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return CAND_MISSING;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return CAND_NOT_RUNNABLE;
    return CAND_OK;
}

/* A name with a '/' is used as it is. */
static char *check_explicit_path(const char *name)
{
    struct stat st;
    if (stat(name, &st) != 0) {
        osh_msg("program '%s' not found", name);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        osh_msg("program '%s' is a directory, not a program", name);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || access(name, X_OK) != 0) {
        osh_msg("program '%s' is not executable (try 'chmod +x %s')", name, name);
        return NULL;
    }
    return osh_xstrdup(name);
}

/* PATH lookup: the first executable regular file wins, as with execvp. */
static char *search_path(const char *name, char **not_runnable)
{
    const char *path = getenv("PATH");
    if (!path)
        path = DEFAULT_PATH;
    size_t namelen = strlen(name);
    const char *dir = path;
    for (;;) {
        const char *end = strchrnul(dir, ':');
        size_t dirlen = (size_t)(end - dir);
        char *cand = osh_xmalloc(dirlen + namelen + 3);
        if (dirlen == 0) /* an empty PATH entry means the current directory */
            sprintf(cand, "./%s", name);
        else
            sprintf(cand, "%.*s/%s", (int)dirlen, dir, name);
        enum candidate c = check_candidate(cand);
        if (c == CAND_OK)
            return cand;
        if (c == CAND_NOT_RUNNABLE && !*not_runnable)
            *not_runnable = osh_xstrdup(cand);
        free(cand);
        if (*end == '\0')
            return NULL;
        dir = end + 1;
    }
}

char *osh_find_program(const char *name)
{
    if (name[0] == '\0') {
        osh_msg("the program name is empty");
        return NULL;
    }
    if (strchr(name, '/'))
        return check_explicit_path(name);
    char *not_runnable = NULL;
    char *found = search_path(name, &not_runnable);
    if (found) {
        free(not_runnable);
        return found;
    }
    if (not_runnable)
        osh_msg("program '%s' not found (looked in PATH; '%s' exists but is not an executable "
                "file)", name, not_runnable);
    else if (check_candidate(name) == CAND_OK)
        osh_msg("program '%s' not found (looked in PATH); to run the one in this directory, "
                "say './%s'", name, name);
    else
        osh_msg("program '%s' not found (looked in PATH)", name);
    free(not_runnable);
    return NULL;
}
