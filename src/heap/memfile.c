/* memfile.c: memory files shared with node mates (memfile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/error.h"
#include "heap/memfile.h"

/* A limit in words: "unlimited" or a size. */
static const char *limit_text(rlim_t v, char buf[32])
{
    if (v == RLIM_INFINITY)
        return "unlimited";
    return sshmem_human_bytes((size_t)v, buf);
}

/* The sentence for a failed call: what failed, why (the limit when one applies), the fix. */
static void explain(char *why, size_t why_len, const char *call, int err, const char *what,
                    size_t size)
{
    char sz[32], lim[32];
    struct rlimit rl;
    const char *cause, *fix;
    char buf[200] = "";
    switch (err) {
    case EMFILE:
        getrlimit(RLIMIT_NOFILE, &rl);
        snprintf(buf, sizeof buf, "this process has all its %llu file descriptors open "
                 "(RLIMIT_NOFILE)", (unsigned long long)rl.rlim_cur);
        cause = buf;
        fix = "raise it (ulimit -n) or close descriptors before shmem_init";
        break;
    case ENFILE:
        cause = "the host's table of open files is full (fs.file-max)";
        fix = "raise fs.file-max (sysctl) or run fewer processes";
        break;
    case EFBIG:
        getrlimit(RLIMIT_FSIZE, &rl);
        snprintf(buf, sizeof buf, "the file size limit (RLIMIT_FSIZE) is %s",
                 limit_text(rl.rlim_cur, lim));
        cause = buf;
        fix = "raise it (ulimit -f unlimited) or lower SHMEM_SYMMETRIC_SIZE";
        break;
    case ENOMEM:
        getrlimit(RLIMIT_AS, &rl);
        if (rl.rlim_cur != RLIM_INFINITY) {
            snprintf(buf, sizeof buf, "the address-space limit (RLIMIT_AS) is %s",
                     limit_text(rl.rlim_cur, lim));
            cause = buf;
            fix = "raise it (ulimit -v unlimited) or lower SHMEM_SYMMETRIC_SIZE";
        } else {
            cause = "the kernel refused the memory or a mapping (memory, cgroup limit, or "
                    "vm.max_map_count)";
            fix = "lower SHMEM_SYMMETRIC_SIZE, run fewer PEs on this host, or raise "
                  "vm.max_map_count (sysctl)";
        }
        break;
    case ENOSPC:
        cause = "no space left for shared memory";
        fix = "free memory or lower SHMEM_SYMMETRIC_SIZE";
        break;
    case ENOSYS:
    case EINVAL:
        cause = "this kernel has no memory files (memfd_create needs Linux 3.17 or later)";
        fix = "run on a newer kernel";
        break;
    default:
        cause = strerror(err);
        fix = "check the host's memory limits (ulimit -a)";
        break;
    }
    snprintf(why, why_len, "cannot get shared memory for the %s (%s): %s failed: %s; "
             "%s", what, sshmem_human_bytes(size, sz), call, cause, fix);
}

int sshmem_memfile_create(const char *name, size_t size, const char *what, char *why,
                          size_t why_len)
{
    /* Growing a file past RLIMIT_FSIZE also raises SIGXFSZ, which ends the process without
     * a word: check first. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (rlim_t)size > rl.rlim_cur) {
        explain(why, why_len, "ftruncate", EFBIG, what, size);
        return -1;
    }
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) {
        explain(why, why_len, "memfd_create", errno, what, size);
        return -1;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        explain(why, why_len, "ftruncate", errno, what, size);
        close(fd);
        return -1;
    }
    return fd;
}

void *sshmem_memfile_map(int fd, size_t size, void *at, const char *what, char *why,
                         size_t why_len)
{
    void *p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
    if (p == MAP_FAILED) {
        explain(why, why_len, "mmap", errno, what, size);
        return NULL;
    }
    return p;
}

void *sshmem_memfile_map_peer(pid_t pid, int fd, size_t size, const char *what, char *why,
                              size_t why_len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
    int peer_fd = open(path, O_RDWR | O_CLOEXEC);
    if (peer_fd < 0) {
        int err = errno;
        snprintf(why, why_len, "cannot open %s, a node mate's %s: %s", path, what,
                 strerror(err));
        errno = err;
        return NULL;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, peer_fd, 0);
    int err = errno;
    close(peer_fd); /* the mapping keeps the file alive */
    if (p == MAP_FAILED) {
        explain(why, why_len, "mmap of a node mate's memory file", err, what, size);
        errno = err;
        return NULL;
    }
    return p;
}

int sshmem_memfile_limit(int err)
{
    return err == EMFILE || err == ENFILE || err == ENOMEM || err == ENOSPC;
}
