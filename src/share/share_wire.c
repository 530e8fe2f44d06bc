/* share_wire.c - the pictures and checks of the players' server (see share_wire.h). */
#include "share_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/condlog.h"
#include "core/geom.h"
#include "core/trigger.h"
#include "io/cmd_json.h"
#include "io/event_json.h"
#include "rules/predict.h"
#include "rules/ruleset.h"

#define LEGAL_MAX 128 /* most legal commands one picture lists */

bool share_eye_init(share_eye_t *e, const battle_t *b, unsigned sides)
{
    memset(e, 0, sizeof *e);
    e->sides = sides;
    e->vis = vision_create(b->map);
    return e->vis != NULL;
}

void share_eye_free(share_eye_t *e)
{
    side_fog_cache_free(&e->cache);
    vision_destroy(e->vis);
    memset(e, 0, sizeof *e);
}

bool share_eye_update(share_eye_t *e, const battle_t *b)
{
    return side_view_update(e->vis, &e->view, b, e->sides, &e->keys, &e->cache, false);
}

bool share_joinable(const battle_t *b, int i)
{
    return i >= 0 && i < b->n && battle_is_player(b, i);
}

/* [col, row] as a new array. */
static cJSON *cell_json(cell_t c)
{
    int v[2] = {c.col, c.row};
    return cJSON_CreateIntArray(v, 2);
}

static cell_t cell_at(const battle_t *b, int i)
{
    return hex_to_cell(b->map->layout, b->board->pos[i]);
}

static bool mine(const share_eye_t *e, const battle_t *b, int i)
{
    int s = b->board->side[i];
    return s >= 0 && s < 32 && ((e->sides >> s) & 1u);
}

static const char *color_text(uint32_t c, char *buf, size_t cap)
{
    snprintf(buf, cap, "#%06x", (unsigned)(c & 0xffffffu));
    return buf;
}

/* The map: its shape, the terrain types, and per cell the type (-1 where
 * the side has never seen) and the fog ("0" unseen, "1" remembered, "2"
 * in sight). */
static void add_map(cJSON *j, const battle_t *b, const share_eye_t *e)
{
    const map_t *m = b->map;
    cJSON *mj = cJSON_AddObjectToObject(j, "map");
    cJSON_AddStringToObject(mj, "name", m->name);
    cJSON_AddNumberToObject(mj, "cols", m->cols);
    cJSON_AddNumberToObject(mj, "rows", m->rows);
    cJSON_AddStringToObject(mj, "orient", m->layout.orient == HEX_FLAT ? "flat" : "pointy");
    cJSON_AddStringToObject(mj, "stagger", m->layout.stagger == HEX_EVEN ? "even" : "odd");
    cJSON_AddNumberToObject(mj, "feet", m->feet_per_hex);
    cJSON *types = cJSON_AddArrayToObject(mj, "types");
    char buf[16];
    for (int t = 0; t < m->n_types; t++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->types[t].name);
        cJSON_AddStringToObject(o, "color", color_text(m->types[t].color, buf, sizeof buf));
        cJSON_AddItemToArray(types, o);
    }
    int n = m->cols * m->rows;
    int *cells = malloc(sizeof *cells * (size_t)(n > 0 ? n : 1));
    char *fog = malloc((size_t)n + 1);
    if (cells && fog) {
        for (int k = 0; k < n; k++) {
            cell_t c = {k % m->cols, k / m->cols};
            vis_state_t s = e->view.vis ? vision_state(e->view.vis, c) : VIS_VISIBLE;
            fog[k] = (char)('0' + (int)s);
            cells[k] = s == VIS_UNSEEN ? -1 : m->cells[k];
        }
        fog[n] = '\0';
        cJSON_AddItemToObject(mj, "cells", cJSON_CreateIntArray(cells, n));
        cJSON_AddStringToObject(mj, "fog", fog);
    }
    free(cells);
    free(fog);
}

