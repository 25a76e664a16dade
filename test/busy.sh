# busy.sh: sourced by the test scripts whose checks say a job ends "within N s" of something
# (job-end.sh for crash-test.sh, fault-test.sh and hang-test.sh; error-cases.sh).
#
# Such a check measures how promptly sshmem and oshrun react (a PE dies, the others must end):
# a reaction that takes CPU time. On a machine that runs more than it has CPUs (make -j2 check
# runs two tests at once, 8-PE tests oversubscribe 2 cores, other jobs may run beside), every
# process waits its turn, and a reaction far below N s on an idle machine can take longer.
# A test must not fail only because the machine is busy, so the allowance grows with the
# load: N s times the number of runnable processes per CPU (the 1-minute load average over
# the CPU count), never less than N s. On an idle machine the check is as strict as written;
# a reaction that is really slow is still caught there, and a hang is caught by each run's
# timeout on any machine.
#
#   busy_factor          the load per CPU now, at least 1 (a decimal, e.g. 1 or 7.5)
#   busy_allowance MS    MS scaled by busy_factor, a whole number (same unit as MS)

busy_factor() {
    awk -v cpus="$(nproc 2>/dev/null || echo 1)" \
        '{ f = $1 / cpus; if (f < 1) f = 1; printf "%.1f\n", f; exit }' /proc/loadavg 2>/dev/null ||
        echo 1
}

busy_allowance() {
    awk -v base="$1" -v f="$(busy_factor)" 'BEGIN { printf "%d\n", base * f }'
}
