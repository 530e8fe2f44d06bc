/* event_json.c - events to JSON (see event_json.h). */
#include "event_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rules/ruleset.h"

static cJSON *cell_json(cell_t c)
{
    int v[2] = {c.col, c.row};
    return cJSON_CreateIntArray(v, 2);
}

/* A combatant id, or null for none. */
static void add_id(cJSON *o, const char *key, const board_t *b, int i)
{
    if (i >= 0 && i < b->n)
        cJSON_AddStringToObject(o, key, b->map->combatants[i].id);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_side(cJSON *o, const char *key, const board_t *b, int s)
{
    if (s >= 0 && s < b->n_sides)
        cJSON_AddStringToObject(o, key, b->side_name[s]);
    else
        cJSON_AddNullToObject(o, key);
}

cJSON *event_to_json(const board_t *b, const event_t *e)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "event", event_type_name(e->type));
    switch (e->type) {
    case EV_INITIATIVE:
        if (e->who >= 0)
            add_id(o, "id", b, e->who);
        else
            add_side(o, "side", b, e->side);
        cJSON_AddNumberToObject(o, "score", e->total);
        cJSON_AddNumberToObject(o, "rank", e->value);
        break;
    case EV_TURN_START:
    case EV_TURN_END:
        cJSON_AddNumberToObject(o, "round", e->value);
        if (e->who >= 0)
            add_id(o, "id", b, e->who);
        else
            add_side(o, "side", b, e->side);
        if (e->name[0]) /* which of a side's turns (scars: passed, side, failed) */
            cJSON_AddStringToObject(o, "phase", e->name);
        break;
    case EV_MOVE_STEP:
        add_id(o, "id", b, e->who);
        cJSON_AddItemToObject(o, "from", cell_json(e->from));
        cJSON_AddItemToObject(o, "to", cell_json(e->to));
        if (e->name[0])
            cJSON_AddStringToObject(o, "mode", e->name); /* "teleport" */
        break;
    case EV_ROLL: {
        if (e->who >= 0)
            add_id(o, "who", b, e->who);
        else
            add_side(o, "who", b, e->side);
        char dice[32];
        snprintf(dice, sizeof dice, "%dd%d", e->n_dice, e->sides);
        cJSON_AddStringToObject(o, "dice", dice);
        cJSON_AddItemToObject(o, "rolls", cJSON_CreateIntArray(e->dice, e->n_dice));
        cJSON_AddItemToObject(o, "kept", cJSON_CreateIntArray(e->kept, e->kept_n));
        cJSON_AddNumberToObject(o, "mod", e->mod);
        cJSON_AddNumberToObject(o, "total", e->total);
        /* Only where the roll reads successes or a pass, so plain rolls keep their form. */
        if (roll_counts(&e->spec))
            cJSON_AddNumberToObject(o, "successes", e->successes);
        cJSON_AddStringToObject(o, "why", e->name);
        break;
    }
    case EV_ATTACK:
        add_id(o, "attacker", b, e->who);
        add_id(o, "target", b, e->target);
        cJSON_AddBoolToObject(o, "hit", e->hit);
        cJSON_AddStringToObject(o, "weapon", e->name);
        break;
    case EV_DAMAGE:
        add_id(o, "target", b, e->target);
        cJSON_AddNumberToObject(o, "amount", e->amount);
        cJSON_AddNumberToObject(o, "hp", e->hp);
        if (e->opt & EV_OPT_SOAKED)
            cJSON_AddNumberToObject(o, "soaked", e->soaked);
        if (e->opt & EV_OPT_ARMOR)
            cJSON_AddNumberToObject(o, "armor", e->armor);
        if (e->name[0])
            cJSON_AddStringToObject(o, "kind", e->name);
        break;
    case EV_CONDITION:
        add_id(o, "id", b, e->who);
        cJSON_AddStringToObject(o, "condition", e->name);
        cJSON_AddBoolToObject(o, "on", e->on);
        break;
    case EV_REACTION:
        add_id(o, "id", b, e->who);
        add_id(o, "target", b, e->target);
        cJSON_AddStringToObject(o, "kind", e->name);
        break;
    case EV_DEFEATED:
    case EV_FLED:
        add_id(o, "id", b, e->who);
        break;
    case EV_ROUND_END:
        cJSON_AddNumberToObject(o, "round", e->value);
        break;
    case EV_END:
        add_side(o, "winner", b, e->side);
        cJSON_AddNumberToObject(o, "rounds", e->value);
        break;
    case EV_ACTION:
    case EV_DECLARE:
        add_id(o, "id", b, e->who);
        cJSON_AddStringToObject(o, "action", e->name);
        if (e->target >= 0)
            add_id(o, "target", b, e->target);
        if (e->type == EV_ACTION)
            cJSON_AddBoolToObject(o, "ok", e->hit);
        if (e->opt & EV_OPT_AT)
            cJSON_AddItemToObject(o, "at", cell_json(e->to));
        if (e->type == EV_DECLARE && (e->opt & EV_OPT_VALUE))
            cJSON_AddNumberToObject(o, "value", e->value);
        break;
    case EV_PHASE:
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddNumberToObject(o, "round", e->value);
        break;
    case EV_STAT:
        add_id(o, "id", b, e->who);
        cJSON_AddStringToObject(o, "stat", e->name);
        if (e->opt & EV_OPT_FROM) cJSON_AddNumberToObject(o, "from", e->amount);
        cJSON_AddNumberToObject(o, "value", e->value);
        break;
    case EV_TERRAIN:
        cJSON_AddItemToObject(o, "at", cell_json(e->to));
        cJSON_AddStringToObject(o, "terrain", e->name);
        break;
    case EV_AREA:
        add_id(o, "who", b, e->who);
        if (e->target >= 0)
            add_id(o, "target", b, e->target);
        cJSON_AddStringToObject(o, "shape", e->name);
        cJSON_AddItemToObject(o, "from", cell_json(e->from));
        cJSON_AddItemToObject(o, "to", cell_json(e->to));
        cJSON_AddNumberToObject(o, "size", e->value);
        if (strcmp(e->name, "line") == 0)
            cJSON_AddNumberToObject(o, "width", e->amount);
        if (strcmp(e->name, "cone") == 0)
            cJSON_AddNumberToObject(o, "tan", e->tan_half);
        break;
    default:
        break;
    }
    return o;
}

