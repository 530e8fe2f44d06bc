/* play_input.c - the play screen's input: hover, clicks and drops on the
 * map, the bar's choices, confirm and cancel, undo, dice typed in, and the
 * keys (see play_ui.h). */
#include "play_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Apply c, feed its dice, and bring the screen up to date. */
battle_status_t pui_apply(pui_t *p, const cmd_t *c)
{
    battle_status_t st = pui_pump(p, play_apply(&p->play, c));
    if (st != BATTLE_ILLEGAL) {
        p->n_plan = p->plan_ft = 0; /* the plan was used */
        p->sub = PUI_GROUP_NONE;    /* and the group's choice made */
        p->sub_arg = -1;
    }
    if (st == BATTLE_ILLEGAL)
        snprintf(p->msg, sizeof p->msg, "%s: not allowed now", cmd_kind_name(c->kind));
    else if (st == BATTLE_ERROR)
        snprintf(p->msg, sizeof p->msg, "%s refused: %s", cmd_kind_name(c->kind), p->play.error);
    else if (st == BATTLE_NEED_DICE && pui_needs_die(p))
        pui_die_prompt(p, p->msg, sizeof p->msg);
    else if (pui_needs_answer(p))
        pui_answer_prompt(p, p->msg, sizeof p->msg);
    p->mode = PUI_IDLE;
    pui_refresh(p);
    return st;
}

bool pui_answer(pui_t *p, int k)
{
    if (!pui_needs_answer(p)) return false;
    const react_request_t *q = &p->play.b->ask;
    if (k < 0 || k >= q->n) {
        snprintf(p->msg, sizeof p->msg, "Choose 0 to %d.", q->n - 1);
        return false;
    }
    char said[128];
    snprintf(said, sizeof said, "%.63s: %.39s.", pui_name(p, q->who),
             q->labels[k][0] ? q->labels[k]
             : k             ? "take it"
                             : "pass");
    battle_status_t st = pui_pump(p, play_answer_choice(&p->play, k));
    snprintf(p->msg, sizeof p->msg, "%s", said);
    if (pui_needs_die(p))
        pui_die_prompt(p, p->msg, sizeof p->msg);
    else if (pui_needs_answer(p))
        pui_answer_prompt(p, p->msg, sizeof p->msg);
    else if (st == BATTLE_ERROR)
        snprintf(p->msg, sizeof p->msg, "refused: %s", p->play.error);
    p->mode = PUI_IDLE;
    pui_refresh(p);
    pui_end_note(p);
    return true;
}

/* Once the battle is over, the status line says so (the banner shows it
 * too) rather than keeping the last command's note. */
void pui_end_note(pui_t *p)
{
    char res[96];
    if (!pui_result(p, res, sizeof res)) return;
    snprintf(p->msg, sizeof p->msg, "%s. Ctrl+Z takes back the last command.", res);
}

static int combatant_at(const pui_t *p, cell_t c)
{
    const battle_t *b = p->play.b;
    if (!map_in_bounds(b->map, c)) return -1;
    return board_occupant(b->board, hex_from_cell(b->map->layout, c));
}

static int reach_index(const pui_t *p, cell_t c)
{
    for (int i = 0; i < p->n_reach; i++)
        if (p->reach[i].at.col == c.col && p->reach[i].at.row == c.row) return i;
    return -1;
}

