/* test_size_parse.c: byte counts with suffixes, and what is rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/size_parse.h"

static void accepts_plain_and_suffixed(void **state)
{
    size_t v;
    assert_int_equal(sshmem_parse_size("0", &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(sshmem_parse_size("12345", &v), 0);
    assert_int_equal(v, 12345);
    assert_int_equal(sshmem_parse_size("4K", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(sshmem_parse_size("256M", &v), 0);
    assert_int_equal(v, 256u << 20);
    assert_int_equal(sshmem_parse_size("2g", &v), 0);
    assert_int_equal(v, (size_t)2 << 30);
    assert_int_equal(sshmem_parse_size("1T", &v), 0);
    assert_int_equal(v, (size_t)1 << 40);
    assert_int_equal(sshmem_parse_size("512MB", &v), 0);
    assert_int_equal(v, (size_t)512 << 20);
    assert_int_equal(sshmem_parse_size("1GiB", &v), 0);
    assert_int_equal(v, (size_t)1 << 30);
    assert_int_equal(sshmem_parse_size(" 64k ", &v), 0);
    assert_int_equal(v, 65536);
}

static void rejects_malformed(void **state)
{
    size_t v = 77;
    const char *bad[] = {"", "M", "-1", "1.5G", "12X", "1 G B", "0x100", "G1", "1KK",
                         "99999999999999999999", "20000000000T", NULL};
    for (int i = 0; bad[i]; i++) {
        assert_int_equal(sshmem_parse_size(bad[i], &v), -1);
        assert_int_equal(v, 77); /* the output is untouched on error */
    }
    assert_int_equal(sshmem_parse_size(NULL, &v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_plain_and_suffixed),
        cmocka_unit_test(rejects_malformed),
    };
    return cmocka_run_group_tests_name("size_parse", tests, NULL, NULL);
}
