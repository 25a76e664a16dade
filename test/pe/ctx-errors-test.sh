#!/bin/bash
# ctx-errors-test.sh: mistakes with contexts and thread levels end the job with a message
# that names the PE, the call and the fix. Uses the test/pe/ctx_errors program. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/ctx_errors"
launcher="${OSHRUN:-oshrun}"
cases=(
    "destroy_default|shmem_ctx_destroy: SHMEM_CTX_DEFAULT cannot be destroyed"
    "destroy_twice|shmem_ctx_destroy: ctx .* is not a live context"
    "bad_options|shmem_ctx_create: options 0x40 has unknown bits 0x40; pass 0 or a bitwise OR"
    "null_ctx|shmem_ctx_create: ctx is NULL"
    "team_ctx_pe|shmem_ctx_long_p: PE 1 is not in the context's team (it has 1 PEs: 0..0)"
    "invalid_ctx_put|shmem_ctx_long_p: ctx is SHMEM_CTX_INVALID"
    "bad_thread_level|shmem_init_thread: requested thread level 42 is not one of"
)
echo "1..$(( ${#cases[@]} * 2 ))"
n=0
for c in "${cases[@]}"; do
    what="${c%%|*}"
    want="${c#*|}"
    log=$(mktemp)
    timeout -k 2 30 "$launcher" -np 2 "$prog" "$what" >"$log" 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then echo "ok $n - $what: the job fails (status $rc)"
    else echo "not ok $n - $what: the job fails (status $rc)"; fi
    n=$((n + 1))
    if grep -q "sshmem: .*$want" "$log"; then echo "ok $n - $what: the message says '$want'"
    else echo "not ok $n - $what: the message says '$want'"; sed 's/^/# /' "$log" | head -5; fi
    rm -f "$log"
done