bool pui_hover_cell(pui_t *p, cell_t c, bool on)
{
    bool had = p->n_path > 0;
    pui_show_plan(p);
    if (!on || !p->user_turn || p->mode != PUI_IDLE || p->sel != p->actor || p->n_reach == 0)
        return had || p->n_path > 0;
    const battle_t *b = p->play.b;
    if (reach_index(p, c) < 0 && p->n_plan == 0) {
        /* Out of reach: the cheapest way there all the same, red with its
         * cost ("too far"), when there is one. */
        int ft = 0;
        int n = pui_plan_leg(p, hex_to_cell(b->map->layout, b->board->pos[p->actor]), c,
                             p->path + 1, CMD_PATH_MAX, &ft);
        if (n <= 0) return had || p->n_path > 0;
        p->path[0] = hex_to_cell(b->map->layout, b->board->pos[p->actor]);
        p->n_path = 1 + n;
        p->path_cost = pui_round_to(ft, b->prof[p->actor].interval_ft);
        p->path_ok = false;
        return true;
    }
    int len = 0, cost = 0;
    if (p->n_plan > 0) {
        /* The planned legs, then the cheapest way on to c. */
        int ft = 0;
        int n = pui_plan_leg(p, p->plan[p->n_plan - 1], c, p->path + 1 + p->n_plan,
                             CMD_PATH_MAX - p->n_plan, &ft);
        if (n < 0) return had;
        p->path[0] = hex_to_cell(b->map->layout, b->board->pos[p->actor]);
        memcpy(p->path + 1, p->plan, sizeof p->path[0] * (size_t)p->n_plan);
        p->n_path = 1 + p->n_plan + n;
        p->path_cost = pui_round_to(p->plan_ft + ft, b->prof[p->actor].interval_ft);
        p->path_ok = p->path_cost <= p->budget_ft && p->n_path >= 2;
        return true;
    }
    move_cost_t mv;
    pui_actor_move_cost(p, &mv);
    if (geom_path_mode(&mv, c, p->ps, &cost, p->path, CMD_PATH_MAX + 1, &len) && len >= 2) {
        p->n_path = len;
        p->path_cost = cost;
        p->path_ok = cost <= p->budget_ft;
    }
    return true;
}

/* Tab's order: the legal targets nearest the actor first (ties by map
 * order), the one after `after` (-1: the nearest), wrapping round. */
static int next_target(const pui_t *p, int after)
{
    const battle_t *b = p->play.b;
    hex_t from = b->board->pos[p->actor];
    long key_after =
        after >= 0 ? (long)hex_distance(from, b->board->pos[after]) * b->n + after : -1;
    int best = -1, first = -1;
    long best_key = 0, first_key = 0;
    for (int t = 0; t < b->n; t++) {
        if (!pui_legal_for(p, p->act, t)) continue;
        long key = (long)hex_distance(from, b->board->pos[t]) * b->n + t;
        if (first < 0 || key < first_key) first = t, first_key = key;
        if (key > key_after && (best < 0 || key < best_key)) best = t, best_key = key;
    }
    return best >= 0 ? best : first;
}

static void set_confirm(pui_t *p, int t)
{
    p->target = t;
    p->mode = PUI_CONFIRM;
    p->aimed = false; /* a click on t (pui_click_cell) or the token menu aims it */
    const cmd_t *c = pui_legal_for(p, p->act, t);
    /* A declaration with a planned move is judged from where the move ends. */
    board_t *bd = p->play.b->board;
    bool moved = c && c->kind == CMD_DECLARE && c->n_path > 0;
    board_trial_t trial = {.from = -1, .to = -1, .who = p->actor, .pos = bd->pos[p->actor]};
    if (moved)
        trial =
            board_try(bd, p->actor, hex_from_cell(p->play.b->map->layout, c->path[c->n_path - 1]));
    /* The ruleset's own odds (its predict hook), whatever kind of attack. */
    bool odds = c && predict_cmd(p->play.b, c, &p->pred);
    if (moved) board_untry(bd, &trial);
    char why[sizeof p->pred.detail + 4] = "";
    int cut = 0;
    if (odds && p->pred.detail[0]) snprintf(why, sizeof why, " [%s]", p->pred.detail);
    if (odds && (p->pred.p_hit >= 1.0 || p->pred.p_hit <= 0.0))
        /* Certain either way (no roll to hit, or none that can succeed). */
        cut = snprintf(
            p->msg, sizeof p->msg,
            "%s -> %s: %s, %.1f damage expected%s. Enter or click again to confirm, Esc to "
            "cancel.",
            p->bar[p->act].label, pui_name(p, t),
            p->pred.p_hit > 0.0 ? "lands for sure" : "cannot land from there", p->pred.dmg_expected,
            why);
    else if (odds)
        cut = snprintf(p->msg, sizeof p->msg,
                       "%s -> %s: %.0f%% to hit, %.1f damage on a hit (%.1f expected)%s. Enter or "
                       "click again to confirm, Esc to cancel.",
                       p->bar[p->act].label, pui_name(p, t), p->pred.p_hit * 100.0, p->pred.dmg_hit,
                       p->pred.dmg_expected, why);
    else {
        memset(&p->pred, 0, sizeof p->pred);
        snprintf(p->msg, sizeof p->msg, "%s -> %s. Enter or click again to confirm.",
                 p->bar[p->act].label, pui_name(p, t));
    }
    /* A long name and a long roll could overflow the line: end it in dots. */
    if (cut >= (int)sizeof p->msg) memcpy(p->msg + sizeof p->msg - 4, "...", 4);
}

