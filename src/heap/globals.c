/* globals.c: share the executable's data+bss segment (see globals.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "heap/globals.h"
#include "heap/memfile.h"

/*
 * The executable's writable mappings in /proc/self/maps: its "rw-p" mapping(s) backed by the
 * executable file, and the anonymous mapping right behind them that holds the rest of bss.
 */
static int find_data_segment(uintptr_t *start, uintptr_t *end)
{
    char exe[PATH_MAX], line[PATH_MAX + 128];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    FILE *maps = fopen("/proc/self/maps", "r");
    if (n <= 0 || !maps) {
        if (maps)
            fclose(maps);
        return -1;
    }
    exe[n] = '\0';
    *start = *end = 0;
    while (fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8], path[PATH_MAX] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perms, path) < 3)
            continue;
        int mine = strcmp(path, exe) == 0;
        int anon = path[0] == '\0';
        int writable = perms[0] == 'r' && perms[1] == 'w' && perms[3] == 'p';
        if (*end == 0) {
            if (mine && writable) {
                *start = lo;
                *end = hi;
            }
        } else if (lo == *end && writable && (mine || anon)) {
            *end = hi; /* contiguous: more data, or the anonymous part of bss */
        } else {
            break;
        }
    }
    fclose(maps);
    return *end ? 0 : -1;
}

int sshmem_globals_share(void **base, size_t *size, int *fd_out)
{
    uintptr_t start, end;
    if (find_data_segment(&start, &end))
        return -1;
    size_t len = end - start;
    char why[512];
    int fd = sshmem_memfile_create("sshmem-globals", len, "global data", why, sizeof why);
    if (fd < 0)
        return -1;
    /* Copy the current values into the file, then map the file over them. Nothing else
     * runs in between: no other thread exists yet (PMIx and UCX start later). */
    if (pwrite(fd, (void *)start, len, 0) != (ssize_t)len) {
        close(fd);
        return -1;
    }
    void *p = sshmem_memfile_map(fd, len, (void *)start, "global data", why, sizeof why);
    if (!p) {
        close(fd); /* the private mapping is untouched: carry on without shared globals */
        return -1;
    }
    *base = p;
    *size = len;
    *fd_out = fd;
    return 0;
}
