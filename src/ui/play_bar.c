/* play_bar.c - the play screen's action bar: the actor's legal commands
 * grouped into buttons with their keys, the move plan and its path, and the
 * targets each button may pick (see play_ui.h). */
#include "play_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/trigger.h"

/* How the actor moves in the chosen move command's mode (cmd_t.arg): the
 * ruleset's step cost, end rule and feet left, so the shading, the hover path
 * and the rules' check agree; the plain cost and speed without a hook. */
void pui_actor_move_cost(const pui_t *p, move_cost_t *mv)
{
    const battle_t *b = p->play.b;
    int i = p->actor;
    const ruleset_t *rs = pui_rules(p);
    if (rs->move_cost && rs->move_cost(b, i, p->move_cmd.arg, mv)) return;
    geom_move_plain(b->board, i, b->prof[i].speed_ft, b->prof[i].interval_ft, mv);
}

int pui_round_to(int ft, int interval)
{
    return interval > 1 ? (ft + interval - 1) / interval * interval : ft;
}

/* The actor's cheapest leg from cell `from` to cell `to` (enemies and
 * impassable hexes barred, allies passed through) into out, start excluded.
 * Returns the cells (0 when from is to), -1 when there is no way or it is
 * longer than cap; *ft gets its cost before rounding. */
int pui_plan_leg(pui_t *p, cell_t from, cell_t to, cell_t *out, int cap, int *ft)
{
    const battle_t *b = p->play.b;
    const map_t *m = b->map;
    *ft = 0;
    if (!map_in_bounds(m, from) || !map_in_bounds(m, to)) return -1;
    int s = map_index(m, from), g = map_index(m, to);
    if (s == g) return 0;
    move_cost_t mv;
    pui_actor_move_cost(p, &mv);
    path_run(p->ps, b->board, s, PATH_NO_BUDGET, g, mv.step, &mv);
    int cost = path_cost(p->ps, g);
    if (cost < 0) return -1;
    int n = 0;
    for (int c = g; c != s && c >= 0; c = path_parent(p->ps, c))
        n++;
    if (n > cap) return -1;
    int k = n;
    for (int c = g; c != s && c >= 0; c = path_parent(p->ps, c))
        out[--k] = map_cell_of(m, c);
    *ft = cost;
    return n;
}

/* A declaring ruleset (scars) with a plan: its declared actions other than
 * the move, as the rules list them with the actor standing at the plan's
 * end, each carrying the planned path. They replace the ones from where it
 * stands; an action after a move keeps to the plain speed. */
static void plan_declarations(pui_t *p)
{
    battle_t *b = p->play.b;
    int a = p->actor;
    if (p->n_plan == 0 || p->move_cmd.kind != CMD_DECLARE) return;
    hex_t end = hex_from_cell(b->map->layout, p->plan[p->n_plan - 1]);
    bool fits = pui_round_to(p->plan_ft, b->prof[a].interval_ft) <= b->prof[a].speed_ft;
    int keep = 0;
    for (int i = 0; i < p->n_legal; i++) {
        const cmd_t *c = &p->legal[i];
        if (c->kind == CMD_DECLARE && c->act != CMD_MOVE) continue;
        p->legal[keep++] = *c;
    }
    p->n_legal = keep;
    if (!fits || board_occupant(b->board, end) >= 0) return;
    /* Listed into the free tail of the legal list, then filtered in place. */
    board_trial_t trial = board_try(b->board, a, end);
    int room = PUI_MAX_LEGAL - keep;
    int k = pui_rules(p)->legal(b, a, p->legal + keep, room);
    board_untry(b->board, &trial);
    for (int i = keep; i < keep + (k < room ? k : room); i++) {
        cmd_t *c = &p->legal[i];
        if (c->kind != CMD_DECLARE || c->act == CMD_MOVE) continue;
        c->n_path = p->n_plan;
        memcpy(c->path, p->plan, sizeof c->path[0] * (size_t)p->n_plan);
        p->legal[p->n_legal++] = *c;
    }
}

pui_group_t pui_group_of(const cmd_t *c)
{
    switch (c->kind) {
    case CMD_STANDBY:
        return PUI_GROUP_STANDBY;
    case CMD_SHOVE:
        return PUI_GROUP_SHOVE;
    case CMD_SWITCH:
        return PUI_GROUP_SWITCH;
    case CMD_ENGAGE:
    case CMD_DECLARE:
        return c->weapon2 >= 0 ? PUI_GROUP_DUAL : PUI_GROUP_NONE;
    default:
        return PUI_GROUP_NONE;
    }
}