/* Why the actor cannot move to cell c (not in its reach): no move left or
 * none legal, impassable ground, no way round, or the feet it would take
 * against the feet left this turn. */
static void unreachable_reason(pui_t *p, cell_t c, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    const map_t *m = b->map;
    const char *who = pui_name(p, p->actor);
    const terrain_t *t = &m->types[m->cells[map_index(m, c)]];
    bool can_move = false;
    for (int i = 0; i < p->n_legal && !can_move; i++)
        can_move = p->legal[i].kind == CMD_MOVE ||
                   (p->legal[i].kind == CMD_DECLARE && p->legal[i].act == CMD_MOVE);
    cell_t from = hex_to_cell(m->layout, b->board->pos[p->actor]);
    if (!can_move) {
        snprintf(buf, cap, "%.60s cannot move now: no move is left this turn.", who);
    } else if (t->move <= 0) {
        snprintf(buf, cap, "Cannot move to (%d, %d): %.40s is impassable.", c.col, c.row, t->name);
    } else {
        cell_t scratch[CMD_PATH_MAX];
        int ft = 0;
        int n = pui_plan_leg(p, from, c, scratch, CMD_PATH_MAX, &ft);
        int cost = pui_round_to(ft, b->prof[p->actor].interval_ft);
        if (n < 0)
            snprintf(buf, cap, "No way to (%d, %d): walls, enemies or the edge are in the way.",
                     c.col, c.row);
        else if (cost > p->budget_ft)
            snprintf(buf, cap, "Too far: (%d, %d) takes %d ft, %.60s has %d ft left this turn.",
                     c.col, c.row, cost, who, p->budget_ft);
        else
            snprintf(buf, cap, "%.60s may not end a move on (%d, %d) (this move's rules).", who,
                     c.col, c.row);
    }
}

/* Why combatant who is no target of bar action act: itself, beyond the
 * weapon's farthest band (the ruleset's bands hook: distance against range),
 * out of sight, or else the rules' refusal of the command. */
static void not_target_reason(pui_t *p, int who, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    const pui_action_t *a = &p->bar[p->act];
    const char *name = pui_name(p, who);
    if (who == p->actor) {
        snprintf(buf, cap, "Not a target for %.40s: %.40s cannot target itself. Esc cancels.",
                 a->label, name);
        return;
    }
    hex_t from = b->board->pos[p->actor], to = b->board->pos[who];
    int d = hex_distance(from, to);
    const weapon_t *w = a->weapon >= 0 ? battle_weapon(b, p->actor, a->weapon) : NULL;
    range_band_t bands[RANGE_BANDS_MAX];
    int nb = ruleset_bands(pui_rules(p), b->map, b->db, &b->map->combatants[p->actor], w,
                           &b->prof[p->actor], bands, RANGE_BANDS_MAX);
    int far = nb > 0 ? bands[nb - 1].hexes : 0;
    if (nb > 0 && d > far)
        snprintf(buf, cap,
                 "Not a target for %.40s: out of range, %.40s is %d hexes away, it reaches %d. "
                 "Esc cancels.",
                 a->label, name, d, far);
    else if (!sight_clear(b->board, from, to))
        snprintf(buf, cap, "Not a target for %.40s: no line of sight to %.40s. Esc cancels.",
                 a->label, name);
    else
        snprintf(buf, cap,
                 "Not a target for %.40s: the rules refuse %.40s as its target now. "
                 "Esc cancels.",
                 a->label, name);
}

