/*
 * progress_idle.c: the progress thread exists where it should (some peer reached through UCX,
 * unless SSHMEM_PROGRESS_THREAD says otherwise) and costs nothing while idle: while the
 * program sleeps, then computes, for 1 s each, the library's threads together use under 5% of
 * a CPU (process CPU time minus the main thread's).
 * sshmem-test: np=1 2 4
 */
#include <dirent.h>
#include <time.h>
#include "check.h"

#define WINDOW_S 1.0
#define MAX_SHARE 0.05

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU seconds used by every thread of this process but the calling one. */
static double other_threads_cpu(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID) - clock_s(CLOCK_THREAD_CPUTIME_ID);
}

/* Two clocks read one after the other: a difference of differences can dip below zero. */
static double at_least_zero(double x) { return x < 0 ? 0 : x; }

static int progress_thread_running(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)) && !found) {
        char path[300], name[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            found = fgets(name, sizeof name, f) && !strncmp(name, "sshmem-progress", 15);
            fclose(f);
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* The library's rule: some peer's heap or globals have no load/store view (SSHMEM_LOCAL=ucx,
 * where even this PE's own accesses go through UCX though shmem_ptr to itself works; several
 * SSHMEM_PES_PER_NODE groups; a UCX without shared memory). Collective. */
static int some_peer_through_ucx(void)
{
    static long global;
    long *heap = shmem_malloc(sizeof *heap);
    const char *local = getenv("SSHMEM_LOCAL");
    int any = local && !strcmp(local, "ucx");
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        any |= !shmem_ptr(heap, pe) || !shmem_ptr(&global, pe);
    shmem_free(heap);
    return any;
}

static void busy_for(double seconds)
{
    volatile double x = 0;
    double start = clock_s(CLOCK_MONOTONIC);
    while (clock_s(CLOCK_MONOTONIC) - start < seconds)
        for (int i = 0; i < 10000; i++)
            x += i * 0.5;
}

int main(void)
{
    shmem_init();
    const char *local = getenv("SSHMEM_LOCAL"), *pt = getenv("SSHMEM_PROGRESS_THREAD");
    int via_ucx = some_peer_through_ucx();
    int expected = pt && *pt && strcmp(pt, "auto") ? strcmp(pt, "0") != 0 : via_ucx;
    CHECK(progress_thread_running() == expected, "progress thread %s (SSHMEM_LOCAL=%s)",
          expected ? "missing" : "running where it should not", local ? local : "");
    shmem_barrier_all();

    double cpu0 = other_threads_cpu();
    struct timespec nap = {.tv_sec = (time_t)WINDOW_S, .tv_nsec = 0};
    nanosleep(&nap, NULL);
    double slept = at_least_zero(other_threads_cpu() - cpu0);
    CHECK(slept < MAX_SHARE * WINDOW_S, "library threads used %.3f s of CPU while the "
          "program slept %.1f s", slept, WINDOW_S);

    cpu0 = other_threads_cpu();
    busy_for(WINDOW_S);
    double computed = at_least_zero(other_threads_cpu() - cpu0);
    CHECK(computed < MAX_SHARE * WINDOW_S, "library threads used %.3f s of CPU while the "
          "program computed %.1f s", computed, WINDOW_S);
    if (shmem_my_pe() == 0)
        printf("progress thread %s; library threads' CPU: %.4f s asleep, %.4f s computing\n",
               expected ? "on" : "off", slept, computed);
    return check_finish();
}
