/* turn.c - scars: who acts and when, declaring, and the ruleset table.
 *
 * A round is a list of phases (RULINGS: scars order); in a phase every
 * member declares, then the phase resolves at once (attack.c). See
 * docs/rules-scars.md.
 */
#include <stdio.h>
#include <string.h>

#include "scars_int.h"

const char *const SCARS_STAT_NAMES[SS_COUNT] = {
    [SS_STR] = "str", [SS_DEX] = "dex", [SS_WIL] = "wil", [SS_ARMOR] = "armor",
    [SS_DETACHMENT] = "detachment",
};

static void scars_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                              geo_profile_t *out)
{
    (void)db;
    int fph = m->feet_per_hex;
    out->reach_ft = c->reach_ft > 0 ? c->reach_ft : fph;
    out->speed_ft = SCARS_MOVE_HEXES * fph;
    out->dash_ft = 2 * SCARS_MOVE_HEXES * fph; /* a second move spends the action */
    out->interval_ft = fph;
    out->flank_ft = 0; /* the system has no flanking */
}

bool scars_helpless(const battle_t *b, int i)
{
    return i >= 0 && i < b->n && (b->u[i].cond & SC_HELPLESS) != 0;
}

bool scars_fighting(const battle_t *b, int i)
{
    return battle_active(b, i) && !scars_helpless(b, i);
}

int scars_winner(const battle_t *b)
{
    /* As battle_last_side, but a helpless combatant lying on the map no
     * longer holds the field for its side. */
    int alive = -1, sides = 0;
    for (int sd = 0; sd < b->board->n_sides; sd++)
        for (int i = 0; i < b->n; i++)
            if (b->board->side[i] == sd && scars_fighting(b, i)) {
                alive = sd;
                sides++;
                break;
            }
    if (sides == 0)
        return -1;
    return sides == 1 ? alive : -2;
}

/* ---- phases ------------------------------------------------------------- */

bool scars_crawling(const battle_t *b, int i)
{
    /* Critical damage and nothing worse: a PC crawling weakly, grasping for life. */
    return battle_active(b, i) && (b->u[i].cond & SC_HELPLESS) == SC_CRITICAL &&
           sc_cst(b)->player[i];
}

/* May i declare at all: fighting, or a PC that can still crawl. */
bool sc_can_act(const battle_t *b, int i)
{
    return scars_fighting(b, i) || scars_crawling(b, i);
}

bool scars_in_phase(const battle_t *b, int i)
{
    const sc_state_t *s = sc_cst(b);
    if (s->phase < 0 || s->phase >= s->n_phases || !sc_can_act(b, i))
        return false;
    switch (s->phase_kind[s->phase]) {
    case SP_PASSED:
        return s->player[i] && s->passed[i];
    case SP_FAILED:
        return s->player[i] && !s->passed[i];
    default:
        return !s->player[i] && b->board->side[i] == s->phase_side[s->phase];
    }
}

static int scars_actors(const battle_t *b, int *out, int cap)
{
    const sc_state_t *s = sc_cst(b);
    int n = 0;
    if (b->over || s->phase < 0)
        return 0;
    for (int i = 0; i < b->n; i++)
        if (scars_in_phase(b, i) && !s->decl[i].set && n < cap)
            out[n++] = i;
    return n;
}

/* The board side a phase belongs to (the players' side for their two phases). */
static int phase_side(const battle_t *b, int k)
{
    const sc_state_t *s = sc_cst(b);
    if (k < 0 || k >= s->n_phases)
        return -1;
    if (s->phase_kind[k] == SP_SIDE)
        return s->phase_side[k];
    for (int i = 0; i < b->n; i++)
        if (s->player[i])
            return b->board->side[i];
    return -1;
}

/* A phase's kind as the turn events name it. */
static const char *phase_name(const sc_state_t *s, int k)
{
    if (k < 0 || k >= s->n_phases)
        return "";
    return s->phase_kind[k] == SP_PASSED ? "passed" : s->phase_kind[k] == SP_FAILED ? "failed" : "side";
}

static void start_phase(battle_t *b)
{
    sc_state_t *s = sc_st(b);
    memset(s->decl, 0, sizeof(s->decl[0]) * (size_t)b->n);
    event_t e = event_make(EV_TURN_START);
    e.value = b->round;
    int k = s->phase;
    e.side = phase_side(b, k);
    hb_strlcpy(e.name, phase_name(s, k), sizeof e.name);
    battle_emit(b, &e);
}