/* The gauges view lets the side see of combatant i. */
static void add_gauges(cJSON *o, const battle_t *b, const share_eye_t *e, int i)
{
    gauge_t g[GAUGES_MAX];
    int n = side_view_gauges(b, &e->view, i, g, GAUGES_MAX);
    cJSON *a = cJSON_AddArrayToObject(o, "gauges");
    for (int k = 0; k < n; k++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "label", g[k].label);
        cJSON_AddNumberToObject(x, "value", g[k].value);
        cJSON_AddNumberToObject(x, "max", g[k].max);
        cJSON_AddItemToArray(a, x);
    }
}

/* Every combatant the side sees, with health only for its own. */
static void add_units(cJSON *j, const battle_t *b, const share_eye_t *e)
{
    cJSON *a = cJSON_AddArrayToObject(j, "units");
    const map_t *m = b->map;
    for (int i = 0; i < b->n; i++) {
        int how = side_view_shows(&e->view, i);
        if (how == SIDE_SHOW_NONE) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", m->combatants[i].id);
        cJSON_AddStringToObject(o, "name", m->combatants[i].name);
        cJSON_AddStringToObject(o, "faction", m->combatants[i].faction);
        cJSON_AddItemToObject(o, "at", cell_json(cell_at(b, i)));
        cJSON_AddBoolToObject(o, "own", mine(e, b, i));
        cJSON_AddBoolToObject(o, "out", !battle_active(b, i));
        if (how == SIDE_SHOW_ALL) {
            cJSON_AddNumberToObject(o, "hp", b->u[i].hp);
            cJSON_AddNumberToObject(o, "hp_max", b->u[i].hp_max);
        }
        add_gauges(o, b, e, i);
        char conds[256];
        condlog_text(&b->log, i, conds, sizeof conds);
        cJSON_AddStringToObject(o, "conditions", conds);
        cJSON_AddItemToArray(a, o);
    }
}

/* Whose turn it is and the tracker: only combatants the side sees are
 * named; a turn of one it does not see reads as its side's. */
static void add_turn(cJSON *j, const battle_t *b, const share_eye_t *e)
{
    const map_t *m = b->map;
    const board_t *bd = b->board;
    cJSON *t = cJSON_AddObjectToObject(j, "turn");
    cJSON_AddNumberToObject(t, "round", b->round);
    cJSON_AddBoolToObject(t, "over", b->over);
    if (b->over && b->winner >= 0 && b->winner < bd->n_sides)
        cJSON_AddStringToObject(t, "winner", bd->side_name[b->winner]);
    int act[MAP_MAX_COMBATANTS];
    const ruleset_t *rs = b->rules;
    int n = b->over || !rs ? 0 : rs->actors(b, act, MAP_MAX_COMBATANTS);
    cJSON *who = cJSON_AddArrayToObject(t, "actors");
    cJSON *sides = cJSON_AddArrayToObject(t, "sides");
    unsigned seen_sides = 0;
    for (int k = 0; k < n; k++) {
        int i = act[k];
        if (i < 0 || i >= b->n) continue;
        if (side_view_shows(&e->view, i) != SIDE_SHOW_NONE)
            cJSON_AddItemToArray(who, cJSON_CreateString(m->combatants[i].id));
        int s = bd->side[i];
        if (s >= 0 && s < 32 && !((seen_sides >> s) & 1u)) {
            seen_sides |= 1u << s;
            cJSON_AddItemToArray(sides, cJSON_CreateString(bd->side_name[s]));
        }
    }
    turn_slot_t q[QUEUE_MAX];
    int nq = ruleset_queue(rs, b, q, QUEUE_MAX);
    cJSON *order = cJSON_AddArrayToObject(j, "order");
    for (int k = 0; k < nq; k++) {
        cJSON *o = cJSON_CreateObject();
        int i = q[k].who;
        if (i >= 0 && i < b->n) {
            if (side_view_shows(&e->view, i) == SIDE_SHOW_NONE) {
                cJSON_Delete(o);
                continue; /* its place in the order would give it away */
            }
            cJSON_AddStringToObject(o, "id", m->combatants[i].id);
            cJSON_AddStringToObject(o, "name", m->combatants[i].name);
        } else if (q[k].side >= 0 && q[k].side < bd->n_sides) {
            cJSON_AddStringToObject(o, "side", bd->side_name[q[k].side]);
        }
        cJSON_AddStringToObject(o, "label", q[k].label);
        cJSON_AddItemToArray(order, o);
    }
    if (nq > 0) return;
    /* No forecast from the ruleset: the initiative order, as the laptop's
     * tracker shows it, of the combatants the side sees still in the fight. */
    int by_rank[MAP_MAX_COMBATANTS];
    int nr = battle_initiative_order(b, by_rank);
    for (int k = 0; k < nr; k++) {
        int i = by_rank[k];
        if (b->u[i].out || side_view_shows(&e->view, i) == SIDE_SHOW_NONE) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", m->combatants[i].id);
        cJSON_AddStringToObject(o, "name", m->combatants[i].name);
        cJSON_AddStringToObject(o, "label", "");
        cJSON_AddItemToArray(order, o);
    }
}