/* Shortcut of bar button i: 1-9, 0, then letters no other play key uses. */
static const char PUI_BAR_LETTERS[] = "gjklmnbvxyuihrtz";

char pui_bar_key(int i)
{
    if (i < 9) return (char)('1' + i);
    if (i == 9) return '0';
    int k = i - 10;
    return k < (int)sizeof PUI_BAR_LETTERS - 1 ? PUI_BAR_LETTERS[k] : 0;
}

static const char *weapon_name(const battle_t *b, int who, int w)
{
    const weapon_t *wp = battle_weapon(b, who, w);
    return wp ? (wp->name[0] ? wp->name : wp->id) : "unarmed";
}

static void action_label(const pui_t *p, const cmd_t *c, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    /* The ruleset's own words first (its describe hook). */
    if (pui_rules(p)->describe && pui_rules(p)->describe(b, c, buf, cap)) return;
    const char *n = cmd_kind_name(c->kind);
    bool engage = c->kind == CMD_ENGAGE || (c->kind == CMD_DECLARE && c->act == CMD_ENGAGE);
    if (engage && c->weapon2 >= 0)
        snprintf(buf, cap, "%.20s + %.20s", weapon_name(b, c->actor, c->weapon),
                 weapon_name(b, c->actor, c->weapon2));
    else if (engage)
        snprintf(buf, cap, "Attack: %.30s", weapon_name(b, c->actor, c->weapon));
    else if (c->kind == CMD_DECLARE)
        snprintf(buf, cap, "Declare %.24s", cmd_kind_name(c->act));
    else if (c->kind == CMD_END)
        snprintf(buf, cap, "End turn");
    else if (c->kind == CMD_MOVE && c->arg >= 0 && c->arg < pui_rules(p)->n_move_modes)
        snprintf(buf, cap, "Move: %.30s",
                 ruleset_move_word(pui_rules(p), c->arg, (char[40]){0}, 40));
    else if (c->kind == CMD_STANDBY && c->act == CMD_MOVE)
        snprintf(buf, cap, "Hold a move");
    else if (c->kind == CMD_STANDBY)
        snprintf(buf, cap, "Hold attack: %.30s", weapon_name(b, c->actor, c->weapon));
    else if (c->kind == CMD_SHOVE)
        snprintf(buf, cap, "Shove: %s", c->arg ? "push 5 ft" : "knock down");
    else if (c->kind == CMD_SWITCH)
        snprintf(buf, cap, "Switch to %.30s", weapon_name(b, c->actor, c->weapon));
    else if (c->kind == CMD_FLY)
        snprintf(buf, cap, "%s", c->arg ? "Take off" : "Land");
    else if (c->kind == CMD_DASH)
        snprintf(buf, cap, "Dash");
    else if (c->kind == CMD_ESCAPE)
        snprintf(buf, cap, "Escape grapple");
    else if (c->kind == CMD_USE)
        snprintf(buf, cap, "Use object");
    else
        snprintf(buf, cap, "%c%s", n[0] - 32, n + 1);
}

static const char *group_label(pui_group_t g)
{
    switch (g) {
    case PUI_GROUP_STANDBY:
        return "Standby...";
    case PUI_GROUP_SHOVE:
        return "Shove...";
    case PUI_GROUP_SWITCH:
        return "Switch weapon...";
    case PUI_GROUP_DUAL:
        return "Dual strike...";
    default:
        return "";
    }
}

static bool same_action(const pui_action_t *a, const pui_action_t *b)
{
    return a->kind == b->kind && a->act == b->act && a->weapon == b->weapon &&
           a->weapon2 == b->weapon2 && a->arg == b->arg && a->group == b->group;
}

/* One combatant's main-bar keys (see pui_t.keys): the action each slot
 * belongs to, and the bar build that last showed it. */
typedef struct {
    bool used;
    unsigned seen;
    cmd_kind_t kind, act;
    int weapon, weapon2, arg;
    pui_group_t group;
} pui_key_t;

struct pui_keys {
    pui_key_t k[PUI_MAX_BAR];
};

static bool key_is(const pui_key_t *k, const pui_action_t *a)
{
    return k->used && k->kind == a->kind && k->act == a->act && k->weapon == a->weapon &&
           k->weapon2 == a->weapon2 && k->arg == a->arg && k->group == a->group;
}

/* The main-bar slot of button `want` for the actor: the one the action had
 * before in this battle, else a free one, else the one unseen longest (never
 * one already on this bar); -1 when there is none. */
