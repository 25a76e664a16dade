/* errors.c: the error codes of shmemx.h and the message formatter of the pure parts. */
#include <stdarg.h>
#include <stdio.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "datatype/report.h"

int mpix_error(int code, const char *call, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mpix_report(call, msg);
    return code;
}

SSHMEM_DEFINE(const char *, shmemx_error_string, (int code))
{
    switch (code) {
    case SHMEMX_SUCCESS: return "SHMEMX_SUCCESS: no error";
    case SHMEMX_ERR_ARG: return "SHMEMX_ERR_ARG: invalid argument";
    case SHMEMX_ERR_COUNT: return "SHMEMX_ERR_COUNT: invalid count";
    case SHMEMX_ERR_TYPE: return "SHMEMX_ERR_TYPE: invalid datatype";
    case SHMEMX_ERR_OP: return "SHMEMX_ERR_OP: invalid operator for this datatype";
    case SHMEMX_ERR_TRUNCATE: return "SHMEMX_ERR_TRUNCATE: buffer too small";
    case SHMEMX_ERR_NO_MEM: return "SHMEMX_ERR_NO_MEM: out of memory";
    case SHMEMX_ERR_TEAM: return "SHMEMX_ERR_TEAM: invalid team";
    case SHMEMX_ERR_ROOT: return "SHMEMX_ERR_ROOT: invalid root";
    default: return "unknown shmemx error code";
    }
}