/* The intentions the referee telegraphed that the side may see (the
 * projector's filter: no unseen combatant, no hex out of sight). */
static void add_intents(cJSON *j, const battle_t *b, const share_eye_t *e)
{
    intent_t it[SIDE_INTENTS_MAX];
    int n = side_view_intents(b, &e->view, it, SIDE_INTENTS_MAX);
    cJSON *a = cJSON_AddArrayToObject(j, "intents");
    for (int k = 0; k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", b->map->combatants[it[k].who].id);
        if (it[k].target >= 0) cJSON_AddStringToObject(o, "target", b->map->combatants[it[k].target].id);
        if (it[k].has_at) cJSON_AddItemToObject(o, "at", cell_json(it[k].at));
        cJSON_AddStringToObject(o, "label", it[k].label);
        cJSON_AddItemToArray(a, o);
    }
}

/* The newest log events the side may see, damage to enemies without amounts. */
static void add_log(cJSON *j, const battle_t *b, const share_eye_t *e)
{
    cJSON *a = cJSON_AddArrayToObject(j, "log");
    int idx[SHARE_LOG_LINES], n = 0;
    for (int k = b->log.n - 1; k >= 0 && n < SHARE_LOG_LINES; k--)
        if (side_view_event(b, &e->view, &b->log.ev[k]) != SIDE_EV_HIDE) idx[n++] = k;
    for (int x = n - 1; x >= 0; x--) {
        const event_t *ev = &b->log.ev[idx[x]];
        cJSON *o = event_to_json(b->board, ev);
        if (!o) continue;
        if (side_view_event(b, &e->view, ev) == SIDE_EV_NO_AMOUNT) {
            cJSON_DeleteItemFromObjectCaseSensitive(o, "amount");
            cJSON_DeleteItemFromObjectCaseSensitive(o, "hp");
            cJSON_DeleteItemFromObjectCaseSensitive(o, "soaked");
            cJSON_DeleteItemFromObjectCaseSensitive(o, "armor");
        }
        cJSON_AddNumberToObject(o, "n", idx[x]);
        cJSON_AddItemToArray(a, o);
    }
}

/* Weapon w of combatant i by name ("unarmed" for none). */
static const char *weapon_name(const battle_t *b, int i, int w)
{
    const unit_t *u = &b->u[i];
    return w >= 0 && w < u->n_weapons && u->weapon[w] ? u->weapon[w]->name : "unarmed";
}

/* The words for legal command c, as the laptop's action bar puts them: the
 * ruleset's own, else its kind with its weapon, trigger and target. */
