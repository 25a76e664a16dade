/*
 * heat.c: the 1-D heat equation, the rod cut into one piece per PE, halos exchanged with
 * put-with-signal.
 *
 * What it teaches
 *   - domain decomposition: each PE owns LOCAL points of the rod and keeps one extra "halo"
 *     point on each side, a copy of the neighbour's edge point;
 *   - shmem_double_put_signal: one call that writes the data AND then updates a signal word on
 *     the target; the signal changes only after the data has landed, so a PE that sees the
 *     signal can read the data safely (no separate fence, flag put and quiet needed);
 *   - shmem_signal_wait_until: the receiver waits on that signal word;
 *   - double buffering: the halo for step t goes into slot t % 2, so a fast neighbour sending
 *     step t + 1 can never overwrite the step-t value we have not used yet.
 *
 * The result is compared with the same computation done serially over the whole rod: the
 * same arithmetic in the same order, so the two must agree to the last bit.
 *
 *   oshcc heat.c -o heat && oshrun -np 4 ./heat
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#define LOCAL 16     /* points per PE (small: the example also runs over tcp at 8 PEs) */
#define STEPS 30     /* time steps */
#define R 0.25       /* diffusion number dt * k / dx^2; the explicit scheme needs R <= 0.5 */

/*
 * Symmetric halos and signals (globals are symmetric). halo_from_left[s] receives the left
 * neighbour's last point of step t (s = t % 2), and sig_from_left[s] is set to t + 1 once it
 * has landed. One signal per slot: a signal promises only its own data, and two
 * put-with-signal calls may land in either order (on a network they do), so one counter for
 * both slots could reach t + 1 through step t + 1's signal while step t's data is still on
 * its way. The signal words are uint64_t, the type every signal routine takes.
 */
static double halo_from_left[2], halo_from_right[2];
static uint64_t sig_from_left[2], sig_from_right[2];
static int wrong_pes; /* on PE 0: how many PEs found a wrong point */

/* The initial temperature of global point x of n: a hot spot off centre, cold ends. */
static double initial(int x, int n) { return x == n / 3 ? 100.0 : 0.0; }

/* One explicit step of u (points 1..len, with u[0] and u[len + 1] the neighbours) into v. */
static void step(const double *u, double *v, int len)
{
    for (int i = 1; i <= len; i++)
        v[i] = u[i] + R * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int n = LOCAL * npes, first = me * LOCAL; /* global size; my first global point */
    int left = me - 1, right = me + 1;        /* no wrap-around: the rod has two ends */

    /* Private (not symmetric) arrays: u holds my points at 1..LOCAL plus the two halos. */
    double u[LOCAL + 2], v[LOCAL + 2];
    for (int i = 1; i <= LOCAL; i++)
        u[i] = initial(first + i - 1, n);
    u[0] = u[LOCAL + 1] = v[0] = v[LOCAL + 1] = 0.0; /* the rod's ends stay at 0 degrees */

    /* Every PE must be initialised before anyone puts into it. */
    shmem_barrier_all();

    for (int t = 0; t < STEPS; t++) {
        int slot = t % 2;
        /* Send my edge points: my first point is the right halo of my left neighbour, my last
         * point the left halo of my right neighbour; the slot's signal says "step t is here". */
        if (left >= 0)
            shmem_double_put_signal(&halo_from_right[slot], &u[1], 1, &sig_from_right[slot],
                                    (uint64_t)t + 1, SHMEM_SIGNAL_SET, left);
        if (right < npes)
            shmem_double_put_signal(&halo_from_left[slot], &u[LOCAL], 1, &sig_from_left[slot],
                                    (uint64_t)t + 1, SHMEM_SIGNAL_SET, right);

        /* Receive: step t's halo from a side is here once that slot's signal reads t + 1; the
         * signal was raised only after its data landed. */
        if (left >= 0) {
            shmem_signal_wait_until(&sig_from_left[slot], SHMEM_CMP_EQ, (uint64_t)t + 1);
            u[0] = halo_from_left[slot];
        }
        if (right < npes) {
            shmem_signal_wait_until(&sig_from_right[slot], SHMEM_CMP_EQ, (uint64_t)t + 1);
            u[LOCAL + 1] = halo_from_right[slot];
        }

        step(u, v, LOCAL);
        for (int i = 1; i <= LOCAL; i++)
            u[i] = v[i];
        /* Why slot t % 2 is safe to overwrite at step t + 2: a neighbour sends step t + 2 only
         * after computing step t + 1, which needed OUR step t + 1 halo, which we sent only
         * after we had finished using slot t % 2 (step t). No barrier is needed per step. */
    }

    /* The check: every PE runs the whole rod serially and compares its own piece. */
    double *all = malloc((n + 2) * sizeof *all), *next = malloc((n + 2) * sizeof *next);
    for (int x = 0; x < n; x++)
        all[x + 1] = initial(x, n);
    all[0] = all[n + 1] = next[0] = next[n + 1] = 0.0;
    for (int t = 0; t < STEPS; t++) {
        step(all, next, n);
        double *swap = all; all = next; next = swap;
    }
    int ok = 1;
    for (int i = 1; i <= LOCAL; i++)
        if (u[i] - all[first + i] > 1e-12 || all[first + i] - u[i] > 1e-12) {
            printf("PE %d: point %d is %.15g, the serial run gives %.15g\n", me, first + i - 1,
                   u[i], all[first + i]);
            ok = 0;
        }
    free(all);
    free(next);

    /* Tell PE 0 whether this piece was right (an atomic add: PEs may report at once). */
    if (!ok)
        shmem_int_atomic_add(&wrong_pes, 1, 0);
    shmem_barrier_all(); /* also: nobody leaves while a neighbour may still put into it */
    if (me == 0)
        printf("heat: %d points on %d PEs, %d steps, %d PEs differ from the serial run: %s\n",
               n, npes, STEPS, wrong_pes, wrong_pes ? "WRONG" : "OK");
    shmem_finalize();
    return !ok;
}
