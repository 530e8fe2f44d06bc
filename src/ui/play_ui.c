/* play_ui.c - the play screen's logic (see play_ui.h). */
#include "play_ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/trigger.h"

static const ruleset_t *rules(const pui_t *p)
{
    return p->play.rs;
}

const char *pui_name(const pui_t *p, int i)
{
    const battle_t *b = p->play.b;
    if (i < 0 || i >= b->n) return "-";
    const map_combatant_t *c = &b->map->combatants[i];
    return c->name[0] ? c->name : c->id;
}

static int side_of(const pui_t *p, int who)
{
    const battle_t *b = p->play.b;
    return who >= 0 && who < b->n ? b->board->side[who] : -1;
}

bool pui_needs_die(const pui_t *p)
{
    const play_t *pl = &p->play;
    return pl->b && pl->b->needing && (pl->pending || pl->setup_pending);
}

bool pui_needs_answer(const pui_t *p)
{
    const play_t *pl = &p->play;
    return pl->b && pl->b->asking && pl->pending;
}

void pui_answer_prompt(const pui_t *p, char *buf, size_t cap)
{
    const react_request_t *q = &p->play.b->ask;
    if (!pui_needs_answer(p)) {
        snprintf(buf, cap, "no question is waiting");
        return;
    }
    char who[64];
    snprintf(who, sizeof who, "%.63s", pui_name(p, q->who));
    snprintf(buf, cap, "%s may react to %.63s (%.47s): choose 0-%d", who, pui_name(p, q->trigger),
             q->kind, q->n - 1);
}

void pui_set_ask(pui_t *p, bool on)
{
    battle_t *b = p->play.b;
    unsigned mask = 0;
    for (int i = 0; on && i < b->n; i++)
        if (battle_is_player(b, i) && b->board->side[i] < 32) mask |= 1u << b->board->side[i];
    b->opts.ask_sides = mask;
    p->ask = on;
    snprintf(p->msg, sizeof p->msg, "%s",
             on ? "The players' reactions are put to the table (F4 turns this off)."
                : "The rules answer the players' reactions (F4 puts them to the table).");
}

void pui_toggle_ask_side(pui_t *p)
{
    battle_t *b = p->play.b;
    int s = side_of(p, p->sel >= 0 ? p->sel : p->actor);
    if (s < 0 || s >= 32) {
        snprintf(p->msg, sizeof p->msg, "Select a combatant to pick its side.");
        return;
    }
    b->opts.ask_sides ^= 1u << s;
    bool on = (b->opts.ask_sides >> s) & 1u;
    p->ask = b->opts.ask_sides != 0;
    snprintf(p->msg, sizeof p->msg, "Side %.40s: %s (Shift+F4 again: %s).", b->board->side_name[s],
             on ? "each reaction is put to the table" : "the rules answer its reactions",
             on ? "the rules answer" : "ask the table");
}

/* Is the die the engine waits for one the referee rolls at the table? */
static bool need_is_physical(const pui_t *p)
{
    int s = side_of(p, p->play.b->need.who);
    return s >= 0 && s < 32 && ((p->phys_sides >> s) & 1u);
}

/* Feed generator dice to every roll that is not physical; stop at a physical
 * one, the end, or an error. Returns the last driver status. */
static battle_status_t pump(pui_t *p, battle_status_t st)
{
    while (st == BATTLE_NEED_DICE && pui_needs_die(p) && !need_is_physical(p)) {
        int sides = p->play.b->need.sides;
        st = play_enter_die(&p->play, rng_die(&p->rng, sides > 0 ? sides : 1));
    }
    return st;
}