static void cmd_label(const battle_t *b, const cmd_t *c, char *buf, size_t cap)
{
    const ruleset_t *rs = b->rules;
    if (rs->describe && rs->describe((battle_t *)b, c, buf, cap)) return;
    const char *n = cmd_kind_name(c->kind);
    int k = 0;
    if (c->kind == CMD_ENGAGE || (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE))
        k = snprintf(buf, cap, "Attack: %.30s", weapon_name(b, c->actor, c->weapon));
    else if (c->kind == CMD_END)
        k = snprintf(buf, cap, "End turn");
    else if (c->kind == CMD_STANDBY)
        k = snprintf(buf, cap, "Hold %.20s (%.40s)",
                     c->act == CMD_MOVE ? "a move" : weapon_name(b, c->actor, c->weapon),
                     trigger_label(c->arg));
    else if (c->kind == CMD_SWITCH)
        k = snprintf(buf, cap, "Switch to %.30s", weapon_name(b, c->actor, c->weapon));
    else if (c->kind == CMD_MOVE && c->arg >= 0 && c->arg < rs->n_move_modes)
        k = snprintf(buf, cap, "Move: %.30s", ruleset_move_word(rs, c->arg, (char[40]){0}, 40));
    else
        k = snprintf(buf, cap, "%c%s", n[0] >= 'a' && n[0] <= 'z' ? n[0] - 32 : n[0], n + 1);
    if (c->target >= 0 && k >= 0 && (size_t)k < cap)
        snprintf(buf + k, cap - (size_t)k, " at %.40s", b->map->combatants[c->target].name);
}

/* Does the command name only combatants the side sees? */
static bool cmd_seen(const share_eye_t *e, const cmd_t *c)
{
    return c->target < 0 || side_view_shows(&e->view, c->target) != SIDE_SHOW_NONE;
}

/* The reachable hexes of me's move mode as the board stands, [[col,row]...]. */
static cJSON *reach_plain(const battle_t *b, int me, int mode)
{
    const ruleset_t *rs = b->rules;
    move_cost_t mv;
    if (rs->move_cost) {
        if (!rs->move_cost(b, me, mode, &mv)) return cJSON_CreateArray();
    } else {
        geom_move_plain(b->board, me, b->prof[me].speed_ft, b->prof[me].interval_ft, &mv);
    }
    int ncells = b->map->cols * b->map->rows;
    path_search_t *ps = path_search_create(ncells);
    geom_reach_t *out = malloc(sizeof *out * (size_t)(ncells > 0 ? ncells : 1));
    cJSON *a = cJSON_CreateArray();
    if (ps && out && a) {
        int k = geom_reach_mode(&mv, ps, out, ncells);
        for (int x = 0; x < k && x < ncells; x++)
            cJSON_AddItemToArray(a, cell_json(out[x].at));
    }
    free(out);
    path_search_destroy(ps);
    return a;
}

const dice_request_t *share_die_for(const battle_t *b, int me)
{
    if (!b->needing || me < 0 || me >= b->n || b->need.who != me || b->need.sides < 1) return NULL;
    return &b->need;
}

/* While a move is priced for a page, the hexes of combatants its side does
 * not see read as empty, so neither the reach shown nor a refused move tells
 * where a hidden enemy stands; unhide puts the board back exactly. */
typedef struct {
    int16_t *occ;
    int n;
} hidden_t;

static void hide_unseen(const battle_t *b, const share_eye_t *e, hidden_t *h)
{
    board_t *bd = b->board;
    h->n = b->map->cols * b->map->rows;
    h->occ = malloc(sizeof *h->occ * (size_t)(h->n > 0 ? h->n : 1));
    if (!h->occ) return; /* then priced as the board stands */
    memcpy(h->occ, bd->occ, sizeof *h->occ * (size_t)h->n);
    for (int c = 0; c < h->n; c++) {
        int i = bd->occ[c];
        if (i >= 0 && side_view_shows(&e->view, i) == SIDE_SHOW_NONE) bd->occ[c] = -1;
    }
}

static void unhide(const battle_t *b, hidden_t *h)
{
    if (h->occ) memcpy(b->board->occ, h->occ, sizeof *h->occ * (size_t)h->n);
    free(h->occ);
    h->occ = NULL;
}

/* The same, priced as the side knows the board. */
static cJSON *reach_json(const battle_t *b, const share_eye_t *e, int me, int mode)
{
    hidden_t h;
    hide_unseen(b, e, &h);
    cJSON *a = reach_plain(b, me, mode);
    unhide(b, &h);
    return a;
}

/* My card: numbers, conditions, weapons, and when I may act, the legal
 * commands (with odds for attacks) and where each move mode reaches. */
