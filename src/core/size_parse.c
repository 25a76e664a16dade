/* size_parse.c: byte counts as people write them in environment variables. */
#include <ctype.h>
#include <stdint.h>

#include "core/size_parse.h"

/* The shift of a suffix letter, or -1 if it is not one. */
static int suffix_shift(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'K': return 10;
    case 'M': return 20;
    case 'G': return 30;
    case 'T': return 40;
    default: return -1;
    }
}

int sshmem_parse_size(const char *text, size_t *out)
{
    const char *p = text;
    size_t value = 0;
    if (!p)
        return -1;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned digit = (unsigned)(*p - '0');
        if (value > (SIZE_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    int shift = 0;
    if (*p && suffix_shift(*p) >= 0) {
        shift = suffix_shift(*p++);
        if (*p == 'i' || *p == 'I')
            p++;
    }
    if (*p == 'B' || *p == 'b')
        p++;
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '\0')
        return -1;
    if (shift && value > (SIZE_MAX >> shift))
        return -1;
    *out = value << shift;
    return 0;
}
