/* claim_uid.c: an LD_PRELOAD shim for security-test.sh. A process of another user that loads
 * it tells libpmix it is root (uid and gid 0): the id a PMIx client writes in its handshake
 * with a TCP server. oshrun must refuse it all the same (src/launcher/pmix_peers.c). */
#include <sys/types.h>

uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