static void add_me(cJSON *j, const battle_t *b, const share_eye_t *e, int me, bool acts)
{
    if (me < 0 || me >= b->n) return;
    const map_t *m = b->map;
    cJSON *o = cJSON_AddObjectToObject(j, "me");
    cJSON_AddStringToObject(o, "id", m->combatants[me].id);
    cJSON_AddStringToObject(o, "name", m->combatants[me].name);
    cJSON_AddNumberToObject(o, "hp", b->u[me].hp);
    cJSON_AddNumberToObject(o, "hp_max", b->u[me].hp_max);
    cJSON_AddBoolToObject(o, "out", !battle_active(b, me));
    char conds[256];
    condlog_text(&b->log, me, conds, sizeof conds);
    cJSON_AddStringToObject(o, "conditions", conds);
    add_gauges(o, b, e, me);
    cJSON *ws = cJSON_AddArrayToObject(o, "weapons");
    for (int w = 0; w < b->u[me].n_weapons; w++)
        if (b->u[me].weapon[w])
            cJSON_AddItemToArray(ws, cJSON_CreateString(b->u[me].weapon[w]->name));
    const dice_request_t *die = share_die_for(b, me);
    if (die) {
        cJSON *d = cJSON_AddObjectToObject(o, "die");
        cJSON_AddNumberToObject(d, "sides", die->sides);
        cJSON_AddNumberToObject(d, "index", die->index + 1);
        cJSON_AddNumberToObject(d, "count", die->count > 0 ? die->count : 1);
        cJSON_AddStringToObject(d, "why", die->why);
        acts = false; /* the die first */
    }
    cJSON_AddBoolToObject(o, "acts", acts);
    cJSON *legal = cJSON_AddArrayToObject(o, "legal");
    if (!acts) return;
    cmd_t cmds[LEGAL_MAX];
    const ruleset_t *rs = b->rules;
    int n = rs->legal((battle_t *)b, me, cmds, LEGAL_MAX);
    for (int k = 0; k < n && k < LEGAL_MAX; k++) {
        const cmd_t *c = &cmds[k];
        if (cmd_is_call(c->kind) || !cmd_seen(e, c)) continue;
        cJSON *x = cJSON_CreateObject();
        char label[128];
        cmd_label(b, c, label, sizeof label);
        cJSON_AddStringToObject(x, "label", label);
        if (c->kind == CMD_MOVE) {
            const char *mode = c->arg >= 0 && c->arg < rs->n_move_modes ? rs->move_modes[c->arg] : "move";
            cJSON_AddStringToObject(x, "mode_name", mode);
            cJSON_AddNumberToObject(x, "mode", c->arg);
            cJSON_AddItemToObject(x, "reach", reach_json(b, e, me, c->arg));
        } else {
            cJSON_AddItemToObject(x, "cmd", cmd_to_json(m, c));
            predict_t pr;
            if (predict_cmd(b, c, &pr) && pr.valid)
                cJSON_AddNumberToObject(x, "odds", (double)(int)(pr.p_hit * 100.0 + 0.5));
        }
        cJSON_AddItemToArray(legal, x);
    }
}

/* May combatant me give a command now? */
static bool acts_now(const battle_t *b, int me)
{
    int act[MAP_MAX_COMBATANTS];
    const ruleset_t *rs = b->rules;
    int n = b->over || !rs ? 0 : rs->actors(b, act, MAP_MAX_COMBATANTS);
    for (int k = 0; k < n; k++)
        if (act[k] == me) return true;
    return false;
}

