/*
 * test_space_layout.c: the library's internal symmetric space laid out for jobs of 1 to
 * 65,536 PEs with the function start-up uses (no processes): every part in bounds, aligned,
 * apart from the others and big enough for what its owner puts there; the total stays
 * modest and is printed; settings out of range are refused with a sentence naming the
 * variable and its bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/profile.h"
#include "api/space_layout.h"
#include "sync/hang.h"
#include "sync/lock.h"
#include "team/team.h"

static sshmem_space_settings_t settings(long n_pes, long teams, long locks, int debug,
                                        int profile)
{
    sshmem_space_settings_t s = {n_pes, teams, locks, debug, profile};
    return s;
}

/* What each part must hold at least, computed here from the owners' own units. */
static size_t least(const sshmem_space_settings_t *s, int part)
{
    size_t n = (size_t)s->n_pes;
    switch (part) {
    case SSHMEM_SPACE_TEAMS_PREDEFINED:
        return sshmem_team_state_bytes(s->n_pes, 0, SSHMEM_TEAM_KIND_WORLD) +
               sshmem_team_state_bytes(s->n_pes, 0, SSHMEM_TEAM_KIND_SHARED);
    case SSHMEM_SPACE_TEAM_POOL:
        return (size_t)s->teams_max *
               sshmem_team_state_bytes(s->n_pes, s->teams_max, SSHMEM_TEAM_KIND_SPLIT);
    case SSHMEM_SPACE_LOCKS: return (size_t)s->locks_max * SSHMEM_LOCK_NODE_BYTES;
    case SSHMEM_SPACE_HANG: return SSHMEM_HANG_AREA_BYTES;
    case SSHMEM_SPACE_PROFILE:
        return s->profile && n <= SSHMEM_SPACE_PROFILE_MAX_PES
                   ? sizeof(sshmem_profile_row_t) + n * sizeof(sshmem_profile_cell_t) : 0;
    case SSHMEM_SPACE_DEBUG_FLAGS:
        return s->debug && n <= SSHMEM_SPACE_DEBUG_MAX_PES ? 2 * n * sizeof(long) : 0;
    case SSHMEM_SPACE_DEBUG_MAILBOX:
        return s->debug && n <= SSHMEM_SPACE_DEBUG_MAX_PES ? n * SSHMEM_SPACE_DEBUG_DESC_BYTES : 0;
    }
    return 0;
}

/* Lay s out and check every part; returns the total. */
static size_t check_layout(const sshmem_space_settings_t *s)
{
    char why[200];
    sshmem_space_layout_t l;
    assert_int_equal(sshmem_space_settings_check(s, why, sizeof why), 0);
    memset(&l, 0xa5, sizeof l);
    sshmem_space_plan(s, &l);
    assert_true(l.total % SSHMEM_SPACE_PAGE == 0);
    for (int p = 0; p < SSHMEM_SPACE_PARTS; p++) {
        const sshmem_space_region_t *r = &l.part[p];
        assert_int_equal(r->size, least(s, p));
        assert_true(r->offset % SSHMEM_SPACE_ALIGN == 0);
        assert_true(r->offset + r->size <= l.total); /* in bounds, no overflow */
        assert_true(r->offset <= l.total);
        for (int q = 0; q < p; q++) { /* apart from every other used part */
            const sshmem_space_region_t *o = &l.part[q];
            if (r->size && o->size)
                assert_true(r->offset + r->size <= o->offset || o->offset + o->size <= r->offset);
        }
        assert_non_null(sshmem_space_part_name(p));
    }
    /* A team state is a whole number of cache lines, so every pool slot is aligned too. */
    assert_true(SSHMEM_TEAM_STATE_BYTES % SSHMEM_SPACE_ALIGN == 0);
    assert_true(SSHMEM_TEAM_PREDEFINED_STATE_BYTES % SSHMEM_SPACE_ALIGN == 0);
    assert_true(sshmem_team_steps_half(s->n_pes, SSHMEM_TEAM_KIND_WORLD) % SSHMEM_SPACE_ALIGN == 0);
    return l.total;
}

static void print_layout(const char *what, const sshmem_space_settings_t *s)
{
    sshmem_space_layout_t l;
    sshmem_space_plan(s, &l);
    printf("# %s, %ld PEs: ", what, s->n_pes);
    sshmem_space_print(stdout, &l);
}