/* The actor goes to cell c along the previewed cheapest path (the plan's
 * legs first), as one command; a hex it cannot reach gets the reason and
 * nothing moves. */
static bool move_to(pui_t *p, cell_t c)
{
    if (reach_index(p, c) < 0) {
        unreachable_reason(p, c, p->msg, sizeof p->msg);
        return true;
    }
    pui_hover_cell(p, c, true);
    bool there = p->n_path >= 2 && p->path[p->n_path - 1].col == c.col &&
                 p->path[p->n_path - 1].row == c.row;
    if (!p->path_ok || !there) {
        snprintf(p->msg, sizeof p->msg, "Too far to move there.");
        return true;
    }
    cmd_t m = pui_path_move(p);
    int cost = p->path_cost;
    if (pui_apply(p, &m) != BATTLE_ILLEGAL)
        snprintf(p->msg, sizeof p->msg, "%s moves %d ft.", pui_name(p, m.actor), cost);
    pui_end_note(p);
    return true;
}

bool pui_click_cell(pui_t *p, cell_t c)
{
    if (!p->started || pui_needs_die(p)) return false;
    /* Shift+click plans a leg of the move instead of moving. */
    if ((SDL_GetModState() & KMOD_SHIFT) && p->user_turn && p->mode == PUI_IDLE && p->n_reach > 0)
        return pui_plan_cell(p, c), true;
    int who = combatant_at(p, c);
    if (p->mode == PUI_TARGET && p->act < p->n_bar && pui_picks_cell(&p->bar[p->act])) {
        /* The action's cell: the rules judge it; a refused one keeps asking. */
        const cmd_t *l = pui_legal_for(p, p->act, -1);
        if (!l) return false;
        cmd_t cmd = *l;
        cmd.at = c;
        int act = p->act;
        char label[sizeof p->bar[0].label];
        snprintf(label, sizeof label, "%s", p->bar[act].label);
        if (pui_apply(p, &cmd) == BATTLE_ILLEGAL) {
            p->mode = PUI_TARGET;
            p->act = act;
            snprintf(p->msg, sizeof p->msg, "%s: not to (%d, %d). Click another hex, Esc cancels.",
                     label, c.col, c.row);
        } else if (!pui_needs_die(p)) {
            snprintf(p->msg, sizeof p->msg, "%s: %s to (%d, %d).", pui_name(p, cmd.actor), label,
                     c.col, c.row);
            pui_end_note(p);
        }
        return true;
    }
    if (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) {
        if (who >= 0 && pui_legal_for(p, p->act, who)) {
            /* One gesture in every ruleset: a first click on a target only
             * shows the odds, even when the key already picked it as the
             * only one; a second click on the same target carries it out. */
            if (p->mode == PUI_CONFIRM && who == p->target && p->aimed) return pui_confirm(p);
            if (p->mode != PUI_CONFIRM || who != p->target) set_confirm(p, who);
            p->aimed = true;
            return true;
        }
        if (who >= 0)
            not_target_reason(p, who, p->msg, sizeof p->msg);
        else
            snprintf(p->msg, sizeof p->msg, "Not a target for %s. Esc cancels.",
                     p->bar[p->act].label);
        return true;
    }
    if (who >= 0 && p->user_turn && who != p->actor && pui_may_pick(p, who)) {
        /* Another member of the set that may act now: it goes next. */
        p->pick = who;
        pui_refresh(p);
        snprintf(p->msg, sizeof p->msg, "%s acts next.", pui_name(p, who));
        return true;
    }
    if (who >= 0) {
        p->sel = who;
        snprintf(p->msg, sizeof p->msg, "Selected %s.", pui_name(p, who));
        return true;
    }
    if (p->user_turn && p->sel == p->actor && map_in_bounds(p->play.b->map, c))
        return move_to(p, c);
    p->sel = -1;
    /* A click on the ground while the other side plays: it moves nobody,
     * and the status line says why. */
    if (!p->user_turn && !p->play.b->over && map_in_bounds(p->play.b->map, c))
        pui_not_now(p, "A move");
    return true;
}

