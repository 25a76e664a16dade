/*
 * sysv_leave.c: a PE that leaves a SysV segment behind, as UCX's sysv transport does when a PE
 * dies between creating a segment and marking it for removal (src/launcher/sysv.h). It
 * creates a private segment, appends its id to the file argv[1], and then exits ("exit") or
 * waits to be killed ("hold"). Not a test by itself: shm-cleanup-test.sh checks that the
 * segment is gone once the job is.
 */
#include <stdio.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    if (id < 0) {
        perror("sysv_leave: shmget");
        return 1;
    }
    FILE *f = fopen(argv[1], "a");
    if (!f)
        return 1;
    fprintf(f, "%d\n", id);
    fclose(f);
    if (strcmp(argv[2], "hold") == 0)
        pause();
    return 0;
}