static int bar_slot(pui_t *p, const pui_action_t *want)
{
    if (p->actor < 0 || p->actor >= MAP_MAX_COMBATANTS) return -1;
    if (!p->keys) p->keys = calloc(MAP_MAX_COMBATANTS, sizeof *p->keys);
    if (!p->keys) return p->n_bar; /* no memory: keys by place */
    pui_key_t *ks = p->keys[p->actor].k;
    int pick = -1;
    for (int k = 0; k < PUI_MAX_BAR; k++) {
        if (key_is(&ks[k], want)) {
            pick = k;
            break;
        }
        if (!ks[k].used) {
            if (pick < 0 || ks[pick].used) pick = k;
        } else if (ks[k].seen != p->key_stamp &&
                   (pick < 0 || (ks[pick].used && ks[k].seen < ks[pick].seen))) {
            pick = k;
        }
    }
    if (pick < 0) return -1;
    pui_key_t *k = &ks[pick];
    *k = (pui_key_t){.used = true,
                     .seen = p->key_stamp,
                     .kind = want->kind,
                     .act = want->act,
                     .weapon = want->weapon,
                     .weapon2 = want->weapon2,
                     .arg = want->arg,
                     .group = want->group};
    return pick;
}

/* Add the button for legal command c: on the main bar a grouped command adds
 * its group's button; on a group's sub-bar only that group's commands show. */
static void add_action(pui_t *p, const cmd_t *c)
{
    pui_group_t g = pui_group_of(c);
    if (p->sub != PUI_GROUP_NONE && g != p->sub) return;
    /* Standby has two levels: first what to wait for, then what to hold. */
    bool standby = g == PUI_GROUP_STANDBY && p->sub == PUI_GROUP_STANDBY;
    if (standby && p->sub_arg >= 0 && c->arg != p->sub_arg) return;
    bool open_trigger = standby && p->sub_arg < 0;
    bool open_group = (p->sub == PUI_GROUP_NONE && g != PUI_GROUP_NONE) || open_trigger;
    pui_action_t want = {
        .kind = c->kind,
        .act = c->act,
        .weapon = open_group ? -1 : c->weapon,
        .weapon2 = open_group ? -1 : c->weapon2,
        .arg = open_trigger ? c->arg
               : open_group ? 0
                            : c->arg,
        .group = open_group ? g : PUI_GROUP_NONE,
        .targeted = !open_group && c->target >= 0,
    };
    if (open_group) want.act = CMD_END;
    for (int k = 0; k < p->n_bar; k++)
        if (same_action(&p->bar[k], &want)) return;
    if (p->n_bar == PUI_MAX_BAR) return;
    want.slot = p->sub == PUI_GROUP_NONE ? bar_slot(p, &want) : p->n_bar;
    if (want.slot < 0) return;
    want.key = pui_bar_key(want.slot);
    if (open_trigger)
        snprintf(want.label, sizeof want.label, "When %s...", trigger_label(c->arg));
    else if (open_group)
        snprintf(want.label, sizeof want.label, "%s", group_label(g));
    else
        action_label(p, c, want.label, sizeof want.label);
    p->bar[p->n_bar++] = want;
}

/* Add refused action r greyed, with its reason, on the main bar (see
 * ruleset_t.refused): it keeps the key it has for the battle. */
static void add_refused(pui_t *p, const refusal_t *r)
{
    const cmd_t *c = &r->cmd;
    if (p->sub != PUI_GROUP_NONE || pui_group_of(c) != PUI_GROUP_NONE) return;
    pui_action_t want = {
        .kind = c->kind,
        .act = c->act,
        .weapon = c->weapon,
        .weapon2 = c->weapon2,
        .arg = c->arg,
        .group = PUI_GROUP_NONE,
        .off = true,
    };
    for (int k = 0; k < p->n_bar; k++)
        if (same_action(&p->bar[k], &want)) return; /* legal in some form after all */
    if (p->n_bar == PUI_MAX_BAR) return;
    want.slot = bar_slot(p, &want);
    if (want.slot < 0) return;
    want.key = pui_bar_key(want.slot);
    action_label(p, c, want.label, sizeof want.label);
    snprintf(want.why, sizeof want.why, "%s", r->why);
    p->bar[p->n_bar++] = want;
}

/* The preview when nothing else is hovered: the planned legs, so the route
 * stays on screen while an attack is chosen from its end. */
