/* messages.c: shmemx_messages_sent, the transport's count of messages for the program. */
#include <shmemx.h>

#include "core/api_defs.h"
#include "transport/transport.h"

SSHMEM_DEFINE(uint64_t, shmemx_messages_sent, (void))
{
    return sshmem_tx_messages_sent();
}
