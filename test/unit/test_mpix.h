/*
 * test_mpix.h: what the MPI-style layer's unit tests share: the mpix_report they link instead
 * of the library's (it keeps the last message so a test can check what the user would read),
 * and checks on that message.
 */
#ifndef SSHMEM_TEST_MPIX_H
#define SSHMEM_TEST_MPIX_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <shmemx.h>

#include "datatype/report.h"

static char last_message[1024];
static int messages;

void mpix_report(const char *call, const char *msg)
{
    snprintf(last_message, sizeof last_message, "%s: %s", call, msg);
    messages++;
}

static inline void forget_messages(void)
{
    last_message[0] = 0;
    messages = 0;
}

/* The last message contains every one of the given fragments (a NULL ends the list). */
static inline void message_has(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    for (const char *p = first; p; p = va_arg(ap, const char *))
        if (!strstr(last_message, p)) {
            print_error("message \"%s\" lacks \"%s\"\n", last_message, p);
            fail();
        }
    va_end(ap);
}
#define MESSAGE_HAS(...) message_has(__VA_ARGS__, (const char *)NULL)

/* Size, extent and true extent of a type in one check. */
#define ASSERT_BOUNDS(t, size_, lb_, extent_, true_lb_, true_extent_)                            \
    do {                                                                                         \
        size_t s_;                                                                               \
        ptrdiff_t lb__, ext__, tlb__, text__;                                                    \
        assert_int_equal(shmemx_type_size((t), &s_), SHMEMX_SUCCESS);                           \
        assert_int_equal(shmemx_type_get_extent((t), &lb__, &ext__), SHMEMX_SUCCESS);           \
        assert_int_equal(shmemx_type_get_true_extent((t), &tlb__, &text__), SHMEMX_SUCCESS);    \
        assert_int_equal(s_, (size_));                                                           \
        assert_int_equal(lb__, (lb_));                                                           \
        assert_int_equal(ext__, (extent_));                                                      \
        assert_int_equal(tlb__, (true_lb_));                                                     \
        assert_int_equal(text__, (true_extent_));                                                \
    } while (0)

#endif
