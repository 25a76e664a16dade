/*
 * space_layout.c: the parts of the library's internal symmetric space and their sizes (see
 * space_layout.h and core/space.h). Pure: no state, no calls into the runtime, so start-up,
 * oshinfo and the unit test all lay the space out with the same function.
 *
 * The unit sizes come from the headers of the parts' owners (constants only): whoever grows
 * a team's state or a lock node grows the space with it, and nobody keeps a second copy.
 */
#include <stdio.h>

#include "api/space_layout.h"
#include "core/env.h"
#include "core/profile.h"
#include "sync/hang.h"
#include "sync/lock.h"
#include "team/team.h"

static const char *const part_names[SSHMEM_SPACE_PARTS] = {
    [SSHMEM_SPACE_TEAMS_PREDEFINED] = "predefined teams",
    [SSHMEM_SPACE_TEAM_POOL] = "split-team pool",
    [SSHMEM_SPACE_LOCKS] = "lock queue nodes",
    [SSHMEM_SPACE_HANG] = "hang-report record",
    [SSHMEM_SPACE_PROFILE] = "profile row",
    [SSHMEM_SPACE_DEBUG_FLAGS] = "SHMEM_DEBUG flags",
    [SSHMEM_SPACE_DEBUG_MAILBOX] = "SHMEM_DEBUG mailboxes",
};

const char *sshmem_space_part_name(sshmem_space_part_t part)
{
    return (unsigned)part < SSHMEM_SPACE_PARTS ? part_names[part] : "?";
}

sshmem_space_settings_t sshmem_space_settings(long n_pes, const struct sshmem_env *env)
{
    sshmem_space_settings_t s = {
        .n_pes = n_pes,
        .teams_max = env->teams_max,
        .locks_max = env->locks_max,
        .debug = env->debug,
        .profile = env->profile && *env->profile,
    };
    return s;
}

int sshmem_space_settings_check(const sshmem_space_settings_t *s, char *why, size_t why_len)
{
    if (s->n_pes < 1)
        snprintf(why, why_len, "a job of %ld PEs has no PE", s->n_pes);
    else if (s->teams_max < 1 || s->teams_max > SSHMEM_TEAMS_MAX_LIMIT)
        snprintf(why, why_len, "SSHMEM_TEAMS_MAX=%ld is out of range: set it from 1 to %d",
                 s->teams_max, SSHMEM_TEAMS_MAX_LIMIT);
    else if (s->locks_max < 1 || s->locks_max > SSHMEM_LOCKS_MAX_LIMIT)
        snprintf(why, why_len, "SSHMEM_LOCKS_MAX=%ld is out of range: set it from 1 to %d",
                 s->locks_max, SSHMEM_LOCKS_MAX_LIMIT);
    else
        return 0;
    return -1;
}

/* The bytes of each part: the whole of the library's appetite, in one place. */
static void part_sizes(const sshmem_space_settings_t *s, size_t size[SSHMEM_SPACE_PARTS])
{
    size_t n = (size_t)s->n_pes;
    size[SSHMEM_SPACE_TEAMS_PREDEFINED] =
        sshmem_team_state_bytes(s->n_pes, 0, SSHMEM_TEAM_KIND_WORLD) +
        sshmem_team_state_bytes(s->n_pes, 0, SSHMEM_TEAM_KIND_SHARED);
    size[SSHMEM_SPACE_TEAM_POOL] =
        (size_t)s->teams_max *
        sshmem_team_state_bytes(s->n_pes, s->teams_max, SSHMEM_TEAM_KIND_SPLIT);
    size[SSHMEM_SPACE_LOCKS] = (size_t)s->locks_max * SSHMEM_LOCK_NODE_BYTES;
    size[SSHMEM_SPACE_HANG] = SSHMEM_HANG_AREA_BYTES;
    int profile = s->profile && n <= SSHMEM_SPACE_PROFILE_MAX_PES;
    size[SSHMEM_SPACE_PROFILE] =
        profile ? sizeof(sshmem_profile_row_t) + n * sizeof(sshmem_profile_cell_t) : 0;
    int debug = s->debug && n <= SSHMEM_SPACE_DEBUG_MAX_PES;
    size[SSHMEM_SPACE_DEBUG_FLAGS] = debug ? 2 * n * sizeof(long) : 0;
    size[SSHMEM_SPACE_DEBUG_MAILBOX] = debug ? n * SSHMEM_SPACE_DEBUG_DESC_BYTES : 0;
}

void sshmem_space_plan(const sshmem_space_settings_t *s, sshmem_space_layout_t *out)
{
    size_t size[SSHMEM_SPACE_PARTS], at = 0;
    part_sizes(s, size);
    for (int p = 0; p < SSHMEM_SPACE_PARTS; p++) {
        out->part[p].offset = at;
        out->part[p].size = size[p];
        at += (size[p] + SSHMEM_SPACE_ALIGN - 1) & ~(size_t)(SSHMEM_SPACE_ALIGN - 1);
    }
    out->total = (at + SSHMEM_SPACE_PAGE - 1) & ~(size_t)(SSHMEM_SPACE_PAGE - 1);
}

/* "12.5 KiB": bytes in the largest unit that keeps a number >= 1. */
static void print_bytes(FILE *f, size_t n)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    fprintf(f, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

void sshmem_space_print(void *file, const sshmem_space_layout_t *layout)
{
    FILE *f = file;
    print_bytes(f, layout->total);
    fprintf(f, " (%zu bytes):", layout->total);
    const char *sep = " ";
    for (int p = 0; p < SSHMEM_SPACE_PARTS; p++) {
        if (!layout->part[p].size)
            continue;
        fprintf(f, "%s%s ", sep, part_names[p]);
        print_bytes(f, layout->part[p].size);
        sep = ", ";
    }
    fputc('\n', f);
}