bool pui_drop_cell(pui_t *p, cell_t c)
{
    if (!p->started || !p->user_turn || pui_needs_die(p) || p->mode != PUI_IDLE || p->actor < 0)
        return false;
    p->sel = p->actor;
    if (!map_in_bounds(p->play.b->map, c)) {
        snprintf(p->msg, sizeof p->msg, "Dropped off the map: %s stays.", pui_name(p, p->actor));
        return true;
    }
    if (combatant_at(p, c) == p->actor) {
        snprintf(p->msg, sizeof p->msg, "Dropped where it stood: no move.");
        return true;
    }
    return move_to(p, c);
}

bool pui_plan_cell(pui_t *p, cell_t c)
{
    if (!p->started || !p->user_turn || pui_needs_die(p) || p->mode != PUI_IDLE || p->n_reach == 0)
        return false;
    const battle_t *b = p->play.b;
    p->sel = p->actor;
    cell_t from = p->n_plan > 0 ? p->plan[p->n_plan - 1]
                                : hex_to_cell(b->map->layout, b->board->pos[p->actor]);
    int ft = 0;
    int n = pui_plan_leg(p, from, c, p->plan + p->n_plan, CMD_PATH_MAX - p->n_plan, &ft);
    int cost = pui_round_to(p->plan_ft + ft, b->prof[p->actor].interval_ft);
    if (n <= 0 || cost > p->budget_ft) {
        snprintf(p->msg, sizeof p->msg, "%s",
                 n == 0  ? "The plan already ends there."
                 : n < 0 ? "No way there."
                         : "Too far to plan that leg.");
        return false;
    }
    p->n_plan += n;
    p->plan_ft += ft;
    int n_plan = p->n_plan, plan_ft = p->plan_ft;
    pui_refresh(p); /* declared attacks now start from the plan's end */
    p->n_plan = n_plan;
    p->plan_ft = plan_ft;
    pui_hover_cell(p, c, true);
    snprintf(p->msg, sizeof p->msg,
             "Planned %d ft. Shift+click adds a leg, click a hex moves%s, Esc drops the plan.",
             cost, p->move_cmd.kind == CMD_DECLARE ? ", an attack declares from there" : "");
    return true;
}

bool pui_choose(pui_t *p, int i)
{
    if (!p->started || i < 0 || i >= p->n_bar) return false;
    const pui_action_t *a = &p->bar[i];
    if (!p->user_turn || pui_needs_die(p)) {
        pui_not_now(p, a->label); /* said, never dropped without a word */
        return true;
    }
    if (a->off) {
        snprintf(p->msg, sizeof p->msg, "%s: not now, %s.", a->label, a->why);
        return true;
    }
    if (a->group != PUI_GROUP_NONE) {
        char label[sizeof p->bar[0].label];
        snprintf(label, sizeof label, "%s", a->label);
        if (p->sub == PUI_GROUP_NONE) {
            p->sub = a->group;
            p->sub_arg = -1;
        } else {
            p->sub_arg = a->arg; /* a standby trigger: now what to hold */
        }
        p->mode = PUI_IDLE;
        pui_refresh(p);
        if (p->n_bar == 1)
            snprintf(p->msg, sizeof p->msg, "%.40s key 1 chooses it, Esc goes back.", label);
        else
            snprintf(p->msg, sizeof p->msg, "%.40s choose one (keys 1-%c), Esc goes back.", label,
                     pui_bar_key(p->n_bar - 1));
        return true;
    }
    if (a->kind == CMD_MOVE || (a->kind == CMD_DECLARE && a->act == CMD_MOVE)) {
        p->mode = PUI_IDLE;
        p->sel = p->actor;
        /* This mode's shading and budget from now on. */
        for (int k = 0; k < p->n_legal; k++) {
            const cmd_t *c = &p->legal[k];
            if (c->kind == a->kind && c->act == a->act && c->arg == a->arg) {
                p->move_cmd = *c;
                break;
            }
        }
        int n_plan = p->n_plan, plan_ft = p->plan_ft;
        pui_refresh(p);
        p->n_plan = n_plan;
        p->plan_ft = plan_ft;
        snprintf(p->msg, sizeof p->msg,
                 "Move: click a shaded hex (%d ft left); Shift+click plans a leg on the way.",
                 p->budget_ft);
        return true;
    }
    if (pui_picks_cell(a)) {
        p->act = i;
        p->mode = PUI_TARGET;
        p->target = -1;
        snprintf(p->msg, sizeof p->msg, "%s: click the hex. Esc cancels.", a->label);
        return true;
    }
    if (a->targeted) {
        p->act = i;
        p->mode = PUI_TARGET;
        p->target = -1;
        /* With a single possible target, go straight to the odds. */
        int only = -1, count = 0;
        for (int k = 0; k < p->n_legal; k++) {
            const cmd_t *c = &p->legal[k];
            if (c->kind == a->kind && c->act == a->act && c->weapon == a->weapon &&
                c->weapon2 == a->weapon2 && c->arg == a->arg) {
                only = c->target;
                count++;
            }
        }
        if (count == 1)
            set_confirm(p, only);
        else
            snprintf(p->msg, sizeof p->msg, "%s: click a target (highlighted).", a->label);
        return true;
    }
    const cmd_t *c = pui_legal_for(p, i, -1);
    if (!c) return false;
    cmd_t copy = *c;
    char label[sizeof p->bar[0].label];
    snprintf(label, sizeof label, "%s", a->label);
    if (pui_apply(p, &copy) != BATTLE_ILLEGAL && !pui_needs_die(p))
        snprintf(p->msg, sizeof p->msg, "%s: %s.", pui_name(p, copy.actor), label);
    pui_end_note(p);
    return true;
}

