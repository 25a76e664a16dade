/*
 * work_queue.c: a shared queue of tasks handed out by a fetch-and-increment counter, with a
 * lock guarding a shared log.
 *
 * What it teaches
 *   - shmem_long_atomic_fetch_inc: "take a ticket". Every PE asks PE 0's counter for the next
 *     task number; the atomic guarantees that no two PEs get the same number and no number
 *     is skipped, however many ask at once. Fast PEs simply take more tasks (load balance);
 *   - shmem_set_lock / shmem_clear_lock: mutual exclusion across PEs, for an update made of
 *     several steps (here: read the log length, write an entry, write the new length) that
 *     must not interleave with another PE's;
 *   - why the lock alone does not order remote writes: clear_lock completes our puts first
 *     (it implies shmem_quiet), so the next lock holder sees them.
 *
 * Checks: every task was done exactly once (done[] on PE 0 counts executions per task), the
 * log on PE 0 has one entry per task, and the per-task results are right.
 *
 *   oshcc work_queue.c -o work_queue && oshrun -np 4 ./work_queue
 */
#include <shmem.h>
#include <stdio.h>

#define TASKS 40

static long next_task;          /* on PE 0: the ticket counter */
static long lock;               /* a lock: a symmetric long, zero before first use */
static long log_length;         /* on PE 0: entries in the log */
static long log_task[TASKS];    /* on PE 0: which task each entry reports */
static long log_result[TASKS];  /* on PE 0: its result */
static int done[TASKS];         /* on PE 0: how often each task was executed */

/* The "work": something whose answer is easy to check. */
static long task_result(long task) { return task * task + 1; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_barrier_all(); /* PE 0's counter and log exist before anyone uses them */

    long my_tasks = 0;
    for (;;) {
        long task = shmem_long_atomic_fetch_inc(&next_task, 0); /* take a ticket */
        if (task >= TASKS)
            break; /* the queue is empty */
        long result = task_result(task);
        my_tasks++;
        shmem_int_atomic_inc(&done[task], 0); /* counts executions; two would be a bug */

        /* Append (task, result) to the log on PE 0. Three remote operations that belong
         * together: without the lock two PEs could read the same length and write the same
         * slot. */
        shmem_set_lock(&lock);
        long slot = shmem_long_g(&log_length, 0);
        shmem_long_p(&log_task[slot], task, 0);
        shmem_long_p(&log_result[slot], result, 0);
        shmem_long_p(&log_length, slot + 1, 0);
        shmem_clear_lock(&lock); /* completes the three puts before the next holder reads */
    }

    shmem_barrier_all(); /* all tasks done and logged */

    int ok = 1;
    if (me == 0) {
        if (log_length != TASKS) {
            printf("the log has %ld entries, expected %d\n", log_length, TASKS);
            ok = 0;
        }
        int seen[TASKS] = {0};
        for (long i = 0; i < log_length && i < TASKS; i++) {
            long t = log_task[i];
            if (t < 0 || t >= TASKS || seen[t]++ || log_result[i] != task_result(t)) {
                printf("log entry %ld is wrong: task %ld result %ld\n", i, t, log_result[i]);
                ok = 0;
            }
        }
        for (int t = 0; t < TASKS; t++)
            if (done[t] != 1) {
                printf("task %d was executed %d times\n", t, done[t]);
                ok = 0;
            }
    }
    printf("PE %d did %ld tasks\n", me, my_tasks);
    shmem_barrier_all();
    if (me == 0)
        printf("work queue: %d tasks on %d PEs, each done exactly once: %s\n", TASKS, npes,
               ok ? "OK" : "WRONG");
    shmem_finalize();
    return !ok;
}
