/*
 * report.h: how the MPI-style layer reports a mistake. The pure parts (datatypes, pack, ops)
 * call mpix_error, which formats the message and hands it to mpix_report: the library's
 * version (report.c) prints it as an sshmem warning naming the PE; a unit test links its own
 * mpix_report instead and can look at the message.
 */
#ifndef SSHMEM_DATATYPE_REPORT_H
#define SSHMEM_DATATYPE_REPORT_H

/* Print "call: message" somehow. */
void mpix_report(const char *call, const char *msg);

/* Library only: while on, a reported mistake ends the job instead (inside a collective, where
 * one PE returning an error would leave the others waiting). Per thread. */
void mpix_errors_fatal(int on);

/* Format the message, report it, and return code (so: return mpix_error(...)). */
int mpix_error(int code, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), cold));

#endif
