/* finalize_mark.c: telling oshrun that this PE called shmem_finalize.
 *
 * oshrun gives each PE a lifeline, a file the PE keeps open until it ends
 * (src/launcher/lifeline.c), and names it in SSHMEM_LIFELINE=FD:INODE. One byte written into
 * it says "finalized" before the process exits, so when oshrun reaps a PE that exited with 0
 * it knows for sure, however busy the host: PMIx's notice of PMIx_Finalize may reach
 * oshrun's server after the reap (libpmix's client stops waiting for the answer after 2 s).
 * Under another launcher the variable is absent and this does nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/boot.h"

void sshmem_boot_mark_finalized(void)
{
    const char *var = getenv("SSHMEM_LIFELINE");
    int fd;
    unsigned long long inode;
    struct stat st;
    if (!var || sscanf(var, "%d:%llu", &fd, &inode) != 2)
        return;
    /* The program may have closed the descriptor and reused the number: write only into the
     * very file oshrun made. */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_ino != inode)
        return;
    ssize_t w = pwrite(fd, "f", 1, 0);
    (void)w;
}