void pui_show_plan(pui_t *p)
{
    p->n_path = 0;
    p->path_ok = false;
    if (p->n_plan == 0 || !p->user_turn) return;
    const battle_t *b = p->play.b;
    p->path[0] = hex_to_cell(b->map->layout, b->board->pos[p->actor]);
    memcpy(p->path + 1, p->plan, sizeof p->path[0] * (size_t)p->n_plan);
    p->n_path = 1 + p->n_plan;
    p->path_cost = pui_round_to(p->plan_ft, b->prof[p->actor].interval_ft);
    p->path_ok = p->path_cost <= p->budget_ft;
}

/* The bar of the legal list, in slot order (see pui_t.keys). */
static void build_bar(pui_t *p)
{
    p->key_stamp++;
    p->n_bar = 0;
    for (int i = 0; i < p->n_legal; i++)
        add_action(p, &p->legal[i]);
    refusal_t no[PUI_MAX_BAR];
    int n_no = p->sub == PUI_GROUP_NONE
                   ? ruleset_refused(pui_rules(p), p->play.b, p->actor, no, PUI_MAX_BAR)
                   : 0;
    for (int i = 0; i < n_no; i++)
        add_refused(p, &no[i]);
    for (int i = 1; i < p->n_bar; i++) /* insertion sort by slot: at most 26 */
        for (int k = i; k > 0 && p->bar[k - 1].slot > p->bar[k].slot; k--) {
            pui_action_t t = p->bar[k];
            p->bar[k] = p->bar[k - 1];
            p->bar[k - 1] = t;
        }
    p->n_bar_slots = p->n_bar ? p->bar[p->n_bar - 1].slot + 1 : 0;
}

bool pui_may_pick(const pui_t *p, int who)
{
    const battle_t *b = p->play.b;
    if (!b || who < 0 || who >= b->n || !battle_is_player(b, who) || p->replay) return false;
    int actors[MAP_MAX_COMBATANTS];
    int n = play_actors(&p->play, actors, MAP_MAX_COMBATANTS);
    for (int k = 0; k < n; k++)
        if (actors[k] == who) return true;
    return false;
}

void pui_refresh(pui_t *p)
{
    battle_t *b = p->play.b;
    int actors[MAP_MAX_COMBATANTS];
    int n = play_actors(&p->play, actors, MAP_MAX_COMBATANTS);
    int old = p->actor;
    /* Whoever of the set the referee picked goes next (G7: a faction's free
     * order, a side that declares together); else the ruleset's first. */
    p->actor = n > 0 ? actors[0] : -1;
    bool picked = false;
    for (int k = 0; k < n; k++)
        picked |= actors[k] == p->pick;
    if (picked)
        p->actor = p->pick;
    else
        p->pick = -1; /* its turn is over (or the set moved on) */
    p->user_turn = p->actor >= 0 && !p->replay && battle_is_player(b, p->actor);
    if (p->actor != old) {
        p->ai_guard = 0;
        p->mode = PUI_IDLE;
        p->sub = PUI_GROUP_NONE;
        p->sub_arg = -1;
        p->n_plan = p->plan_ft = 0;
        if (p->user_turn) p->sel = p->actor;
    }
    p->n_legal = 0;
    p->n_bar = 0;
    p->n_reach = 0;
    p->budget_ft = 0;
    if (p->actor >= 0 && p->user_turn) {
        int k = pui_rules(p)->legal(b, p->actor, p->legal, PUI_MAX_LEGAL);
        p->n_legal = k < PUI_MAX_LEGAL ? k : PUI_MAX_LEGAL;
        /* The move a click makes: the mode chosen before if it is still
         * listed, else the first move listed. */
        bool can_move = false, kept = false;
        cmd_t first = {0};
        for (int i = 0; i < p->n_legal; i++) {
            const cmd_t *c = &p->legal[i];
            if (c->kind != CMD_MOVE && !(c->kind == CMD_DECLARE && c->act == CMD_MOVE)) continue;
            if (!can_move) first = *c;
            can_move = true;
            kept |= c->kind == p->move_cmd.kind && c->act == p->move_cmd.act &&
                    c->arg == p->move_cmd.arg && c->actor == p->move_cmd.actor;
        }
        if (can_move && !kept) p->move_cmd = first;
        if (!can_move) p->n_plan = p->plan_ft = 0;
        plan_declarations(p);
        build_bar(p);
        if (p->sub != PUI_GROUP_NONE && p->n_bar == 0) {
            /* Nothing of the group is legal any more: back to the main bar. */
            p->sub = PUI_GROUP_NONE;
            p->sub_arg = -1;
            build_bar(p);
        }
        if (can_move) {
            move_cost_t mv;
            pui_actor_move_cost(p, &mv);
            p->budget_ft = mv.budget_ft;
            p->n_reach = geom_reach_mode(&mv, p->ps, p->reach, b->map->cols * b->map->rows);
        }
    }
    if (p->mode != PUI_IDLE && (p->act >= p->n_bar)) p->mode = PUI_IDLE;
    pui_show_plan(p);
}