bool pui_choose_on(pui_t *p, int i, int who)
{
    if (!pui_choose(p, i)) return false;
    bool aiming = p->mode == PUI_TARGET || p->mode == PUI_CONFIRM;
    if (aiming && who != p->actor && !(p->mode == PUI_CONFIRM && p->target == who) &&
        pui_legal_for(p, p->act, who))
        set_confirm(p, who);
    /* Chosen on the target's own menu: the target is pointed at. */
    if (p->mode == PUI_CONFIRM && p->target == who) p->aimed = true;
    return true;
}

bool pui_confirm(pui_t *p)
{
    if (p->mode != PUI_CONFIRM) return false;
    const cmd_t *c = pui_legal_for(p, p->act, p->target);
    if (!c) {
        p->mode = PUI_IDLE;
        return false;
    }
    cmd_t copy = *c;
    int seen = p->play.b->log.n;
    if (pui_apply(p, &copy) != BATTLE_ILLEGAL && !pui_needs_die(p)) {
        /* Say how it went, from this command's own attack event: a declared
         * attack (scars) has none until its side's phase resolves. */
        const event_log_t *log = &p->play.b->log;
        bool told = false;
        for (int k = log->n - 1; k >= seen && !told; k--)
            if (log->ev[k].type == EV_ATTACK && log->ev[k].who == copy.actor) {
                snprintf(p->msg, sizeof p->msg, "%.90s %s %.90s.", pui_name(p, copy.actor),
                         log->ev[k].hit ? "hits" : "misses", pui_name(p, copy.target));
                told = true;
            }
        if (!told && copy.kind == CMD_DECLARE)
            snprintf(p->msg, sizeof p->msg, "%.70s declares an attack on %.70s%s.",
                     pui_name(p, copy.actor), pui_name(p, copy.target),
                     copy.n_path > 0 ? " after the planned move" : "");
        pui_end_note(p);
    }
    return true;
}

bool pui_cancel(pui_t *p)
{
    if (p->mode != PUI_IDLE) {
        p->mode = PUI_IDLE;
        snprintf(p->msg, sizeof p->msg, "Cancelled.");
        return true;
    }
    if (p->help) {
        p->help = false;
        return true;
    }
    if (p->sub != PUI_GROUP_NONE) {
        bool to_triggers = p->sub_arg >= 0;
        if (to_triggers)
            p->sub_arg = -1;
        else
            p->sub = PUI_GROUP_NONE;
        pui_refresh(p);
        snprintf(p->msg, sizeof p->msg, "%s",
                 to_triggers ? "Back to the triggers." : "Back to the actions.");
        return true;
    }
    if (p->n_plan > 0) {
        p->n_plan = p->plan_ft = 0;
        pui_refresh(p);
        snprintf(p->msg, sizeof p->msg, "Plan dropped.");
        return true;
    }
    return false;
}