battle_status_t pui_start(pui_t *p, const map_t *m, const tmpl_db_t *db, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->map = m;
    p->db = db;
    p->seed = seed;
    p->sel = p->actor = p->target = p->sub_arg = p->pick = -1;
    p->follow = false;
    rng_seed(&p->rng, seed);
    battle_opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.manual_all = true; /* every die is entered: see the header */
    battle_status_t st = play_start(&p->play, m, db, NULL, &o);
    if (st == BATTLE_ILLEGAL || st == BATTLE_NOMEM || st == BATTLE_ERROR) {
        snprintf(p->msg, sizeof p->msg, "cannot start the battle: %s",
                 st == BATTLE_NOMEM   ? "out of memory"
                 : st == BATTLE_ERROR ? p->play.error
                                      : "unknown ruleset");
        if (p->play.b) play_end(&p->play);
        return st;
    }
    p->ps = path_search_create(m->cols * m->rows);
    p->reach = calloc((size_t)(m->cols * m->rows), sizeof *p->reach);
    if (!p->ps || !p->reach || !anim_init(&p->anim, p->play.b)) {
        pui_free(p);
        snprintf(p->msg, sizeof p->msg, "out of memory");
        return BATTLE_NOMEM;
    }
    pump(p, st);
    p->started = true;
    p->saved_cmds = p->play.b->cmds.n;
    anim_snap(&p->anim);
    pui_refresh(p);
    snprintf(p->msg, sizeof p->msg, "Battle begins. Press ? for the keys.");
    return BATTLE_OK;
}

/* The screen's scratch and animation for a battle already in p->play. */
static battle_status_t finish_start(pui_t *p, battle_status_t st)
{
    const map_t *m = p->map;
    p->ps = path_search_create(m->cols * m->rows);
    p->reach = calloc((size_t)(m->cols * m->rows), sizeof *p->reach);
    if (!p->ps || !p->reach || !anim_init(&p->anim, p->play.b)) {
        pui_free(p);
        snprintf(p->msg, sizeof p->msg, "out of memory");
        return BATTLE_NOMEM;
    }
    pump(p, st);
    p->started = true;
    p->saved_cmds = p->play.b->cmds.n;
    anim_snap(&p->anim);
    pui_refresh(p);
    return BATTLE_OK;
}

/* Make every die of a rebuilt battle an entered one (the play screen's way,
 * see the header): the values of every roll so far, in order, so the rebuild
 * gives the same events and later dice can come from the table. */
static bool enter_all_dice(pui_t *p, bool stopped)
{
    battle_t *b = p->play.b;
    if (b->opts.manual_all || p->play.pending || p->play.setup_pending) return true;
    b->dice.n_entered = 0;
    for (int k = 0; k < b->log.n; k++) {
        const event_t *e = &b->log.ev[k];
        for (int d = 0; e->type == EV_ROLL && d < e->n_dice; d++)
            if (!dice_enter(&b->dice, e->dice[d])) return false;
    }
    b->dice.manual_all = b->opts.manual_all = true;
    if (play_rebuild(&p->play) != BATTLE_OK) return false;
    if (stopped && !b->over) play_stop(&p->play);
    return true;
}

battle_status_t pui_start_save(pui_t *p, const save_t *s, bool replay)
{
    memset(p, 0, sizeof *p);
    p->map = s->map;
    p->db = s->db;
    p->seed = s->opts.seed;
    p->sel = p->actor = p->target = p->sub_arg = p->pick = -1;
    hb_strlcpy(p->map_path, s->map_file, sizeof p->map_path);
    battle_status_t st;
    /* A save of other rules goes as far as its commands still apply, and
     * says what differs (docs/saves.md, "Saves across versions"). */
    save_note_t note;
    char err[HB_ERR_MAX];
    if (replay) {
        play_t probe;
        if (save_rebuild_ex(s, &probe, &note, err, sizeof err) == HB_OK) {
            play_end(&probe);
        } else {
            note.kept_cmds = s->n_cmds;
            note.text[0] = '\0';
        }
        /* From the setup on; every saved die is there before it is needed. */
        st = play_start(&p->play, s->map, s->db, NULL, &s->opts);
        for (int k = 0; p->play.b && k < s->n_dice; k++)
            if (!dice_enter(&p->play.b->dice, s->dice[k])) st = BATTLE_NOMEM;
        if (p->play.b && st != BATTLE_NOMEM) st = play_rebuild(&p->play);
        p->replay = true;
        p->script = s->cmds;
        p->n_script = note.kept_cmds;
        p->script_stopped = s->stopped && note.kept_cmds == s->n_cmds;
    } else {
        st = save_rebuild_ex(s, &p->play, &note, err, sizeof err) == HB_OK ? BATTLE_OK
                                                                           : BATTLE_ILLEGAL;
        if (st != BATTLE_OK) {
            snprintf(p->msg, sizeof p->msg, "%.190s", err);
            return st;
        }
        if (!enter_all_dice(p, s->stopped && note.kept_cmds == s->n_cmds)) st = BATTLE_NOMEM;
        p->phys_sides = s->table.phys_sides;
        p->autosave_seen = p->play.b->log.n; /* the turn began before the save */
    }
    if (st == BATTLE_NOMEM || st == BATTLE_ILLEGAL || !p->play.b) {
        snprintf(p->msg, sizeof p->msg, "cannot start the battle: %s",
                 st == BATTLE_NOMEM ? "out of memory" : "unknown ruleset");
        if (p->play.b) play_end(&p->play);
        return st == BATTLE_OK ? BATTLE_NOMEM : st;
    }
    if (s->table.has_rng)
        p->rng = s->table.rng;
    else
        rng_seed(&p->rng, s->opts.seed ^ (uint64_t)p->play.b->dice.n_entered);
    st = finish_start(p, st);
    if (st == BATTLE_OK && note.text[0])
        snprintf(p->msg, sizeof p->msg, "Saved under other rules; the battle may differ: %.140s",
                 strstr(note.text, "saved: ") ? strstr(note.text, "saved: ") + 7 : note.text);
    else if (st == BATTLE_OK)
        snprintf(p->msg, sizeof p->msg, "%s %.150s. Press ? for the keys.",
                 replay ? "Replaying" : "Resumed", s->file);
    return st;
}