/* Actions whose cell the rules leave to the caller (cmd_t.at): a teleport's
 * landing, the hex to dismount to, the object to use. */
bool pui_picks_cell(const pui_action_t *a)
{
    return a->group == PUI_GROUP_NONE &&
           (a->kind == CMD_TELEPORT || a->kind == CMD_DISMOUNT || a->kind == CMD_USE ||
            (a->kind == CMD_STANDBY && a->act == CMD_MOVE));
}

/* The legal command of bar entry act against target t, or NULL. */
const cmd_t *pui_legal_for(const pui_t *p, int act, int t)
{
    if (act < 0 || act >= p->n_bar) return NULL;
    const pui_action_t *a = &p->bar[act];
    if (a->group != PUI_GROUP_NONE) return NULL;
    for (int i = 0; i < p->n_legal; i++) {
        const cmd_t *c = &p->legal[i];
        if (c->kind != a->kind || c->act != a->act || c->weapon != a->weapon ||
            c->weapon2 != a->weapon2 || c->arg != a->arg)
            continue;
        if (a->targeted && c->target != t) continue;
        return c;
    }
    return NULL;
}

bool pui_is_target(const pui_t *p, int t)
{
    return (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) && pui_legal_for(p, p->act, t) != NULL;
}

int pui_token_actions(const pui_t *p, int who, int *out, int cap)
{
    int n = 0;
    if (!p->started || p->replay || !p->user_turn || pui_needs_die(p) || pui_needs_answer(p) ||
        who < 0 || who >= p->play.b->n)
        return 0;
    for (int i = 0; i < p->n_bar && n < cap; i++)
        if (who == p->actor || (p->bar[i].targeted && pui_legal_for(p, i, who))) out[n++] = i;
    return n;
}

void pui_no_actions_why(const pui_t *p, int who, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    if (!p->started || !b || who < 0 || who >= b->n)
        snprintf(buf, cap, "no battle");
    else if (p->replay)
        snprintf(buf, cap, "a replay takes no commands");
    else if (pui_needs_die(p))
        snprintf(buf, cap, "a die is awaited first");
    else if (pui_needs_answer(p))
        snprintf(buf, cap, "an answer is awaited first");
    else if (p->actor < 0)
        snprintf(buf, cap, "nobody acts now");
    else if (!p->user_turn)
        snprintf(buf, cap, "not %.40s's turn: %.40s (AI) acts", pui_name(p, who),
                 pui_name(p, p->actor));
    else if (who != p->actor && battle_is_player(b, who))
        snprintf(buf, cap, "not %.40s's turn: %.40s acts", pui_name(p, who), pui_name(p, p->actor));
    else if (who != p->actor)
        snprintf(buf, cap, "no action of %.40s may target %.40s now", pui_name(p, p->actor),
                 pui_name(p, who));
    else {
        /* The actor with nothing legal: the rules' first refusal says why. */
        for (int i = 0; i < p->n_bar; i++)
            if (p->bar[i].off) {
                snprintf(buf, cap, "%.40s: %.60s", p->bar[i].label, p->bar[i].why);
                return;
            }
        snprintf(buf, cap, "every action of this turn is spent");
    }
}

/* The move a click on the previewed path's last hex gives. */
cmd_t pui_path_move(const pui_t *p)
{
    cmd_t m = p->move_cmd;
    m.n_path = p->n_path - 1 < CMD_PATH_MAX ? p->n_path - 1 : CMD_PATH_MAX;
    memcpy(m.path, p->path + 1, sizeof m.path[0] * (size_t)m.n_path);
    return m;
}

bool pui_preview_cmd(const pui_t *p, cmd_t *out)
{
    if (!p->started || p->replay || !p->user_turn || pui_needs_die(p) || pui_needs_answer(p))
        return false;
    if (p->mode == PUI_CONFIRM) {
        const cmd_t *c = pui_legal_for(p, p->act, p->target);
        if (c) *out = *c;
        return c != NULL;
    }
    if (p->mode == PUI_IDLE && p->sel == p->actor && p->n_path >= 2 && p->path_ok) {
        *out = pui_path_move(p);
        return true;
    }
    return false;
}
