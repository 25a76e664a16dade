/*
 * space_layout.h: the plan of the library's internal symmetric space (core/space.h): which
 * owner gets how many bytes, from the PE count and the settings. A pure function of them,
 * so start-up (core/init.c), oshinfo and a unit test (test/unit/test_space_layout.c, a
 * 65,536-PE job without processes) lay the space out alike. It names every owner of the
 * space, so it sits at the top with start-up.
 */
#ifndef SSHMEM_SPACE_LAYOUT_H
#define SSHMEM_SPACE_LAYOUT_H
#include <stddef.h>

#include "core/space.h"

struct sshmem_env;
/* The settings of a job of n_pes PEs with the environment table's values. */
sshmem_space_settings_t sshmem_space_settings(long n_pes, const struct sshmem_env *env);

/* Check the settings: 0, or -1 with a sentence naming the setting, its bound and the fix in
 * why[why_len]. */
int sshmem_space_settings_check(const sshmem_space_settings_t *s, char *why, size_t why_len);

/* Lay out the space for s (settings that pass sshmem_space_settings_check). */
void sshmem_space_plan(const sshmem_space_settings_t *s, sshmem_space_layout_t *out);

/* The part's name, as printed by SHMEM_INFO and oshinfo. */
const char *sshmem_space_part_name(sshmem_space_part_t part);

/* One line to file (a FILE *): the total, then each part that has bytes. */
void sshmem_space_print(void *file, const sshmem_space_layout_t *layout);

#endif
