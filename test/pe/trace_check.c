/*
 * trace_check.c: checks a timeline written by SSHMEM_TRACE (trace-test.sh), without python.
 *
 *   trace_check FILE.json NP RULE...
 *
 * The whole file must be valid JSON (a small validator below), an object with "traceEvents"
 * and "otherData"; every PE 0..NP-1 must have a track (a process_name and at least one call).
 * The writer prints one event per line, so the events are then read line by line. Rules:
 *   count:NAME:K   every PE made exactly K calls named NAME
 *   put:NAME:D     every call NAME of PE c has one arrow from c to (c + D) mod NP
 *   get:NAME:D     every call NAME of PE c has one arrow from (c + D) mod NP to c
 *   to:NAME:T      every call NAME has one arrow from its caller to PE T
 * Prints what is wrong and exits 1; exits 0 when all holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PES 64
#define MAX_FLOWS 100000

/* ------------------------------------------------------------------ validation */
static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *value(const char *p);

static const char *string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p && *p != '"'; p++)
        if (*p == '\\' && !*++p)
            return NULL;
        else if ((unsigned char)*p < 0x20)
            return NULL;
    return *p == '"' ? p + 1 : NULL;
}

static const char *number(const char *p)
{
    char *end;
    strtod(p, &end);
    return end == p ? NULL : end;
}

static const char *sequence(const char *p, char close, int keyed)
{
    p = skip_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = string(p)))
                return NULL;
            p = skip_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = value(skip_ws(p))))
            return NULL;
        p = skip_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
        p = skip_ws(p);
    }
}

static const char *value(const char *p)
{
    switch (*p) {
    case '{': return sequence(p, '}', 1);
    case '[': return sequence(p, ']', 0);
    case '"': return string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return number(p);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        text = NULL;
    }
    if (text)
        text[len] = '\0';
    fclose(f);
    return text;
}

/* ------------------------------------------------------------------ events */
typedef struct {
    char name[96];
    char ph;
    int pid;
    long tid;
    unsigned long long id;
} event_t;

static int field_text(const char *line, const char *key, char *out, size_t len)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *s = strstr(line, pat);
    if (!s)
        return 0;
    s += strlen(pat);
    size_t n = strcspn(s, "\"");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s);
    return 1;
}

static int field_number(const char *line, const char *key, unsigned long long *out)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *s = strstr(line, pat);
    if (!s)
        return 0;
    *out = strtoull(s + strlen(pat), NULL, 10);
    return 1;
}

static int parse_event(const char *line, event_t *e)
{
    char ph[4];
    unsigned long long pid, tid = 0, id = 0;
    if (!field_text(line, "ph", ph, sizeof ph) || !field_number(line, "pid", &pid) ||
        !field_text(line, "name", e->name, sizeof e->name))
        return 0;
    field_number(line, "tid", &tid);
    field_number(line, "id", &id);
    e->ph = ph[0];
    e->pid = (int)pid;
    e->tid = (long)tid;
    e->id = id;
    return 1;
}

static event_t *events;
static size_t n_events;

static void read_events(char *text)
{
    size_t cap = 1024;
    events = malloc(cap * sizeof *events);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (n_events == cap)
            events = realloc(events, (cap *= 2) * sizeof *events);
        if (parse_event(line, &events[n_events]))
            n_events++;
    }
}

/* ------------------------------------------------------------------ rules */
static int failures;

#define FAIL(...) (fprintf(stderr, "trace_check: " __VA_ARGS__), fputc('\n', stderr), failures++)

static int calls_of(const char *name, int pe)
{
    int n = 0;
    for (size_t i = 0; i < n_events; i++)
        n += events[i].ph == 'X' && events[i].pid == pe && events[i].tid < 100000 &&
             strcmp(events[i].name, name) == 0;
    return n;
}

static void check_tracks(int np)
{
    for (int pe = 0; pe < np; pe++) {
        int named = 0, calls = 0;
        for (size_t i = 0; i < n_events; i++) {
            named |= events[i].ph == 'M' &&
                     events[i].pid == pe && strcmp(events[i].name, "process_name") == 0;
            calls += events[i].ph == 'X' && events[i].pid == pe;
        }
        if (!named || !calls)
            FAIL("PE %d has no track (process_name %d, calls %d)", pe, named, calls);
    }
    for (size_t i = 0; i < n_events; i++)
        if (events[i].pid < 0 || events[i].pid >= np)
            FAIL("an event of pid %d, not a PE of %d", events[i].pid, np);
}

/* The phase ph end of arrow id. */
static const event_t *flow_end(unsigned long long id, char ph)
{
    for (size_t i = 0; i < n_events; i++)
        if (events[i].ph == ph && events[i].id == id)
            return &events[i];
    return NULL;
}

/* Every arrow of routine `name`: from and to as `kind` (put, get, to) and d say. */
static void check_arrows(const char *kind, const char *name, int d, int np)
{
    int per_pe[MAX_PES] = {0};
    for (size_t i = 0; i < n_events; i++) {
        const event_t *s = &events[i];
        if (s->ph != 's' || strcmp(s->name, name) != 0)
            continue;
        int caller = (int)(s->id >> 32);
        const event_t *f = flow_end(s->id, 'f');
        int from = caller, to = strcmp(kind, "to") == 0 ? d : (caller + d + np) % np;
        if (strcmp(kind, "get") == 0)
            from = to, to = caller;
        if (!f || s->pid != from || f->pid != to)
            FAIL("%s of PE %d: an arrow from PE %d to PE %d, expected from PE %d to PE %d", name,
                 caller, s->pid, f ? f->pid : -1, from, to);
        if (caller >= 0 && caller < MAX_PES)
            per_pe[caller]++;
    }
    for (int pe = 0; pe < np && pe < MAX_PES; pe++)
        if (per_pe[pe] != calls_of(name, pe))
            FAIL("PE %d: %d arrows of %s for %d calls", pe, per_pe[pe], name, calls_of(name, pe));
}

static void check_rule(const char *rule, int np)
{
    char kind[16], name[96];
    int k;
    if (sscanf(rule, "%15[^:]:%95[^:]:%d", kind, name, &k) != 3) {
        FAIL("bad rule %s", rule);
        return;
    }
    if (strcmp(kind, "count") == 0) {
        for (int pe = 0; pe < np; pe++)
            if (calls_of(name, pe) != k)
                FAIL("PE %d made %d calls of %s, expected %d", pe, calls_of(name, pe), name, k);
    } else {
        check_arrows(kind, name, k, np);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: trace_check FILE.json NP RULE...\n");
        return 2;
    }
    char *text = slurp(argv[1]);
    if (!text) {
        FAIL("cannot read %s", argv[1]);
        return 1;
    }
    const char *end = value(skip_ws(text));
    if (!end || *skip_ws(end))
        FAIL("%s is not valid JSON (near byte %ld)", argv[1], end ? (long)(end - text) : -1L);
    if (text[0] != '{' || !strstr(text, "\"traceEvents\":[") || !strstr(text, "\"otherData\":{"))
        FAIL("%s: no object with traceEvents and otherData", argv[1]);
    int np = atoi(argv[2]);
    read_events(text);
    check_tracks(np);
    for (int i = 3; i < argc; i++)
        check_rule(argv[i], np);
    free(text);
    free(events);
    return failures ? 1 : 0;
}