char *share_side_json(const battle_t *b, const share_eye_t *e)
{
    cJSON *j = cJSON_CreateObject();
    if (!j) return NULL;
    cJSON_AddStringToObject(j, "type", "state");
    cJSON *sides = cJSON_AddArrayToObject(j, "your_sides");
    for (int s = 0; s < b->board->n_sides && s < 32; s++)
        if ((e->sides >> s) & 1u)
            cJSON_AddItemToArray(sides, cJSON_CreateString(b->board->side_name[s]));
    add_map(j, b, e);
    add_units(j, b, e);
    add_turn(j, b, e);
    add_intents(j, b, e);
    add_log(j, b, e);
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

char *share_me_json(const battle_t *b, const share_eye_t *e, int me)
{
    cJSON *j = cJSON_CreateObject();
    if (!j) return NULL;
    add_me(j, b, e, me, acts_now(b, me));
    cJSON *o = cJSON_DetachItemFromObjectCaseSensitive(j, "me");
    cJSON_Delete(j);
    char *s = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return s;
}

char *share_state_join(const char *side, const char *me)
{
    size_t a = strlen(side), m = me ? strlen(me) : 0;
    if (a < 2 || side[a - 1] != '}') return NULL;
    char *out = malloc(a + m + 8);
    if (!out) return NULL;
    memcpy(out, side, a - 1);
    size_t n = a - 1;
    if (me) {
        memcpy(out + n, ",\"me\":", 6);
        n += 6;
        memcpy(out + n, me, m);
        n += m;
    }
    out[n++] = '}';
    out[n] = '\0';
    return out;
}

char *share_state_json(const battle_t *b, const share_eye_t *e, int me)
{
    char *side = share_side_json(b, e);
    char *mine = side ? share_me_json(b, e, me) : NULL;
    char *s = side ? share_state_join(side, mine) : NULL;
    free(side);
    free(mine);
    return s;
}

char *share_lobby_json(const battle_t *b, const bool *taken)
{
    cJSON *j = cJSON_CreateObject();
    if (!j) return NULL;
    cJSON_AddStringToObject(j, "type", "lobby");
    cJSON_AddStringToObject(j, "map", b->map->name);
    cJSON *a = cJSON_AddArrayToObject(j, "players");
    for (int i = 0; i < b->n; i++) {
        if (!share_joinable(b, i)) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", b->map->combatants[i].id);
        cJSON_AddStringToObject(o, "name", b->map->combatants[i].name);
        cJSON_AddStringToObject(o, "faction", b->map->combatants[i].faction);
        cJSON_AddBoolToObject(o, "taken", taken && taken[i]);
        cJSON_AddItemToArray(a, o);
    }
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return s;
}

/* Is id (a string) a combatant the side sees? */
static bool id_seen(const battle_t *b, const share_eye_t *e, const cJSON *id)
{
    if (!cJSON_IsString(id)) return false;
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->map->combatants[i].id, id->valuestring) == 0)
            return side_view_shows(&e->view, i) != SIDE_SHOW_NONE;
    return false;
}

/* Is c one of the commands the rules list for me now (kind, mode, weapon,
 * target and act alike; a move by mode alone)? */
static bool listed(battle_t *b, int me, const cmd_t *c)
{
    cmd_t cmds[LEGAL_MAX];
    const ruleset_t *rs = b->rules;
    int n = rs->legal(b, me, cmds, LEGAL_MAX);
    for (int k = 0; k < n && k < LEGAL_MAX; k++) {
        const cmd_t *l = &cmds[k];
        if (l->kind != c->kind) continue;
        if (c->kind == CMD_MOVE) {
            if (l->arg == c->arg) return true;
            continue;
        }
        if (l->target == c->target && l->weapon == c->weapon && l->weapon2 == c->weapon2 &&
            l->arg == c->arg && l->act == c->act)
            return true;
    }
    return false;
}