static void job_of_65536_pes_fits(void **state)
{
    (void)state;
    sshmem_space_settings_t s = settings(65536, 32, 256, 0, 0);
    size_t total = check_layout(&s);
    print_layout("defaults", &s);
    /* The predefined teams' steps, 28 MiB each, and the split teams' budget of 32 MiB. */
    assert_true(total < ((size_t)94 << 20));
    /* Beside a per-PE tool, only the predefined teams' steps (team/team.h) grow with the PE
     * count, as n log2 n; the split teams' share a fixed budget. */
    sshmem_space_settings_t small = settings(2, 32, 256, 0, 0);
    assert_true(check_layout(&small) < ((size_t)11 << 20)); /* 10.6 MiB */
    print_layout("defaults", &small);
    sshmem_space_settings_t mid = settings(1024, 32, 256, 0, 0);
    assert_true(check_layout(&mid) < ((size_t)20 << 20)); /* 19.2 MiB */
    print_layout("defaults", &mid);
}

static void per_pe_tools_are_bounded(void **state)
{
    (void)state;
    long counts[] = {1, 2, 3, 1024, 4096, 16383, 16384, 65536};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        sshmem_space_settings_t s = settings(counts[i], 32, 256, 1, 1);
        size_t total = check_layout(&s);
        assert_true(total < ((size_t)103 << 20)); /* 65,536 PEs: the above and 9 MiB */
        if (counts[i] == 2 || counts[i] == 1024 || counts[i] == 65536)
            print_layout("SHMEM_DEBUG and SSHMEM_PROFILE", &s);
    }
    /* One past the profile's bound: the row is left out (the profile warns and stays off). */
    sshmem_space_layout_t l;
    sshmem_space_settings_t s = settings(SSHMEM_SPACE_PROFILE_MAX_PES + 1, 32, 256, 0, 1);
    sshmem_space_plan(&s, &l);
    assert_int_equal(l.part[SSHMEM_SPACE_PROFILE].size, 0);
    s = settings(SSHMEM_SPACE_DEBUG_MAX_PES + 1, 32, 256, 1, 0);
    check_layout(&s);
    sshmem_space_plan(&s, &l);
    assert_int_equal(l.part[SSHMEM_SPACE_DEBUG_MAILBOX].size, 0);
    assert_int_equal(l.part[SSHMEM_SPACE_DEBUG_FLAGS].size, 0);
}

static void largest_settings_fit(void **state)
{
    (void)state;
    sshmem_space_settings_t s = settings(65536, SSHMEM_TEAMS_MAX_LIMIT, SSHMEM_LOCKS_MAX_LIMIT,
                                         1, 1);
    size_t total = check_layout(&s);
    print_layout("SSHMEM_TEAMS_MAX=1024 SSHMEM_LOCKS_MAX=65535 SHMEM_DEBUG=1", &s);
    assert_true(total < ((size_t)156 << 20)); /* 155.0 MiB */
    /* The team pool's bitmap has a bit for every slot the setting may ask for. */
    assert_true(SSHMEM_TEAM_POOL_WORDS * 64 >= SSHMEM_TEAMS_MAX_LIMIT);
}

static void refuses_settings_out_of_range(void **state)
{
    (void)state;
    struct {
        sshmem_space_settings_t s;
        const char *words[2];
    } bad[] = {
        {settings(4, 0, 256, 0, 0), {"SSHMEM_TEAMS_MAX=0", "from 1 to 1024"}},
        {settings(4, 1025, 256, 0, 0), {"SSHMEM_TEAMS_MAX=1025", "from 1 to 1024"}},
        {settings(4, 32, 0, 0, 0), {"SSHMEM_LOCKS_MAX=0", "from 1 to 65535"}},
        {settings(4, 32, 65536, 0, 0), {"SSHMEM_LOCKS_MAX=65536", "from 1 to 65535"}},
        {settings(0, 32, 256, 0, 0), {"0 PEs", "no PE"}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char why[200] = "";
        assert_int_equal(sshmem_space_settings_check(&bad[i].s, why, sizeof why), -1);
        printf("# refused: %s\n", why);
        assert_non_null(strstr(why, bad[i].words[0]));
        assert_non_null(strstr(why, bad[i].words[1]));
    }
    /* The bounds themselves are accepted. */
    sshmem_space_settings_t edge = settings(1, 1, 1, 0, 0);
    check_layout(&edge);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(job_of_65536_pes_fits),
        cmocka_unit_test(per_pe_tools_are_bounded),
        cmocka_unit_test(largest_settings_fit),
        cmocka_unit_test(refuses_settings_out_of_range),
    };
    return cmocka_run_group_tests_name("space_layout", tests, NULL, NULL);
}