bool pui_save(pui_t *p)
{
    if (!p->started || p->replay || !p->save_path[0]) {
        snprintf(p->msg, sizeof p->msg, "%s", p->replay ? "A replay is not saved." : "No save file.");
        return true;
    }
    save_table_t t = {.has_rng = true, .rng = p->rng, .phys_sides = p->phys_sides};
    char err[HB_ERR_MAX];
    if (save_write(p->save_path, &p->play, &t, p->map_path, true, err, sizeof err) == HB_OK) {
        snprintf(p->msg, sizeof p->msg, "Saved to %.180s", p->save_path);
        p->saved_cmds = p->play.b->cmds.n;
    } else
        snprintf(p->msg, sizeof p->msg, "Not saved: %.180s", err);
    return true;
}

bool pui_unsaved(const pui_t *p)
{
    return p->started && !p->replay && p->play.b->cmds.n != p->saved_cmds;
}

bool pui_autosave(pui_t *p)
{
    if (!p->started || p->replay || !p->autosave_dir[0]) return false;
    const event_log_t *log = &p->play.b->log;
    /* An undo rebuilds a shorter log: look again from where it now ends. */
    if (p->autosave_seen > log->n) p->autosave_seen = log->n;
    bool turn = false;
    for (int k = p->autosave_seen; k < log->n && !turn; k++)
        turn = log->ev[k].type == EV_TURN_START;
    p->autosave_seen = log->n;
    if (!turn) return false;
    save_table_t t = {.has_rng = true, .rng = p->rng, .phys_sides = p->phys_sides};
    char err[HB_ERR_MAX];
    if (save_autosave(p->autosave_dir, &p->play, &t, p->map_path, err, sizeof err) != HB_OK) {
        snprintf(p->msg, sizeof p->msg, "Autosave failed: %.170s", err);
        return false;
    }
    return true;
}

void pui_free(pui_t *p)
{
    anim_free(&p->anim);
    if (p->play.b) play_end(&p->play);
    path_search_destroy(p->ps);
    free(p->reach);
    p->ps = NULL;
    p->reach = NULL;
    p->started = false;
}

/* How the actor moves in the chosen move command's mode (cmd_t.arg): the
 * ruleset's step cost, end rule and feet left, so the shading, the hover path
 * and the rules' check agree; the plain cost and speed without a hook. */
static void actor_move_cost(const pui_t *p, move_cost_t *mv)
{
    const battle_t *b = p->play.b;
    int i = p->actor;
    const ruleset_t *rs = rules(p);
    if (rs->move_cost && rs->move_cost(b, i, p->move_cmd.arg, mv)) return;
    geom_move_plain(b->board, i, b->prof[i].speed_ft, b->prof[i].interval_ft, mv);
}

static int round_to(int ft, int interval)
{
    return interval > 1 ? (ft + interval - 1) / interval * interval : ft;
}

/* The actor's cheapest leg from cell `from` to cell `to` (enemies and
 * impassable hexes barred, allies passed through) into out, start excluded.
 * Returns the cells (0 when from is to), -1 when there is no way or it is
 * longer than cap; *ft gets its cost before rounding. */