/* A move for me in mode to [col, row]: the cheapest path, as the laptop's. */
static bool read_move(const battle_t *b, const share_eye_t *e, int me, const cJSON *mv,
                      path_search_t *ps, cmd_t *out, char *err, size_t errcap)
{
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(mv, "mode");
    const cJSON *to = cJSON_GetObjectItemCaseSensitive(mv, "to");
    const ruleset_t *rs = b->rules;
    if (!cJSON_IsNumber(mode) || mode->valuedouble < 0 ||
        mode->valuedouble >= (rs->n_move_modes > 0 ? rs->n_move_modes : 1) ||
        mode->valuedouble != (int)mode->valuedouble) {
        snprintf(err, errcap, "move.mode: not a move mode");
        return false;
    }
    if (!cJSON_IsArray(to) || cJSON_GetArraySize(to) != 2 ||
        !cJSON_IsNumber(cJSON_GetArrayItem(to, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(to, 1))) {
        snprintf(err, errcap, "move.to: wants [col, row]");
        return false;
    }
    double cc = cJSON_GetArrayItem(to, 0)->valuedouble, rr = cJSON_GetArrayItem(to, 1)->valuedouble;
    if (cc < 0 || rr < 0 || cc >= b->map->cols || rr >= b->map->rows) {
        snprintf(err, errcap, "move.to: off the map");
        return false;
    }
    cell_t goal = {(int)cc, (int)rr};
    move_cost_t mc;
    int m = (int)mode->valuedouble;
    if (rs->move_cost) {
        if (!rs->move_cost(b, me, m, &mc)) {
            snprintf(err, errcap, "cannot move that way now");
            return false;
        }
    } else {
        geom_move_plain(b->board, me, b->prof[me].speed_ft, b->prof[me].interval_ft, &mc);
    }
    cell_t path[CMD_PATH_MAX + 1];
    int cost = 0, len = 0;
    hidden_t h;
    hide_unseen(b, e, &h);
    bool found = geom_path_mode(&mc, goal, ps, &cost, path, CMD_PATH_MAX + 1, &len);
    unhide(b, &h);
    if (!found || len < 2 || cost > mc.budget_ft) {
        snprintf(err, errcap, "move.to: out of reach");
        return false;
    }
    *out = cmd_make(CMD_MOVE, me);
    out->arg = m;
    out->n_path = len - 1;
    memcpy(out->path, path + 1, sizeof out->path[0] * (size_t)out->n_path);
    return true;
}

bool share_read_cmd(const battle_t *b, const share_eye_t *e, int me, const cJSON *msg,
                    path_search_t *ps, cmd_t *out, char *err, size_t errcap)
{
    if (me < 0 || me >= b->n) {
        snprintf(err, errcap, "no combatant joined");
        return false;
    }
    if (b->over) {
        snprintf(err, errcap, "the battle is over");
        return false;
    }
    int act[MAP_MAX_COMBATANTS];
    const ruleset_t *rs = b->rules;
    int n = rs->actors(b, act, MAP_MAX_COMBATANTS);
    bool turn = false;
    for (int k = 0; k < n && !turn; k++)
        turn = act[k] == me;
    if (!turn) {
        snprintf(err, errcap, "not your turn");
        return false;
    }
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(msg, "move");
    const cJSON *cj = cJSON_GetObjectItemCaseSensitive(msg, "cmd");
    if (cJSON_IsObject(mv) == cJSON_IsObject(cj)) {
        snprintf(err, errcap, "wants one of \"cmd\" or \"move\"");
        return false;
    }
    if (mv) {
        if (!read_move(b, e, me, mv, ps, out, err, errcap)) return false;
    } else {
        if (cJSON_GetObjectItemCaseSensitive(cj, "reactions")) {
            snprintf(err, errcap, "cmd.reactions: the table answers reactions, not a page");
            return false;
        }
        /* A hidden combatant's id reads as no id at all, so a probe learns nothing. */
        const char *keys[] = {"actor", "target"};
        for (int k = 0; k < 2; k++) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(cj, keys[k]);
            if (id && !id_seen(b, e, id)) {
                snprintf(err, errcap, "cmd.%s: unknown id", keys[k]);
                return false;
            }
        }
        char why[160];
        if (!cmd_from_json(cj, b->map, out, why, sizeof why)) {
            snprintf(err, errcap, "cmd: %s", why);
            return false;
        }
        if (out->actor != me) {
            snprintf(err, errcap, "cmd.actor: not your combatant");
            return false;
        }
        if (cmd_is_call(out->kind)) {
            snprintf(err, errcap, "cmd: a referee's call");
            return false;
        }
        if (!cmd_seen(e, out)) {
            snprintf(err, errcap, "cmd.target: unknown id");
            return false;
        }
        if (out->kind == CMD_MOVE) {
            snprintf(err, errcap, "cmd: a move is sent as \"move\"");
            return false;
        }
    }
    if (!listed((battle_t *)b, me, out)) {
        snprintf(err, errcap, "not an action you may take now");
        return false;
    }
    return true;
}
