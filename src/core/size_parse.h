/* size_parse.h: "256M" -> 268435456. Pure logic, unit-tested (test/unit/test_size_parse.c). */
#ifndef SSHMEM_SIZE_PARSE_H
#define SSHMEM_SIZE_PARSE_H
#include <stddef.h>

/* What sshmem_parse_size accepts, for error messages. */
#define SSHMEM_SIZE_SYNTAX "a whole number of bytes with an optional suffix K, M, G or T " \
                           "(powers of 1024, optionally followed by B or iB), e.g. 512M or 2G"

/* Parse a byte count; returns 0 and sets *out, or -1 when the text is malformed or overflows. */
int sshmem_parse_size(const char *text, size_t *out);

#endif