static int plan_leg(pui_t *p, cell_t from, cell_t to, cell_t *out, int cap, int *ft)
{
    const battle_t *b = p->play.b;
    const map_t *m = b->map;
    *ft = 0;
    if (!map_in_bounds(m, from) || !map_in_bounds(m, to)) return -1;
    int s = map_index(m, from), g = map_index(m, to);
    if (s == g) return 0;
    move_cost_t mv;
    actor_move_cost(p, &mv);
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
    bool fits = round_to(p->plan_ft, b->prof[a].interval_ft) <= b->prof[a].speed_ft;
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
    int k = rules(p)->legal(b, a, p->legal + keep, room);
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

static char bar_key(int i)
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
    if (rules(p)->describe && rules(p)->describe(b, c, buf, cap)) return;
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
    else if (c->kind == CMD_MOVE && c->arg >= 0 && c->arg < rules(p)->n_move_modes)
        snprintf(buf, cap, "Move: %.30s", rules(p)->move_modes[c->arg]);
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

/* The main-bar slot of button `want`: the one it had earlier this turn, else
 * the first one no action had; -1 when every slot is taken. */
static int bar_slot(pui_t *p, const pui_action_t *want)
{
    for (int k = 0; k < p->n_slots; k++)
        if (same_action(&p->slots[k], want)) return k;
    if (p->n_slots == PUI_MAX_BAR) return -1;
    p->slots[p->n_slots] = *want;
    return p->n_slots++;
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
        .arg = open_trigger ? c->arg : open_group ? 0 : c->arg,
        .group = open_group ? g : PUI_GROUP_NONE,
        .targeted = !open_group && c->target >= 0,
    };
    if (open_group) want.act = CMD_END;
    for (int k = 0; k < p->n_bar; k++)
        if (same_action(&p->bar[k], &want)) return;
    if (p->n_bar == PUI_MAX_BAR) return;
    want.slot = p->sub == PUI_GROUP_NONE ? bar_slot(p, &want) : p->n_bar;
    if (want.slot < 0) {
        p->slots_full = true; /* pui_refresh starts the slots afresh */
        return;
    }
    want.key = bar_key(want.slot);
    if (open_trigger)
        snprintf(want.label, sizeof want.label, "When %s...", trigger_label(c->arg));
    else if (open_group)
        snprintf(want.label, sizeof want.label, "%s", group_label(g));
    else
        action_label(p, c, want.label, sizeof want.label);
    p->bar[p->n_bar++] = want;
}

/* Add refused action r greyed, with its reason, on the main bar (see
 * ruleset_t.refused): it keeps the key it had while it was legal. */
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
    if (want.slot < 0) {
        p->slots_full = true;
        return;
    }
    want.key = bar_key(want.slot);
    action_label(p, c, want.label, sizeof want.label);
    snprintf(want.why, sizeof want.why, "%s", r->why);
    p->bar[p->n_bar++] = want;
}

/* The preview when nothing else is hovered: the planned legs, so the route
 * stays on screen while an attack is chosen from its end. */
static void show_plan(pui_t *p)
{
    p->n_path = 0;
    p->path_ok = false;
    if (p->n_plan == 0 || !p->user_turn) return;
    const battle_t *b = p->play.b;
    p->path[0] = hex_to_cell(b->map->layout, b->board->pos[p->actor]);
    memcpy(p->path + 1, p->plan, sizeof p->path[0] * (size_t)p->n_plan);
    p->n_path = 1 + p->n_plan;
    p->path_cost = round_to(p->plan_ft, b->prof[p->actor].interval_ft);
    p->path_ok = p->path_cost <= p->budget_ft;
}

/* Log index of the latest turn start (-1 before any). */
static int last_turn_start(const battle_t *b)
{
    for (int k = b->log.n - 1; k >= 0; k--)
        if (b->log.ev[k].type == EV_TURN_START) return k;
    return -1;
}

/* Is the turn start at log index `turn` the start of the turn of `actor`
 * the keys were given for at `from` (an earlier turn start, or -1): it
 * starts actor's turn and nothing in between ended a turn of actor's? */
