/*
 * report.c: the library's mpix_report: a warning naming the PE and the call (core/error.h),
 * or, inside a collective's argument checks, a fatal error (the job ends with the message).
 */
#include "core/error.h"
#include "datatype/report.h"

static __thread int fatal;

void mpix_errors_fatal(int on) { fatal = on; }

void mpix_report(const char *call, const char *msg)
{
    if (fatal)
        sshmem_fatal(call, "%s", msg);
    sshmem_warn(call, "%s", msg);
}
