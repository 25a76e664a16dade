#!/bin/bash
# oshinfo-test.sh: oshinfo prints the versions and every environment variable of the table,
# shows a value set in the environment, and rejects a malformed one; it prints the library's
# internal symmetric space for a PE count, which follows SSHMEM_TEAMS_MAX. TAP output.
oshinfo="${SSHMEM_TEST_BUILDDIR:-.}/oshinfo"
n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo "1..13"
out=$("$oshinfo"); ok "oshinfo exits 0" $?
grep -q "^OpenSHMEM: *1.6" <<<"$out"; ok "prints the OpenSHMEM version" $?
grep -q "^UCX: *[0-9]" <<<"$out" && grep -q "^PMIx:" <<<"$out"; ok "prints UCX and PMIx versions" $?
# The UCX-version workarounds are named: all of them up to UCX 1.13, none after.
ucx=$(sed -n 's/^UCX: *\([0-9]*\)\.\([0-9]*\)\..*/\1 \2/p' <<<"$out")
read -r major minor <<<"$ucx"
if [ "${major:-0}" -lt 1 ] || { [ "${major:-0}" -eq 1 ] && [ "${minor:-0}" -le 13 ]; }; then
    grep -q "^UCX workarounds: *fetching AND/OR/XOR as CAS loops, atomics on globals fetch, quiet probes emulated peers, fence flushes" <<<"$out"
else
    grep -q "^UCX workarounds: *none" <<<"$out"
fi
ok "names the UCX workarounds chosen for this UCX ($major.$minor)" $?
missing=0
for v in SHMEM_SYMMETRIC_SIZE SHMEM_INFO SHMEM_DEBUG SSHMEM_LOCAL SSHMEM_SPIN; do
    grep -q "^$v " <<<"$out" || missing=1
done
ok "lists every environment variable" $missing
SHMEM_SYMMETRIC_SIZE=1G "$oshinfo" --env | grep -q "^SHMEM_SYMMETRIC_SIZE *1G *256M"
ok "shows the value set and the default" $?
SMA_SYMMETRIC_SIZE=2G "$oshinfo" --env | grep -q "^SHMEM_SYMMETRIC_SIZE *2G"
ok "reads the old SMA_ name" $?
err=$(SHMEM_SYMMETRIC_SIZE=lots "$oshinfo" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "SHMEM_SYMMETRIC_SIZE='lots' is not valid" <<<"$err"
ok "rejects a malformed value with a message" $?
# The internal space (src/api/space_layout.c): under 11 MiB at 2 PEs by default, and at
# 65,536 PEs the predefined teams' steps (28 MiB each) and the split teams' shared 32 MiB
# (team/team.h); 32 more teams cost 32 team states more, their steps sharing the same
# budget; an out-of-range setting is refused.
small=$("$oshinfo" --space 2 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
big=$("$oshinfo" --space 65536 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
[ -n "$small" ] && [ "$small" -lt $((11 * 1024 * 1024)) ] && [ "$big" -lt $((94 * 1024 * 1024)) ] &&
    grep -q "65536 PEs: .*split-team pool" <<<"$("$oshinfo")"
ok "the internal space at 2 and 65,536 PEs: $small and $big bytes" $?
more=$(SSHMEM_TEAMS_MAX=64 "$oshinfo" --space 65536 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
[ -n "$more" ] && [ $((more - big)) -ge $((32 * 45 * 1024)) ] && [ $((more - big)) -le $((32 * 52 * 1024)) ]
ok "SSHMEM_TEAMS_MAX=64 adds 32 team states ($big -> $more bytes)" $?
err=$(SSHMEM_TEAMS_MAX=5000 "$oshinfo" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "SSHMEM_TEAMS_MAX=5000 is out of range: set it from 1 to 1024" <<<"$err"
ok "rejects SSHMEM_TEAMS_MAX out of range with a message" $?
# shmem4py's flags: every feature it asks about, each backed by the library's own routines
# (one representative each), and a program using them builds with the flags and oshcc.
flags=$("$oshinfo" --shmem4py-cflags)
[ "$(wc -w <<<"$flags")" -eq 20 ] && ! grep -q -v -- "-DPySHMEM_HAVE_[A-Za-z_]*=1" <<<"$(tr ' ' '\n' <<<"$flags")"
ok "--shmem4py-cflags names the 20 features shmem4py asks about" $?
lib=$(ls "${SSHMEM_TEST_BUILDDIR:-.}"/.libs/libsshmem.so 2>/dev/null)
tmp=$(mktemp -d)
cat >"$tmp/s4p.c" <<'PROGRAM'
#include <shmem.h>
int main(void)
{
    shmem_init();
    shmem_team_t team = SHMEM_TEAM_WORLD;
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    long *p = shmem_malloc_with_hints(64 * sizeof(long), 0);
    uint64_t sig = 0;
    int one = 1, got, idx = 0;
    size_t any;
    shmem_int_atomic_fetch_add_nbi(&got, (int *)p, one, 0);
    shmem_putmem_signal(p, &one, sizeof one, &sig, 1, SHMEM_SIGNAL_SET, 0);
    (void)shmem_signal_fetch(&sig);
    shmem_quiet();
    (void)shmem_signal_wait_until((uint64_t *)p + 8, SHMEM_CMP_GE, 0);
    shmem_long_broadcast(team, p + 16, p, 1, 0);
    shmem_long_collect(team, p + 16, p, 1);
    shmem_long_fcollect(team, p + 16, p, 1);
    shmem_long_alltoall(team, p + 16, p, 1);
    shmem_long_alltoalls(team, p + 16, p, 1, 1, 1);
    shmem_broadcastmem(team, p + 16, p, 8, 0);
    shmem_collectmem(team, p + 16, p, 8);
    shmem_fcollectmem(team, p + 16, p, 8);
    shmem_alltoallmem(team, p + 16, p, 8);
    shmem_alltoallsmem(team, p + 16, p, 1, 1, 8);
    shmem_long_sum_reduce(team, p + 16, p, 1);
    any = shmem_int_test_any((int *)p, 1, NULL, SHMEM_CMP_GE, 0);
    shmem_pcontrol(1);
    (void)ctx; (void)any; (void)idx;
    shmem_free(p);
    shmem_finalize();
    return 0;
}
PROGRAM
# shellcheck disable=SC2086
${CC:-cc} -Werror -I"${SSHMEM_TEST_SRCDIR:-.}/include" -I"${SSHMEM_TEST_BUILDDIR:-.}/include" \
    $flags "$tmp/s4p.c" "$lib" -o "$tmp/s4p" >"$tmp/log" 2>&1
rc=$?
[ -n "$lib" ] && [ $rc -eq 0 ]
ok "a program using each of those features builds with the flags" $?
[ $rc -eq 0 ] || head -5 "$tmp/log" | sed 's/^/# /'
rm -rf "$tmp"