static bool same_turn(const battle_t *b, int from, int turn, int actor)
{
    if (actor < 0 || turn < 0 || turn <= from || b->log.ev[turn].who != actor) return false;
    for (int k = from < 0 ? 0 : from + 1; k < turn; k++) {
        const event_t *e = &b->log.ev[k];
        if ((e->type == EV_TURN_END || e->type == EV_TURN_START) && e->who == actor) return false;
    }
    return true;
}

/* The bar of the legal list, in slot order (see pui_t.slots). */
static void build_bar(pui_t *p)
{
    for (int pass = 0; pass < 2; pass++) {
        p->n_bar = 0;
        p->slots_full = false;
        for (int i = 0; i < p->n_legal; i++)
            add_action(p, &p->legal[i]);
        refusal_t no[PUI_MAX_BAR];
        int n_no = p->sub == PUI_GROUP_NONE
                       ? ruleset_refused(rules(p), p->play.b, p->actor, no, PUI_MAX_BAR)
                       : 0;
        for (int i = 0; i < n_no; i++)
            add_refused(p, &no[i]);
        if (!p->slots_full) break;
        p->n_slots = 0; /* more actions than keys this turn: number them afresh */
    }
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
    int turn = last_turn_start(b);
    if (p->actor != old || turn != p->slots_turn) {
        /* A new turn: its actions get their keys afresh. Not when the turn
         * that starts is the one the keys were given for: a ruleset that
         * starts a member's turn with its first command (surface) keeps
         * the keys the referee saw when picking it. */
        if (p->actor != old || !same_turn(b, p->slots_turn, turn, p->actor)) p->n_slots = 0;
        p->slots_turn = turn;
    }
    p->n_legal = 0;
    p->n_bar = 0;
    p->n_reach = 0;
    p->budget_ft = 0;
    if (p->actor >= 0 && p->user_turn) {
        int k = rules(p)->legal(b, p->actor, p->legal, PUI_MAX_LEGAL);
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
            actor_move_cost(p, &mv);
            p->budget_ft = mv.budget_ft;
            p->n_reach = geom_reach_mode(&mv, p->ps, p->reach, b->map->cols * b->map->rows);
        }
    }
    if (p->mode != PUI_IDLE && (p->act >= p->n_bar)) p->mode = PUI_IDLE;
    show_plan(p);
}

/* Actions whose cell the rules leave to the caller (cmd_t.at): a teleport's
 * landing, the hex to dismount to, the object to use. */
static bool picks_cell(const pui_action_t *a)
{
    return a->group == PUI_GROUP_NONE &&
           (a->kind == CMD_TELEPORT || a->kind == CMD_DISMOUNT || a->kind == CMD_USE ||
            (a->kind == CMD_STANDBY && a->act == CMD_MOVE));
}

/* The legal command of bar entry act against target t, or NULL. */
static const cmd_t *legal_for(const pui_t *p, int act, int t)
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
    return (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) && legal_for(p, p->act, t) != NULL;
}

int pui_token_actions(const pui_t *p, int who, int *out, int cap)
{
    int n = 0;
    if (!p->started || p->replay || !p->user_turn || pui_needs_die(p) || pui_needs_answer(p) ||
        who < 0 || who >= p->play.b->n)
        return 0;
    for (int i = 0; i < p->n_bar && n < cap; i++)
        if (who == p->actor || (p->bar[i].targeted && legal_for(p, i, who)))
            out[n++] = i;
    return n;
}

/* The move a click on the previewed path's last hex gives. */
static cmd_t path_move(const pui_t *p)
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
        const cmd_t *c = legal_for(p, p->act, p->target);
        if (c) *out = *c;
        return c != NULL;
    }
    if (p->mode == PUI_IDLE && p->sel == p->actor && p->n_path >= 2 && p->path_ok) {
        *out = path_move(p);
        return true;
    }
    return false;
}

/* Apply c, feed its dice, and bring the screen up to date. */
static battle_status_t apply(pui_t *p, const cmd_t *c)
{
    battle_status_t st = pump(p, play_apply(&p->play, c));
    if (st != BATTLE_ILLEGAL) {
        p->n_plan = p->plan_ft = 0;  /* the plan was used */
        p->sub = PUI_GROUP_NONE;     /* and the group's choice made */
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

static void end_note(pui_t *p);

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
             q->labels[k][0] ? q->labels[k] : k ? "take it" : "pass");
    battle_status_t st = pump(p, play_answer_choice(&p->play, k));
    snprintf(p->msg, sizeof p->msg, "%s", said);
    if (pui_needs_die(p))
        pui_die_prompt(p, p->msg, sizeof p->msg);
    else if (pui_needs_answer(p))
        pui_answer_prompt(p, p->msg, sizeof p->msg);
    else if (st == BATTLE_ERROR)
        snprintf(p->msg, sizeof p->msg, "refused: %s", p->play.error);
    p->mode = PUI_IDLE;
    pui_refresh(p);
    end_note(p);
    return true;
}

