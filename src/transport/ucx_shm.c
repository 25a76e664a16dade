/*
 * ucx_shm.c: the shared memory behind the symmetric heap.
 *
 * UCX allocates the heap from its posix memory domain (ucx_privacy.c): a file in
 * UCX_POSIX_DIR (oshrun's private directory under /dev/shm), unlinked at once and shared
 * through /proc/PID/fd. Three host limits can stop that, and a start-up that meets one must
 * say which and how to raise it: the room of that filesystem (a tmpfs, by default half of the
 * memory; other jobs' files count), the open-file limit (UCX keeps a descriptor per segment)
 * and, for a network device that registers the heap, the locked-memory limit.
 *
 * UCX's posix domain writes every byte of a new segment once, to learn early whether the
 * filesystem has room for it. That makes the whole heap real memory at start-up. Punching the
 * pages out again right after (they hold zeros, which is what a fresh heap holds anyway) keeps
 * what a heap costs to the pages the program touches, as a SysV segment did. For that moment
 * the heap is real, in every PE of the host at once if they all start together: 8 PEs of a
 * 5 GiB heap filled the memory here and the kernel killed processes. So the PEs of a job take
 * turns (a lock on the job's private directory), and a host needs room for one heap only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/error.h"
#include "transport/ucx_shm.h"

/* Where UCX's posix domain makes its files: UCX_POSIX_DIR, or /dev/shm. */
static const char *posix_dir(void)
{
    const char *dir = getenv("UCX_POSIX_DIR");
    return dir && *dir ? dir : "/dev/shm";
}

/* Bytes free for an unprivileged writer in dir's filesystem, and its size; -1 if unknown. */
static int room_of(const char *dir, size_t *free_bytes, size_t *total)
{
    struct statvfs vfs;
    if (statvfs(dir, &vfs) != 0)
        return -1;
    *free_bytes = (size_t)vfs.f_bavail * vfs.f_frsize;
    *total = (size_t)vfs.f_blocks * vfs.f_frsize;
    return 0;
}

/* Describe a filesystem too small for `size`, or say nothing. */
static int describe_room(size_t size, char *out, size_t len)
{
    size_t free_bytes, total;
    const char *dir = posix_dir();
    if (room_of(dir, &free_bytes, &total) != 0 || free_bytes >= size)
        return 0;
    char want[32], have[32], all[32];
    snprintf(out, len, " %s has %s free of %s, and the symmetric heap needs %s there: lower "
             "SHMEM_SYMMETRIC_SIZE, remove what fills it (files of jobs that were killed), or "
             "enlarge it (as root: mount -o remount,size=... /dev/shm, or set UCX_POSIX_DIR "
             "to a larger tmpfs).", dir, sshmem_human_bytes(free_bytes, have),
             sshmem_human_bytes(total, all), sshmem_human_bytes(size, want));
    return 1;
}

void sshmem_ucx_shm_check_room(size_t size)
{
    char why[512];
    /* Only where the heap surely goes there (ucx_privacy.c); with the user's UCX_TLS, UCX
     * may take it from elsewhere, and a failure says what it found (below). */
    if (!getenv("UCX_TLS") && !getenv("UCX_ALLOC_PRIO") && describe_room(size, why, sizeof why))
        sshmem_fatal("shmem_init", "no room for the symmetric heap in shared memory:%s", why);
}

/* How many descriptors this process has open. */
static long open_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    long n = -1; /* the directory's own descriptor */
    while (readdir(d))
        n++;
    closedir(d);
    return n - 2; /* "." and ".." */
}

/* Describe an open-file limit that is (nearly) reached, or say nothing. */
static int describe_files(char *out, size_t len)
{
    struct rlimit rl;
    long open = open_descriptors();
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || open < 0 || rl.rlim_cur == RLIM_INFINITY ||
        (rlim_t)open + 16 < rl.rlim_cur)
        return 0;
    snprintf(out, len, " This PE has %ld files open and may open %lu (UCX keeps one per "
             "shared-memory segment): raise the limit (ulimit -n; oshrun passes it on).",
             open, (unsigned long)rl.rlim_cur);
    return 1;
}

/* Describe a locked-memory limit below the heap's size (a network device pins the heap it
 * registers), or say nothing. */
static int describe_memlock(size_t size, char *out, size_t len)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= size)
        return 0;
    char have[32];
    snprintf(out, len, " The locked-memory limit is %s, less than the heap: a network "
             "device cannot register it; raise it (ulimit -l unlimited, or memlock in "
             "/etc/security/limits.conf).", sshmem_human_bytes((size_t)rl.rlim_cur, have));
    return 1;
}

void sshmem_ucx_shm_alloc_failed(size_t size, ucs_status_t st)
{
    char room[512] = "", files[256] = "", memlock[256] = "", want[32];
    int any = describe_room(size, room, sizeof room);
    any |= describe_files(files, sizeof files);
    if (!any) /* the usual limit of a few MiB is no obstacle to shared memory: a last guess */
        any = describe_memlock(size, memlock, sizeof memlock);
    sshmem_fatal("shmem_init", "cannot allocate the symmetric heap of %s (UCX: %s).%s%s%s%s",
                 sshmem_human_bytes(size, want), ucs_status_string(st), room, files, memlock,
                 any ? "" : " Lower SHMEM_SYMMETRIC_SIZE or free memory (shared memory lives "
                            "in /dev/shm, or UCX_POSIX_DIR).");
}

int sshmem_ucx_shm_take_turn(void)
{
    const char *dir = getenv("UCX_POSIX_DIR");
    struct stat st;
    /* Only a directory of this user's alone (oshrun's): on a shared one, another user could
     * hold the lock and stop the job. */
    if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077))
        return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

void sshmem_ucx_shm_end_turn(int fd)
{
    if (fd >= 0)
        close(fd); /* and with it the lock */
}

void sshmem_ucx_shm_release_untouched(void *base, size_t size)
{
    /* Only a shared file mapping has pages to punch out; on other memory (UCX_TLS without
     * shared memory gives private pages) the call fails and changes nothing. */
    (void)madvise(base, size, MADV_REMOVE);
}