void sc_resolve_phase(battle_t *b);

/* Move on to the next phase with anyone in it; close rounds as they pass. */
static void advance(battle_t *b)
{
    sc_state_t *s = sc_st(b);
    if (scars_winner(b) != -2)
        return;
    /* The phase that ends is the one that started; phases with nobody in
     * them are passed over without a turn of their own. */
    event_t e = event_make(EV_TURN_END);
    e.value = b->round;
    e.side = phase_side(b, s->phase);
    hb_strlcpy(e.name, phase_name(s, s->phase), sizeof e.name);
    battle_emit(b, &e);
    for (int guard = 0; guard < 2 * s->n_phases + 2; guard++) {
        s->phase++;
        if (s->phase >= s->n_phases) {
            s->phase = 0;
            if (!battle_round_end(b)) {
                s->phase = -1;
                return;
            }
        }
        int any;
        if (scars_actors(b, &any, 1) > 0) {
            start_phase(b);
            return;
        }
    }
    s->phase = -1;
}

static void scars_setup(battle_t *b)
{
    sc_state_t *s = sc_st(b);
    for (int i = 0; i < b->n; i++) {
        s->player[i] = battle_is_player(b, i);
        /* Scores the map gives at 0 mean from the start what they mean later:
         * STR 0 is death, DEX 0 paralysis, WIL 0 delirium (RULINGS). A score
         * nobody gave stays out of it. */
        for (int slot = SS_STR; slot <= SS_WIL; slot++)
            if (battle_active(b, i) && b->u[i].stat[slot] <= 0 &&
                battle_stat_given(b, i, SCARS_STAT_NAMES[slot]))
                scars_lose_ability(b, i, slot, 0);
        /* No HP and no STR at all, given or not: not in this battle. */
        if (battle_active(b, i) && b->u[i].hp <= 0 && b->u[i].stat[SS_STR] <= 0)
            battle_remove(b, i);
    }
    /* Each player-side combatant able to act makes a DEX save: does it beat the foe? */
    for (int i = 0; i < b->n; i++) {
        if (!s->player[i] || !sc_can_act(b, i))
            continue;
        s->passed[i] = sc_save(b, i, SS_DEX, "DEX save");
        battle_emit_action(b, i, "act_first", -1, s->passed[i]);
    }
    s->n_phases = 0;
    s->phase_kind[s->n_phases++] = SP_PASSED;
    bool seen[MAP_MAX_FACTIONS] = {false};
    for (int i = 0; i < b->n; i++) {
        int sd = b->board->side[i];
        if (s->player[i] || seen[sd])
            continue;
        seen[sd] = true;
        s->phase_kind[s->n_phases] = SP_SIDE;
        s->phase_side[s->n_phases++] = sd;
    }
    s->phase_kind[s->n_phases++] = SP_FAILED;
    b->round = 1;
    int any;
    for (s->phase = 0; s->phase < s->n_phases; s->phase++)
        if (scars_actors(b, &any, 1) > 0) {
            start_phase(b);
            return;
        }
    s->phase = -1; /* nobody can act at all */
}

/* ---- declaring ---------------------------------------------------------- */

static const char *const MOVE_MODES[SM_COUNT] = {[SM_MOVE] = "move", [SM_SECOND] = "second_move"};

/* A step of a declared move: the ordinary cost (difficult terrain double,
 * enemies barred, allies passed); a hamstrung or crawling mover takes one
 * step at most. */
static int scars_step(void *ud, int from, int to)
{
    const move_cost_t *mv = ud;
    if ((mv->flags & 1) && from != mv->start)
        return -1;
    path_mover_t pm = {mv->board, mv->who};
    return path_move_cost(&pm, from, to);
}

bool scars_move_cost(const battle_t *b, int i, int mode, move_cost_t *out)
{
    if (mode < 0 || mode >= SM_COUNT || !sc_can_act(b, i))
        return false;
    bool crawling = scars_crawling(b, i);
    if (crawling && mode == SM_SECOND)
        return false; /* a crawl is no action */
    int budget = (mode == SM_SECOND ? 2 : 1) * b->prof[i].speed_ft;
    if (sc_cst(b)->decl[i].set)
        budget = 0; /* declared already: nothing left this phase */
    geom_move_plain(b->board, i, budget, b->prof[i].interval_ft, out);
    out->step = scars_step;
    out->mode = mode;
    /* Hamstrung barely moves and a critical PC crawls: one hex at most. */
    out->flags = crawling || (b->u[i].cond & SC_HAMSTRUNG) ? 1 : 0;
    out->start = board_cell_index(b->board, sc_pos(b, i));
    return true;
}