/* Once the battle is over, the status line says so (the banner shows it
 * too) rather than keeping the last command's note. */
static void end_note(pui_t *p)
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
    show_plan(p);
    if (!on || !p->user_turn || p->mode != PUI_IDLE || p->sel != p->actor || p->n_reach == 0)
        return had || p->n_path > 0;
    if (reach_index(p, c) < 0) return had || p->n_path > 0;
    const battle_t *b = p->play.b;
    int len = 0, cost = 0;
    if (p->n_plan > 0) {
        /* The planned legs, then the cheapest way on to c. */
        int ft = 0;
        int n = plan_leg(p, p->plan[p->n_plan - 1], c, p->path + 1 + p->n_plan,
                         CMD_PATH_MAX - p->n_plan, &ft);
        if (n < 0) return had;
        p->path[0] = hex_to_cell(b->map->layout, b->board->pos[p->actor]);
        memcpy(p->path + 1, p->plan, sizeof p->path[0] * (size_t)p->n_plan);
        p->n_path = 1 + p->n_plan + n;
        p->path_cost = round_to(p->plan_ft + ft, b->prof[p->actor].interval_ft);
        p->path_ok = p->path_cost <= p->budget_ft && p->n_path >= 2;
        return true;
    }
    move_cost_t mv;
    actor_move_cost(p, &mv);
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
    long key_after = after >= 0 ? (long)hex_distance(from, b->board->pos[after]) * b->n + after : -1;
    int best = -1, first = -1;
    long best_key = 0, first_key = 0;
    for (int t = 0; t < b->n; t++) {
        if (!legal_for(p, p->act, t)) continue;
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
    const cmd_t *c = legal_for(p, p->act, t);
    /* A declaration with a planned move is judged from where the move ends. */
    board_t *bd = p->play.b->board;
    bool moved = c && c->kind == CMD_DECLARE && c->n_path > 0;
    board_trial_t trial = {.from = -1, .to = -1, .who = p->actor, .pos = bd->pos[p->actor]};
    if (moved)
        trial = board_try(bd, p->actor, hex_from_cell(p->play.b->map->layout, c->path[c->n_path - 1]));
    /* The ruleset's own odds (its predict hook), whatever kind of attack. */
    bool odds = c && predict_cmd(p->play.b, c, &p->pred);
    if (moved) board_untry(bd, &trial);
    char why[sizeof p->pred.detail + 4] = "";
    int cut = 0;
    if (odds && p->pred.detail[0]) snprintf(why, sizeof why, " [%s]", p->pred.detail);
    if (odds && (p->pred.p_hit >= 1.0 || p->pred.p_hit <= 0.0))
        /* Certain either way (no roll to hit, or none that can succeed). */
        cut = snprintf(p->msg, sizeof p->msg,
                 "%s -> %s: %s, %.1f damage expected%s. Enter or click again to confirm, Esc to "
                 "cancel.",
                 p->bar[p->act].label, pui_name(p, t),
                 p->pred.p_hit > 0.0 ? "lands for sure" : "cannot land from there",
                 p->pred.dmg_expected, why);
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
        snprintf(buf, cap, "Cannot move to (%d, %d): %.40s is impassable.", c.col, c.row,
                 t->name);
    } else {
        cell_t scratch[CMD_PATH_MAX];
        int ft = 0;
        int n = plan_leg(p, from, c, scratch, CMD_PATH_MAX, &ft);
        int cost = round_to(ft, b->prof[p->actor].interval_ft);
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
    cmd_t m = path_move(p);
    int cost = p->path_cost;
    if (apply(p, &m) != BATTLE_ILLEGAL)
        snprintf(p->msg, sizeof p->msg, "%s moves %d ft.", pui_name(p, m.actor), cost);
    end_note(p);
    return true;
}

