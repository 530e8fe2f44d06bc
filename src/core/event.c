/* event.c - the event log (see event.h). */
#include "event.h"

#include <stdlib.h>
#include <string.h>

static const char *const NAMES[EV_COUNT] = {
    [EV_INITIATIVE] = "initiative", [EV_TURN_START] = "turn_start", [EV_MOVE_STEP] = "move_step",
    [EV_ROLL] = "roll",             [EV_ATTACK] = "attack",         [EV_DAMAGE] = "damage",
    [EV_CONDITION] = "condition",   [EV_REACTION] = "reaction",     [EV_DEFEATED] = "defeated",
    [EV_ROUND_END] = "round_end",   [EV_END] = "end",               [EV_ACTION] = "action",
    [EV_DECLARE] = "declare",       [EV_STAT] = "stat",             [EV_TERRAIN] = "terrain",
    [EV_TURN_END] = "turn_end",     [EV_FLED] = "fled",             [EV_PHASE] = "phase",
    [EV_AREA] = "area",
};

event_t event_make(ev_type_t type)
{
    event_t e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.who = e.target = e.side = -1;
    return e;
}

bool event_push(event_log_t *log, const event_t *e)
{
    if (log->n == log->cap) {
        int cap = log->cap ? log->cap * 2 : 256;
        event_t *p = realloc(log->ev, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        log->ev = p;
        log->cap = cap;
    }
    log->ev[log->n++] = *e;
    return true;
}

void event_clear(event_log_t *log) { log->n = 0; }

void event_log_free(event_log_t *log)
{
    free(log->ev);
    *log = (event_log_t){0};
}

const char *event_type_name(ev_type_t t)
{
    return t >= 0 && t < EV_COUNT && NAMES[t] ? NAMES[t] : "unknown";
}
