#!/bin/bash
# netns-rsh.sh: the "remote shell" netns-test.sh gives mpirun (plm_rsh_agent). mpirun calls it
# as ssh: netns-rsh.sh [options] HOST COMMAND... It reaches the "host" HOST (an address) by
# entering the network namespace that owns it, in a UTS namespace of its own named after that
# namespace (so every host has its own host name, as real hosts do), and runs COMMAND there
# with sh -c, as sshd would. NETNS_RSH_HOSTS lists the hosts: "address=namespace ...".
while [[ $# -gt 0 && "$1" == -* ]]; do shift; done # mpirun gives a non-ssh agent none; be lenient
host="$1"
shift
ns=""
for pair in $NETNS_RSH_HOSTS; do
    [ "${pair%%=*}" = "$host" ] && ns="${pair#*=}"
done
if [ -z "$ns" ]; then
    echo "netns-rsh.sh: unknown host '$host' (NETNS_RSH_HOSTS='$NETNS_RSH_HOSTS')" >&2
    exit 255 # what ssh returns when it cannot reach a host
fi
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$0" && eval "$1"' "$ns" "$*"
