/*
 * heap_file.c: the symmetric heap as a memory file of sshmem's own (memfd).
 *
 * A memory file has no name: nothing of it outlives the processes that map it, whatever
 * ends them, and it takes no entry of a host-wide table (SysV's kernel.shmmni capped a host
 * near 1,365 PEs). Peers open it through /proc/PID/fd, which only the same user may do. Its
 * pages become real memory when touched, not before: a large heap costs nothing at start-up.
 * UCX registers it for remote peers; an on-node peer never reaches it through UCX (UCX 1.13
 * would emulate every operation on such memory with messages).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/error.h"
#include "heap/heap_file.h"

/* An address range of `size` bytes aligned to `align`, reserved (PROT_NONE, no memory behind
 * it): a reservation of size + align bytes trimmed to the aligned part. NULL if there is no
 * such room. */
static void *reserve_aligned(size_t size, size_t align)
{
    void *r = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (r == MAP_FAILED)
        return NULL;
    uintptr_t start = (uintptr_t)r, at = (start + align - 1) & ~(uintptr_t)(align - 1);
    if (at > start)
        munmap(r, at - start);
    munmap((void *)(at + size), start + align - at);
    return (void *)at;
}

/* The limit behind errno `err` of memfd_create, ftruncate or mmap, and its remedy. */
static const char *limit_of(int err)
{
    switch (err) {
    case EMFILE:
        return "this PE's open-file limit is reached: raise it (ulimit -n; oshrun passes it on)";
    case ENFILE:
        return "the host's open-file table is full: raise fs.file-max (sysctl)";
    case ENOMEM:
        return "no address space or memory for it: lower SHMEM_SYMMETRIC_SIZE, or raise the "
               "address-space limit (ulimit -v) or vm.max_map_count (sysctl)";
    case EFBIG:
        return "the file-size limit is below it: raise it (ulimit -f)";
    default:
        return "lower SHMEM_SYMMETRIC_SIZE or free memory";
    }
}

SSHMEM_NORETURN static void fail(const char *step, int err, size_t size)
{
    char b[32];
    sshmem_fatal("shmem_init", "cannot make the symmetric heap of %s in shared memory (%s: %s): "
                 "%s", sshmem_human_bytes(size, b), step, strerror(err), limit_of(err));
}

void *sshmem_heap_file_map(size_t size, size_t align, int *fd)
{
    int f = memfd_create("sshmem-heap", MFD_CLOEXEC);
    if (f < 0)
        fail("memfd_create", errno, size);
    if (ftruncate(f, (off_t)size) != 0) /* sparse: no page yet */
        fail("ftruncate", errno, size);
    void *at = reserve_aligned(size, align);
    void *p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0), f, 0);
    if (p == MAP_FAILED)
        fail("mmap", errno, size);
    *fd = f;
    return p;
}
