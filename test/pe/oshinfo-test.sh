#!/bin/bash
# oshinfo-test.sh: oshinfo prints the versions and every environment variable of the table,
# shows a value set in the environment, and rejects a malformed one; it prints the library's
# internal symmetric space for a PE count, which follows SSHMEM_TEAMS_MAX. TAP output.
oshinfo="${SSHMEM_TEST_BUILDDIR:-.}/oshinfo"
n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo "1..11"
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
# The internal space (src/api/space_layout.c): the same at 2 and 65,536 PEs by default;
# 32 more teams cost 32 team states more; an out-of-range setting is refused.
small=$("$oshinfo" --space 2 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
big=$("$oshinfo" --space 65536 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
[ -n "$small" ] && [ "$small" = "$big" ] && [ "$big" -lt $((6 * 1024 * 1024)) ] &&
    grep -q "65536 PEs: .*split-team pool" <<<"$("$oshinfo")"
ok "the internal space at 2 and 65,536 PEs: $small and $big bytes" $?
more=$(SSHMEM_TEAMS_MAX=64 "$oshinfo" --space 65536 | sed -n 's/.*PEs: .*(\([0-9]*\) bytes).*/\1/p')
[ -n "$more" ] && [ $((more - big)) -ge $((32 * 48 * 1024)) ] && [ $((more - big)) -le $((32 * 50 * 1024)) ]
ok "SSHMEM_TEAMS_MAX=64 adds 32 team states ($big -> $more bytes)" $?
err=$(SSHMEM_TEAMS_MAX=5000 "$oshinfo" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "SSHMEM_TEAMS_MAX=5000 is out of range: set it from 1 to 1024" <<<"$err"
ok "rejects SSHMEM_TEAMS_MAX out of range with a message" $?