/* Ammunition entries one `end` event lists at most. */
#define AMMO_LIST_MAX 256

cJSON *event_to_json_in(const battle_t *b, const event_t *e)
{
    cJSON *o = event_to_json(b->board, e);
    const ruleset_t *rs = b->rules;
    if (!o || e->type != EV_END || !rs || !rs->ammo_used)
        return o;
    ammo_use_t used[AMMO_LIST_MAX];
    int n = rs->ammo_used(b, used, AMMO_LIST_MAX);
    cJSON *list = cJSON_AddArrayToObject(o, "ammo_used");
    for (int k = 0; list && k < n && k < AMMO_LIST_MAX; k++) {
        cJSON *u = cJSON_CreateObject();
        if (!u || !cJSON_AddItemToArray(list, u)) {
            cJSON_Delete(u);
            cJSON_Delete(o);
            return NULL;
        }
        add_id(u, "id", b->board, used[k].who);
        cJSON_AddStringToObject(u, "weapon", used[k].weapon);
        cJSON_AddNumberToObject(u, "rounds", used[k].rounds);
    }
    if (!list) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* A cJSON object as one line of plain malloc text (o deleted). */
static char *line_of(cJSON *o)
{
    if (!o)
        return NULL;
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!s)
        return NULL;
    /* Hand back plain malloc memory so callers need not know cJSON. */
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (out)
        memcpy(out, s, n + 1);
    cJSON_free(s);
    return out;
}

char *event_to_line(const board_t *b, const event_t *e)
{
    return line_of(event_to_json(b, e));
}

char *event_to_line_in(const battle_t *b, const event_t *e)
{
    return line_of(event_to_json_in(b, e));
}