bool scars_dual_ok(const battle_t *b, int a, int w, int w2)
{
    if (w2 < 0)
        return w2 == -1;
    int n = b->u[a].n_weapons;
    if (w < 0 || w >= n || w2 >= n || w2 == w)
        return false;
    /* A two-handed weapon takes both hands: it never joins a dual attack. */
    return battle_weapon_tag(battle_weapon(b, a, w), "two_handed") <= 0 &&
           battle_weapon_tag(battle_weapon(b, a, w2), "two_handed") <= 0;
}

static battle_status_t scars_apply(battle_t *b, const cmd_t *c)
{
    if (sc_is_call(c->kind))
        return sc_apply_call(b, c);
    sc_state_t *s = sc_st(b);
    int a = c->actor;
    if (b->over || a < 0 || a >= b->n || !scars_in_phase(b, a) || s->decl[a].set)
        return BATTLE_ILLEGAL;
    cmd_kind_t act;
    if (c->kind == CMD_END)
        act = CMD_END;
    else if (c->kind == CMD_DECLARE)
        act = c->act;
    else
        return BATTLE_ILLEGAL;
    if (act != CMD_END && act != CMD_ENGAGE && act != CMD_MOVE && act != CMD_RETREAT &&
        act != CMD_STABILIZE)
        return BATTLE_ILLEGAL;
    /* The path (if any) is a move in the mode the act implies. */
    move_cost_t mv;
    if (!scars_move_cost(b, a, act == CMD_MOVE ? SM_SECOND : SM_MOVE, &mv))
        return BATTLE_ILLEGAL;
    int n_path = c->kind == CMD_DECLARE ? c->n_path : 0;
    int cost = n_path == 0 ? 0 : n_path > SCARS_PATH_MAX ? -1 : geom_path_price(&mv, c->path, n_path);
    if (cost < 0 || cost > mv.budget_ft)
        return BATTLE_ILLEGAL;
    /* A crawling PC crawls (move_cost allows it one hex) and does nothing else. */
    if (scars_crawling(b, a) && act != CMD_END)
        return BATTLE_ILLEGAL;
    if (act == CMD_ENGAGE) {
        if (c->target < 0 || c->target >= b->n || !battle_active(b, c->target) || c->target == a)
            return BATTLE_ILLEGAL;
        if (c->weapon < -1 || c->weapon >= b->u[a].n_weapons ||
            !scars_dual_ok(b, a, c->weapon, c->weapon2))
            return BATTLE_ILLEGAL;
        if (c->arg & ~(SC_MARK_IMPAIRED | SC_MARK_ENHANCED))
            return BATTLE_ILLEGAL;
    }
    /* Aid goes to a helpless ally of one's own side, none other. */
    if (act == CMD_STABILIZE &&
        (c->target < 0 || c->target >= b->n || c->target == a || !battle_active(b, c->target) ||
         sc_enemies(b, a, c->target) || !(b->u[c->target].cond & (SC_CRITICAL | SC_MORTAL))))
        return BATTLE_ILLEGAL;
    sc_decl_t *d = &s->decl[a];
    memset(d, 0, sizeof *d);
    d->set = 1;
    d->act = (unsigned char)act;
    d->target = (short)(act == CMD_ENGAGE || act == CMD_STABILIZE ? c->target : -1);
    d->weapon = (short)(c->kind == CMD_DECLARE ? c->weapon : -1);
    d->weapon2 = (short)(c->kind == CMD_DECLARE ? c->weapon2 : -1);
    if (act == CMD_ENGAGE) {
        /* The referee's pending mark on a's next attack joins any given here. */
        d->marks = (unsigned char)(c->arg | s->marks[a]);
        s->marks[a] = 0;
    }
    d->n_path = (short)(c->kind == CMD_DECLARE ? c->n_path : 0);
    for (int k = 0; k < d->n_path; k++)
        d->path[k] = c->path[k];
    event_t e = event_make(EV_DECLARE);
    e.who = a;
    e.target = d->target;
    /* A move alone keeps the action ("move", or "hold" standing still); a
     * second move spends it ("second_move"). */
    const char *name = act == CMD_END    ? (d->n_path ? "move" : "hold")
                       : act == CMD_MOVE ? "second_move"
                                         : cmd_kind_name(act);
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
    int any;
    if (scars_actors(b, &any, 1) == 0) {
        sc_resolve_phase(b);
        advance(b);
    }
    return BATTLE_OK;
}

