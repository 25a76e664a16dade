/*
 * profile_counters.c: the traffic profile's counting side (core/profile.h): the switch and
 * row every layer counts into, and the clock the barrier and wait hooks read. Who turns it
 * on and gathers the rows is src/watch/profile_gather.c, above the layers it counts.
 */
#include <time.h>

#include "core/profile.h"

struct sshmem_profile sshmem_profile;

uint64_t sshmem_profile_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
