/* kinds.c: the names and colours of the kinds of routine (routines.h). */
#include "trace/routines.h"

static const struct {
    const char *name, *colour;
} kinds[SSHMEM_TRACE_KINDS] = {
    [SSHMEM_TRACE_PUT] = {"put", "#1f77b4"},
    [SSHMEM_TRACE_GET] = {"get", "#2ca02c"},
    [SSHMEM_TRACE_ATOMIC] = {"atomic", "#9467bd"},
    [SSHMEM_TRACE_WAIT] = {"wait", "#ff7f0e"},
    [SSHMEM_TRACE_BARRIER] = {"barrier", "#d62728"},
    [SSHMEM_TRACE_COMPLETION] = {"quiet/fence", "#8c564b"},
    [SSHMEM_TRACE_COLLECTIVE] = {"collective", "#e377c2"},
    [SSHMEM_TRACE_MEMORY] = {"memory", "#7f7f7f"},
    [SSHMEM_TRACE_LOCK] = {"lock", "#bcbd22"},
    [SSHMEM_TRACE_SETUP] = {"setup", "#17becf"},
    [SSHMEM_TRACE_OTHER] = {"other", "#c7c7c7"},
};

const char *sshmem_trace_kind_name(int kind)
{
    return kinds[kind].name;
}

const char *sshmem_trace_kind_colour(int kind)
{
    return kinds[kind].colour;
}
