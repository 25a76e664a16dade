/* report.c: the library's mpix_report: a warning naming the PE and the call (core/error.h). */
#include "core/error.h"
#include "mpix/report.h"

void mpix_report(const char *call, const char *msg) { sshmem_warn(call, "%s", msg); }
