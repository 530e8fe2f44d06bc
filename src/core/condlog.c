/* condlog.c - current conditions from the event log (see condlog.h). */
#include "condlog.h"

#include <stdio.h>
#include <string.h>

int condlog_current(const event_log_t *log, int who, const char **out, int cap)
{
    const char *on[CONDLOG_MAX];
    int n = 0;
    for (int k = 0; log && k < log->n; k++) {
        const event_t *e = &log->ev[k];
        if (e->type != EV_CONDITION || e->who != who || !e->name[0])
            continue;
        int at = -1;
        for (int i = 0; i < n && at < 0; i++)
            if (strcmp(on[i], e->name) == 0)
                at = i;
        if (e->on && at < 0 && n < CONDLOG_MAX) {
            on[n++] = e->name;
        } else if (!e->on && at >= 0) {
            /* Keep the order of the rest. */
            memmove(&on[at], &on[at + 1], sizeof on[0] * (size_t)(n - at - 1));
            n--;
        }
    }
    int m = n < cap ? n : cap;
    for (int i = 0; i < m; i++)
        out[i] = on[i];
    return m > 0 ? m : 0;
}

const char *condlog_text(const event_log_t *log, int who, char *buf, size_t cap)
{
    const char *names[CONDLOG_MAX];
    int n = condlog_current(log, who, names, CONDLOG_MAX);
    if (cap == 0)
        return buf;
    buf[0] = 0;
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        int w = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= cap - len) {
            buf[len] = 0; /* whole names only: drop the one that did not fit */
            break;
        }
        len += (size_t)w;
    }
    return buf;
}
