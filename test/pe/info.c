/*
 * info.c: the library constants agree with what the library reports:
 * SHMEM_MAJOR_VERSION / SHMEM_MINOR_VERSION with shmem_info_get_version (1.6),
 * SHMEM_VENDOR_STRING with shmem_info_get_name (and shorter than SHMEM_MAX_NAME_LEN),
 * and the deprecated _SHMEM_ spellings with the current ones.
 */
#include "check.h"

int main(void)
{
    shmem_init();
    int major = -1, minor = -1;
    shmem_info_get_version(&major, &minor);
    CHECK_EQ_LONG(major, SHMEM_MAJOR_VERSION, "shmem_info_get_version major");
    CHECK_EQ_LONG(minor, SHMEM_MINOR_VERSION, "shmem_info_get_version minor");
    CHECK(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 6, "the API is OpenSHMEM 1.6");

    char name[SHMEM_MAX_NAME_LEN + 8];
    memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    CHECK(memchr(name, '\0', SHMEM_MAX_NAME_LEN) != NULL,
          "shmem_info_get_name: the name ends within SHMEM_MAX_NAME_LEN");
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%s' vs SHMEM_VENDOR_STRING '%s'", name,
          SHMEM_VENDOR_STRING);
    CHECK(strlen(SHMEM_VENDOR_STRING) < SHMEM_MAX_NAME_LEN, "vendor string fits");

    CHECK(_SHMEM_MAJOR_VERSION == SHMEM_MAJOR_VERSION && _SHMEM_MINOR_VERSION ==
              SHMEM_MINOR_VERSION && _SHMEM_MAX_NAME_LEN == SHMEM_MAX_NAME_LEN,
          "deprecated version constants");
    CHECK(strcmp(_SHMEM_VENDOR_STRING, SHMEM_VENDOR_STRING) == 0, "deprecated vendor string");
    CHECK(_SHMEM_CMP_EQ == SHMEM_CMP_EQ && _SHMEM_CMP_NE == SHMEM_CMP_NE &&
              _SHMEM_CMP_GT == SHMEM_CMP_GT && _SHMEM_CMP_GE == SHMEM_CMP_GE &&
              _SHMEM_CMP_LT == SHMEM_CMP_LT && _SHMEM_CMP_LE == SHMEM_CMP_LE,
          "deprecated comparison constants");
    /* The comparison and signal constants are distinct (they select behaviour). */
    int cmps[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT,
                  SHMEM_CMP_LE};
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            CHECK(cmps[i] != cmps[j], "SHMEM_CMP constants %d and %d are equal", i, j);
    CHECK(SHMEM_SIGNAL_SET != SHMEM_SIGNAL_ADD, "signal operations are distinct");
    return check_finish();
}
