#!/bin/bash
# hang-test.sh: SSHMEM_HANG_TIMEOUT turns a hung job into a report naming the PEs that never
# arrived and where every PE waits, then ends the whole job (no process left) within seconds.
# Runs at 2 and 4 PEs, direct and SSHMEM_LOCAL=ucx. TAP output. The processes counted are
# the job's own (job-end.sh's marker), not every hang_mistakes on the machine.
. "$(dirname "$0")/job-end.sh"
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/hang_mistakes"
launcher="${OSHRUN:-oshrun}"
limit=15 # seconds: 2 of timeout, then start-up and the report (more under load: ../busy.sh)
cases=(
  # name | patterns the report must contain
  "skip_barrier|: shmem_barrier_all: no progress for 2 s (SSHMEM_HANG_TIMEOUT=2)|PE 1: not arrived at shmem_barrier_all: not in any sshmem wait (computing, or waiting elsewhere)|PE 0: arrived, in shmem_barrier_all|PE(s) 1 never arrived"
  "skip_team_sync|: shmem_team_sync: no progress for 2 s|PE 1: not arrived at shmem_team_sync: not in any sshmem wait|PE(s) 1 never arrived"
  "nobody_sets|: shmem_long_wait_until: no progress for 2 s|PE 0: in shmem_long_wait_until on 0x|PE 1: in shmem_long_wait_until on 0x|(global data offset |waited 2 s for a value nobody set"
)
nps="2 4"
envs=("SSHMEM_LOCAL=direct" "SSHMEM_LOCAL=ucx")
echo "1..$(( ${#cases[@]} * 2 * ${#envs[@]} * 3 ))"
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
for np in $nps; do
    for env in "${envs[@]}"; do
        for c in "${cases[@]}"; do
            IFS='|' read -r -a f <<<"$c"
            name="${f[0]}" log=$(mktemp)
            start=$SECONDS
            job_run 60 env $env SSHMEM_HANG_TIMEOUT=2 "$launcher" -np "$np" "$prog" "$name" \
                >"$log" 2>&1
            rc=$job_rc took=$((SECONDS - start)) allow=$(busy_allowance $limit)
            what="$name np=$np $env"
            ok $([ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $took -le $allow ]; echo $?) \
                "$what: the job ended with status $rc after $took s (limit $limit, $allow at this load)"
            missing=""
            for p in "${f[@]:1}"; do
                grep -qF -- "$p" "$log" || missing="$missing [$p]"
            done
            ok $([ -z "$missing" ]; echo $?) "$what: the report names the PEs and waits${missing:+, lacks$missing}"
            [ -z "$missing" ] || sed 's/^/# /' "$log" | head -12
            for i in $(seq 10); do
                left=$(job_processes | wc -l)
                [ "$left" = 0 ] && break
                sleep 0.1
            done
            ok $([ "$left" = 0 ]; echo $?) "$what: no process left ($left)"
            rm -f "$log"
        done
    done
done