bool pui_click_cell(pui_t *p, cell_t c)
{
    if (!p->started || pui_needs_die(p)) return false;
    /* Shift+click plans a leg of the move instead of moving. */
    if ((SDL_GetModState() & KMOD_SHIFT) && p->user_turn && p->mode == PUI_IDLE && p->n_reach > 0)
        return pui_plan_cell(p, c), true;
    int who = combatant_at(p, c);
    if (p->mode == PUI_TARGET && p->act < p->n_bar && picks_cell(&p->bar[p->act])) {
        /* The action's cell: the rules judge it; a refused one keeps asking. */
        const cmd_t *l = legal_for(p, p->act, -1);
        if (!l) return false;
        cmd_t cmd = *l;
        cmd.at = c;
        int act = p->act;
        char label[sizeof p->bar[0].label];
        snprintf(label, sizeof label, "%s", p->bar[act].label);
        if (apply(p, &cmd) == BATTLE_ILLEGAL) {
            p->mode = PUI_TARGET;
            p->act = act;
            snprintf(p->msg, sizeof p->msg, "%s: not to (%d, %d). Click another hex, Esc cancels.",
                     label, c.col, c.row);
        } else if (!pui_needs_die(p)) {
            snprintf(p->msg, sizeof p->msg, "%s: %s to (%d, %d).", pui_name(p, cmd.actor), label,
                     c.col, c.row);
            end_note(p);
        }
        return true;
    }
    if (p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) {
        if (who >= 0 && legal_for(p, p->act, who)) {
            if (p->mode == PUI_CONFIRM && who == p->target) return pui_confirm(p);
            set_confirm(p, who);
            return true;
        }
        snprintf(p->msg, sizeof p->msg, "Not a target for %s. Esc cancels.", p->bar[p->act].label);
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
    int n = plan_leg(p, from, c, p->plan + p->n_plan, CMD_PATH_MAX - p->n_plan, &ft);
    int cost = round_to(p->plan_ft + ft, b->prof[p->actor].interval_ft);
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
    if (!p->started || i < 0 || i >= p->n_bar || !p->user_turn || pui_needs_die(p)) return false;
    const pui_action_t *a = &p->bar[i];
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
                     bar_key(p->n_bar - 1));
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
    if (picks_cell(a)) {
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
    const cmd_t *c = legal_for(p, i, -1);
    if (!c) return false;
    cmd_t copy = *c;
    char label[sizeof p->bar[0].label];
    snprintf(label, sizeof label, "%s", a->label);
    if (apply(p, &copy) != BATTLE_ILLEGAL && !pui_needs_die(p))
        snprintf(p->msg, sizeof p->msg, "%s: %s.", pui_name(p, copy.actor), label);
    end_note(p);
    return true;
}

bool pui_choose_on(pui_t *p, int i, int who)
{
    if (!pui_choose(p, i)) return false;
    bool aiming = p->mode == PUI_TARGET || p->mode == PUI_CONFIRM;
    if (aiming && who != p->actor && !(p->mode == PUI_CONFIRM && p->target == who) &&
        legal_for(p, p->act, who))
        set_confirm(p, who);
    return true;
}

bool pui_confirm(pui_t *p)
{
    if (p->mode != PUI_CONFIRM) return false;
    const cmd_t *c = legal_for(p, p->act, p->target);
    if (!c) {
        p->mode = PUI_IDLE;
        return false;
    }
    cmd_t copy = *c;
    int seen = p->play.b->log.n;
    if (apply(p, &copy) != BATTLE_ILLEGAL && !pui_needs_die(p)) {
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
        end_note(p);
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
        snprintf(p->msg, sizeof p->msg, "%s", to_triggers ? "Back to the triggers." : "Back to the actions.");
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
    battle_status_t st = pump(p, play_apply(&p->play, c));
    if (st == BATTLE_NEED_DICE && pui_needs_die(p)) pui_die_prompt(p, p->msg, sizeof p->msg);
    pui_refresh(p);
    end_note(p);
    return st;
}

bool pui_end_turn(pui_t *p)
{
    if (!p->started || !p->user_turn || pui_needs_die(p)) return false;
    cmd_t e = cmd_make(CMD_END, p->actor);
    const char *who = pui_name(p, p->actor);
    char name[MAP_NAME_MAX];
    hb_strlcpy(name, who, sizeof name); /* apply() may rebuild and move the name */
    if (apply(p, &e) == BATTLE_ILLEGAL) return false;
    snprintf(p->msg, sizeof p->msg, "%s ends the turn.", name);
    end_note(p);
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
    pump(p, pui_needs_die(p) ? BATTLE_NEED_DICE : BATTLE_OK);
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
    battle_status_t st = pump(p, play_enter_die(&p->play, value));
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
    int s = side_of(p, who);
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
        pump(p, BATTLE_NEED_DICE);
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
        return pui_confirm(p);
    case SDLK_SPACE:
        if (anim_busy(&p->anim)) {
            anim_snap(&p->anim);
            return true;
        }
        return pui_end_turn(p);
    case SDLK_e:
        return pui_end_turn(p);
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
        if ((p->mode == PUI_TARGET || p->mode == PUI_CONFIRM) && !picks_cell(&p->bar[p->act])) {
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
    return false;
}

/* Replay: the next saved command; at the end, the saved stop. */
static void script_step(pui_t *p)
{
    if (p->script_pos >= p->n_script) {
        snprintf(p->msg, sizeof p->msg, "Replay: the saved battle ends here.");
        return;
    }
    cmd_t c = p->script[p->script_pos++];
    pump(p, play_apply(&p->play, &c));
    if (p->script_pos == p->n_script && p->script_stopped && !p->play.b->over)
        play_stop(&p->play);
    snprintf(p->msg, sizeof p->msg, "Replay: command %d of %d (Space skips the animation).",
             p->script_pos, p->n_script);
    pui_refresh(p);
}

/* One AI command for the current (non-player) actor. */
static void ai_step(pui_t *p)
{
    battle_t *b = p->play.b;
    if (p->replay) {
        script_step(p);
        return;
    }
    cmd_t c;
    rules(p)->ai(b, p->actor, &c);
    battle_status_t st = pump(p, play_apply(&p->play, &c));
    if (st == BATTLE_ILLEGAL || ++p->ai_guard > 48) {
        /* A stuck AI would spin for ever; ending its turn always moves on. */
        cmd_t end = cmd_make(CMD_END, p->actor);
        st = pump(p, play_apply(&p->play, &end));
        p->ai_guard = 0;
        if (st == BATTLE_ILLEGAL) play_stop(&p->play);
    }
    if (pui_needs_die(p)) pui_die_prompt(p, p->msg, sizeof p->msg);
    if (pui_needs_answer(p)) pui_answer_prompt(p, p->msg, sizeof p->msg);
    pui_refresh(p);
    end_note(p);
}

void pui_run_ai(pui_t *p, int max_cmds)
{
    for (int i = 0; i < max_cmds; i++) {
        if (!p->started || p->play.b->over || pui_needs_die(p) || pui_needs_answer(p) ||
            p->actor < 0 || p->user_turn)
            return;
        ai_step(p);
    }
}

bool pui_tick(pui_t *p, double dt)
{
    if (!p->started) return false;
    bool moving = anim_step(&p->anim, dt);
    const battle_t *b = p->play.b;
    if (b->over || pui_needs_die(p) || pui_needs_answer(p) || p->actor < 0 || p->user_turn) {
        if (!b->over && p->actor < 0 && !pui_needs_die(p) && !pui_needs_answer(p)) {
            /* Nobody can act and no die waits: the rules have run dry. */
            play_stop(&p->play);
            pui_refresh(p);
            return true;
        }
        return moving;
    }
    /* An AI turn: wait for the last command's animation, then a breath. */
    if (anim_busy(&p->anim)) {
        p->ai_wait = PUI_AI_PAUSE;
        return true;
    }
    p->ai_wait -= dt * p->anim.speed;
    if (p->ai_wait <= 0) {
        ai_step(p);
        p->ai_wait = PUI_AI_PAUSE;
    }
    return true;
}

const char *pui_result(const pui_t *p, char *buf, size_t cap)
{
    const battle_t *b = p->play.b;
    if (!b || !b->over) return NULL;
    if (b->winner < 0) {
        snprintf(buf, cap, "Draw after %d rounds", b->round);
        return buf;
    }
    const char *side = b->board->side_name[b->winner];
    bool player = map_faction_is_player(b->map, side);
    snprintf(buf, cap, "%s - %s win in round %d", player ? "VICTORY" : "DEFEAT", side, b->round);
    return buf;
}