battle_status_t pui_give(pui_t *p, const cmd_t *c)
{
    if (!p->started || p->replay || pui_needs_die(p)) return BATTLE_ILLEGAL;
    battle_status_t st = pui_pump(p, play_apply(&p->play, c));
    if (st == BATTLE_NEED_DICE && pui_needs_die(p)) pui_die_prompt(p, p->msg, sizeof p->msg);
    pui_refresh(p);
    pui_end_note(p);
    return st;
}

bool pui_end_turn(pui_t *p)
{
    if (p->started && (!p->user_turn || pui_needs_die(p))) {
        pui_not_now(p, "End turn"); /* said, never dropped without a word */
        return false;
    }
    if (!p->started) return false;
    cmd_t e = cmd_make(CMD_END, p->actor);
    const char *who = pui_name(p, p->actor);
    char name[MAP_NAME_MAX];
    hb_strlcpy(name, who, sizeof name); /* pui_apply() may rebuild and move the name */
    if (pui_apply(p, &e) == BATTLE_ILLEGAL) return false;
    snprintf(p->msg, sizeof p->msg, "%s ends the turn.", name);
    pui_end_note(p);
    return true;
}

bool pui_undo(pui_t *p)
{
    play_t *pl = &p->play;
    battle_t *b = pl->b;
    if (!p->started || p->replay) return false;
    if (pl->pending) {
        /* A command waiting for physical dice: drop it and what was typed for it. */
        pl->pending = false;
        play_rebuild(pl);
        b->dice.n_entered = b->dice.cursor;
        anim_snap(&p->anim);
        pui_refresh(p);
        snprintf(p->msg, sizeof p->msg, "Undid the command waiting for dice.");
        return true;
    }
    /* Back to before the last player command: the AI's replies go with it,
     * or the AI would simply play them again. */
    int last = -1;
    for (int k = b->cmds.n - 1; k >= 0 && last < 0; k--)
        if (battle_is_player(b, b->cmds.c[k].actor)) last = k;
    if (last < 0) {
        snprintf(p->msg, sizeof p->msg, "Nothing to undo.");
        return false;
    }
    cmd_kind_t kind = b->cmds.c[last].kind;
    int actor = b->cmds.c[last].actor;
    while (b->cmds.n > last)
        if (play_undo(pl) == BATTLE_ILLEGAL) break;
    pui_pump(p, pui_needs_die(p) ? BATTLE_NEED_DICE : BATTLE_OK);
    anim_snap(&p->anim);
    p->mode = PUI_IDLE;
    p->actor = -2; /* force a fresh turn view */
    pui_refresh(p);
    snprintf(p->msg, sizeof p->msg, "Undid %s's %s.", pui_name(p, actor), cmd_kind_name(kind));
    return true;
}

bool pui_enter_die(pui_t *p, int value)
{
    if (!pui_needs_die(p)) return false;
    int sides = p->play.b->need.sides;
    if (value < 1 || value > sides) {
        snprintf(p->msg, sizeof p->msg, "%d is not a face of a d%d.", value, sides);
        return false;
    }
    battle_status_t st = pui_pump(p, play_enter_die(&p->play, value));
    p->n_entry = 0;
    p->entry[0] = 0;
    if (pui_needs_die(p))
        pui_die_prompt(p, p->msg, sizeof p->msg);
    else
        snprintf(p->msg, sizeof p->msg, "Entered %d.%s", value,
                 st == BATTLE_ILLEGAL ? " (the command was refused)" : "");
    pui_refresh(p);
    return true;
}

