/* cmd.c - command values and the command log (see cmd.h). */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

static const char *const NAMES[CMD_COUNT] = {
    [CMD_END] = "end",         [CMD_MOVE] = "move",         [CMD_ENGAGE] = "engage",
    [CMD_DASH] = "dash",       [CMD_STANDBY] = "standby",   [CMD_ASSIST] = "assist",
    [CMD_HIDE] = "hide",       [CMD_SEARCH] = "search",     [CMD_CLOAK] = "cloak",
    [CMD_GRAPPLE] = "grapple", [CMD_ESCAPE] = "escape",     [CMD_RELEASE] = "release",
    [CMD_SHOVE] = "shove",     [CMD_USE] = "use",           [CMD_SWITCH] = "switch",
    [CMD_MOUNT] = "mount",     [CMD_DISMOUNT] = "dismount", [CMD_FLY] = "fly",
    [CMD_DECLARE] = "declare", [CMD_RETREAT] = "retreat",   [CMD_STAND] = "stand",
    [CMD_TELEPORT] = "teleport", [CMD_COMMIT] = "commit",   [CMD_COVER] = "cover",
    [CMD_EVADE] = "evade",       [CMD_DISENGAGE] = "disengage", [CMD_NOCK] = "nock",
    [CMD_SAVE] = "save",         [CMD_TELEGRAPH] = "telegraph", [CMD_MARK] = "mark",
    [CMD_STABILIZE] = "stabilize", [CMD_WEAKEN] = "weaken",
    [CMD_OVERRIDE] = "override",
};

cmd_t cmd_make(cmd_kind_t kind, int actor)
{
    cmd_t c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.actor = actor;
    c.target = c.weapon = c.weapon2 = -1;
    c.act = CMD_END;
    return c;
}

bool cmd_push(cmd_log_t *log, const cmd_t *c)
{
    if (log->n == log->cap) {
        int cap = log->cap ? log->cap * 2 : 64;
        cmd_t *p = realloc(log->c, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        log->c = p;
        log->cap = cap;
    }
    log->c[log->n++] = *c;
    return true;
}

void cmd_log_free(cmd_log_t *log)
{
    free(log->c);
    *log = (cmd_log_t){0};
}

const char *cmd_kind_name(cmd_kind_t k)
{
    return k >= 0 && k < CMD_COUNT && NAMES[k] ? NAMES[k] : "unknown";
}

int cmd_kind_parse(const char *name)
{
    for (int k = 0; k < CMD_COUNT; k++)
        if (NAMES[k] && strcmp(NAMES[k], name) == 0)
            return k;
    return -1;
}

bool cmd_is_call(cmd_kind_t k)
{
    return k == CMD_SAVE || k == CMD_TELEGRAPH || k == CMD_MARK || k == CMD_WEAKEN ||
           k == CMD_OVERRIDE;
}