static int scars_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    (void)b;
    (void)reactor;
    (void)offer;
    return 0; /* the system has no reactions */
}

static int scars_legal(battle_t *b, int a, cmd_t *out, int cap)
{
    int n = 0;
    if (!scars_in_phase(b, a) || sc_cst(b)->decl[a].set)
        return 0;
    if (n < cap)
        out[n] = cmd_make(CMD_END, a);
    n++;
    if (scars_crawling(b, a))
        return n; /* crawl a hex or lie still: nothing else */
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !sc_enemies(b, a, t))
            continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            const weapon_t *wp = battle_weapon(b, a, w);
            if (hex_distance(sc_pos(b, a), sc_pos(b, t)) > scars_weapon_band(b, wp))
                continue;
            cmd_t c = cmd_make(CMD_DECLARE, a);
            c.act = CMD_ENGAGE;
            c.target = t;
            c.weapon = w;
            if (n < cap)
                out[n] = c;
            n++;
            /* Dual weapons: this one with each later weapon that also reaches. */
            for (int w2 = w + 1; w >= 0 && w2 < b->u[a].n_weapons; w2++) {
                if (!scars_dual_ok(b, a, w, w2) ||
                    hex_distance(sc_pos(b, a), sc_pos(b, t)) > scars_weapon_band(b, battle_weapon(b, a, w2)))
                    continue;
                c.weapon2 = w2;
                if (n < cap)
                    out[n] = c;
                n++;
            }
        }
    }
    /* Aid to a helpless ally beside it (a route planned first reaches others). */
    for (int t = 0; t < b->n; t++) {
        if (t == a || !battle_active(b, t) || sc_enemies(b, a, t) ||
            !(b->u[t].cond & (SC_CRITICAL | SC_MORTAL)) ||
            hex_distance(sc_pos(b, a), sc_pos(b, t)) > CLOSE_HEX)
            continue;
        cmd_t aid = cmd_make(CMD_DECLARE, a);
        aid.act = CMD_STABILIZE;
        aid.target = t;
        if (n < cap)
            out[n] = aid;
        n++;
    }
    cmd_t mv = cmd_make(CMD_DECLARE, a);
    mv.act = CMD_MOVE;
    mv.arg = SM_SECOND;
    if (n < cap)
        out[n] = mv;
    n++;
    if (sc_on_edge(b, a)) {
        cmd_t r = cmd_make(CMD_DECLARE, a);
        r.act = CMD_RETREAT;
        if (n < cap)
            out[n] = r;
        n++;
    }
    return n;
}

/* Scars has no hiding or cloaking: every combatant is always in view. */
static bool scars_hidden_from(const battle_t *b, int who, int side)
{
    (void)b;
    (void)who;
    (void)side;
    return false;
}

const ruleset_t ruleset_scars = {
    .id = "scars",
    .title = "Scars: save-based skirmish",
    .geo_profile = scars_geo_profile,
    .stat_names = SCARS_STAT_NAMES,
    .n_stats = SS_COUNT,
    .state_size = sizeof(sc_state_t),
    .setup = scars_setup,
    .actors = scars_actors,
    .move_modes = MOVE_MODES,
    .n_move_modes = SM_COUNT,
    .move_cost = scars_move_cost,
    .legal = scars_legal,
    .apply = scars_apply,
    .react = scars_react,
    .ai = sc_ai,
    .winner = scars_winner,
    .hidden_from = scars_hidden_from,
    .weapon_area = sc_weapon_area,
    .calls = sc_calls,
    .call_kinds = RULESET_CALL(CMD_SAVE) | RULESET_CALL(CMD_MARK) | RULESET_CALL(CMD_TELEGRAPH) |
                  RULESET_CALL(CMD_WEAKEN),
    .predict = sc_predict_hook,
    .bands = sc_bands,
    .gauges = sc_gauges,
    .intents = sc_intents,
    /* 1: issue 22 (the scars table read by damage, doom ending at the next
     * critical save, the crawl, scores of 0 from the start, unarmed d4, cover
     * fixed for a resolution, two-handed weapons never dual). */
    .revision = 1,
};