void pui_toggle_physical(pui_t *p)
{
    int who = pui_needs_die(p) ? p->play.b->need.who : p->actor >= 0 ? p->actor : p->sel;
    int s = pui_side_of(p, who);
    if (s < 0 || s >= 32) {
        snprintf(p->msg, sizeof p->msg, "Select a combatant to pick its side.");
        return;
    }
    p->phys_sides ^= 1u << s;
    bool on = (p->phys_sides >> s) & 1u;
    snprintf(p->msg, sizeof p->msg, "Side %s now rolls %s dice.", p->play.b->board->side_name[s],
             on ? "physical" : "computer");
    /* Switched off while a die waits: the generator gives it. */
    if (!on && pui_needs_die(p)) {
        pui_pump(p, BATTLE_NEED_DICE);
        pui_refresh(p);
    }
}

bool pui_key(pui_t *p, SDL_Keycode k, Uint16 mod)
{
    if (!p->started) return false;
    if (k == SDLK_SLASH && (mod & KMOD_SHIFT)) k = SDLK_QUESTION;
    if (k == SDLK_QUESTION || k == SDLK_F1) {
        p->help = !p->help;
        return true;
    }
    if (p->help && k == SDLK_ESCAPE) {
        p->help = false;
        return true;
    }
    if (k == SDLK_s && (mod & KMOD_CTRL)) return pui_save(p);
    if ((k == SDLK_z && (mod & KMOD_CTRL)) || (k == SDLK_BACKSPACE && !pui_needs_die(p)))
        return pui_undo(p);
    if (pui_type_die(p, k)) return true;
    if (pui_needs_answer(p) && !(mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI))) {
        /* The question's options by number: 0 lets the reaction pass. */
        if (k >= SDLK_0 && k <= SDLK_9) return pui_answer(p, (int)(k - SDLK_0)), true;
        if (k >= SDLK_KP_1 && k <= SDLK_KP_9) return pui_answer(p, (int)(k - SDLK_KP_1) + 1), true;
        if (k == SDLK_KP_0) return pui_answer(p, 0), true;
    }
    if (k == SDLK_F4 && (mod & KMOD_SHIFT)) {
        pui_toggle_ask_side(p);
        return true;
    }
    if (k == SDLK_F4) {
        pui_set_ask(p, !p->ask);
        return true;
    }
    switch (k) {
    case SDLK_ESCAPE:
        return pui_cancel(p);
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (pui_confirm(p)) return true;
        if (!p->user_turn && !p->play.b->over) {
            pui_not_now(p, "Enter"); /* nothing of the referee's to confirm while the AI plays */
            return true;
        }
        return false;
    case SDLK_SPACE:
        if (anim_busy(&p->anim)) {
            anim_snap(&p->anim);
            return true;
        }
        return pui_end_turn(p);
    case SDLK_e:
        pui_end_turn(p);
        return true; /* ended, or the status line says why not */
    case SDLK_LEFTBRACKET:
        anim_speed(&p->anim, 0.5);
        snprintf(p->msg, sizeof p->msg, "Animation speed x%.2g", p->anim.speed);
        return true;
    case SDLK_RIGHTBRACKET:
        anim_speed(&p->anim, 2.0);
        snprintf(p->msg, sizeof p->msg, "Animation speed x%.2g", p->anim.speed);
        return true;
    case SDLK_p:
        pui_toggle_physical(p);
        return true;
    case SDLK_c:
        p->follow = !p->follow;
        snprintf(p->msg, sizeof p->msg, "Camera follow %s.", p->follow ? "on" : "off");
        return true;
    case SDLK_TAB:
        if ((p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) && !pui_picks_cell(&p->bar[p->act])) {
            int t = next_target(p, p->mode == PUI_CONFIRM ? p->target : -1);
            if (t >= 0) set_confirm(p, t);
            return true;
        }
        return false;
    default:
        break;
    }
    if (mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)) return false;
    for (int i = 0; i < p->n_bar; i++)
        if (p->bar[i].key && (SDL_Keycode)p->bar[i].key == k) return pui_choose(p, i);
    /* An action key while the other side plays: say why it waits. */
    bool action_key =
        (k >= SDLK_0 && k <= SDLK_9) || (k < 128 && strchr("gjklmnbvxyuihrtz", (int)k));
    if (action_key && k != 0 && !p->user_turn && !p->play.b->over) {
        pui_not_now(p, "That key");
        return true;
    }
    return false;
}
