/* scars.c - the save-based "scars" ruleset. See docs/rules-scars.md.
 *
 * No attack rolls: an attack that can reach deals its die minus armor. Whole
 * sides declare, then resolve together, which is where the pooling of
 * attackers on one target (keep the single highest die) comes from.
 */
#include <stdio.h>
#include <string.h>

#include "ruleset.h"
#include "scars.h"

#define NMAX MAP_MAX_COMBATANTS
/* Ranges in hexes (RULINGS: scars). */
#define CLOSE_HEX 1
#define NEARBY_HEX 10
#define DISTANT_HEX 20

static const char *const STAT_NAMES[SS_COUNT] = {
    [SS_STR] = "str", [SS_DEX] = "dex", [SS_WIL] = "wil", [SS_ARMOR] = "armor",
    [SS_DETACHMENT] = "detachment",
};

static sc_state_t *st(battle_t *b) { return (sc_state_t *)b->rs; }
static const sc_state_t *cst(const battle_t *b) { return (const sc_state_t *)b->rs; }

static void scars_geo_profile(const map_t *m, const map_combatant_t *c, geo_profile_t *out)
{
    int fph = m->feet_per_hex;
    out->reach_ft = c->reach_ft > 0 ? c->reach_ft : fph;
    out->speed_ft = SCARS_MOVE_HEXES * fph;
    out->dash_ft = 2 * SCARS_MOVE_HEXES * fph; /* a second move spends the action */
    out->interval_ft = fph;
    out->flank_ft = 0; /* the system has no flanking */
}

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }
static bool enemies(const battle_t *b, int i, int j) { return !board_allies(b->board, i, j); }
static bool detachment(const battle_t *b, int i) { return b->u[i].stat[SS_DETACHMENT] > 0; }
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

static void emit_cond(battle_t *b, int i, const char *name, bool on)
{
    event_t e = event_make(EV_CONDITION);
    e.who = i;
    e.on = on;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

static void emit_stat(battle_t *b, int i, const char *name, int value)
{
    event_t e = event_make(EV_STAT);
    e.who = i;
    e.value = value;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

static void defeat(battle_t *b, int i)
{
    battle_remove(b, i);
    event_t e = event_make(EV_DEFEATED);
    e.who = i;
    battle_emit(b, &e);
}

/* Helpless: still on the map and still a target (enhanced), but it never acts
 * again and no longer counts for its side. A second blow of the same kind
 * changes nothing more (only STR loss can still kill). */
static void incapacitate(battle_t *b, int i, unsigned bit, const char *name)
{
    if (b->u[i].cond & bit)
        return;
    b->u[i].cond |= bit;
    emit_cond(b, i, name, true);
}

/* A save: d20 at or under the score passes. */
static bool save(battle_t *b, int i, int slot, const char *why)
{
    int r = battle_roll(b, i, 1, 20, 0, 0, why, NULL);
    return r <= b->u[i].stat[slot];
}

void scars_lose_ability(battle_t *b, int t, int slot, int amount)
{
    unit_t *u = &b->u[t];
    u->stat[slot] -= amount;
    if (u->stat[slot] < 0)
        u->stat[slot] = 0;
    emit_stat(b, t, STAT_NAMES[slot], u->stat[slot]);
    if (u->stat[slot] > 0 || u->out)
        return;
    if (slot == SS_STR)
        defeat(b, t); /* STR 0 is death (a detachment destroyed) */
    else if (slot == SS_DEX)
        incapacitate(b, t, SC_PARALYZED, "paralyzed");
    else if (slot == SS_WIL)
        incapacitate(b, t, SC_DELIRIOUS, "delirious");
}

/* A new maximum HP (the scars table's "take the new result"). */
static void set_max_hp(battle_t *b, int t, int v)
{
    b->u[t].hp_max = v;
    emit_stat(b, t, "max_hp", v);
}

/* A new maximum for ability SLOT; the score itself is raised with it when
 * raise_current (a head wound reshapes the current score). */
static void set_ability(battle_t *b, int t, int slot, int v, bool raise_current)
{
    char name[EV_NAME_MAX];
    unit_t *u = &b->u[t];
    if (v > u->stat_max[slot]) {
        u->stat_max[slot] = v;
        snprintf(name, sizeof name, "max_%s", STAT_NAMES[slot]);
        emit_stat(b, t, name, v);
    }
    if (raise_current && v > u->stat[slot]) {
        u->stat[slot] = v;
        emit_stat(b, t, STAT_NAMES[slot], v);
    }
}

/* Roll n d`sides` for a scar of t; the total. */
static int scar_roll(battle_t *b, int t, int n, int sides, const char *why)
{
    return battle_roll(b, t, n, sides, 0, 0, why, NULL);
}

/* "Roll XdY. If the total is higher than your max HP, take the new result." */
static void scar_max_hp(battle_t *b, int t, int n, int sides)
{
    int r = scar_roll(b, t, n, sides, "scar: max HP");
    if (r > b->u[t].hp_max)
        set_max_hp(b, t, r);
}

/* The scars table, for a PC left at exactly 0 HP by an attack that dealt
 * `damage` (after armor): rows 1 to 12, 12 or more reading row 12 (RULINGS).
 * The scar's own dice are rolled at once, and its effect on max HP, max WIL
 * or an ability applies at once. */
static void scar(battle_t *b, int t, int damage)
{
    static const char *const NAMES[13] = {
        "", "lasting_scar", "rattling_blow", "walloped", "broken_limb", "diseased",
        "reorienting_head_wound", "hamstrung", "deafened", "re_brained", "sundered",
        "mortal_wound", "doomed",
    };
    int row = damage < 1 ? 1 : damage > 12 ? 12 : damage;
    unit_t *u = &b->u[t];
    char name[EV_NAME_MAX];
    snprintf(name, sizeof name, "scar:%s", NAMES[row]);
    emit_cond(b, t, name, true);
    switch (row) {
    case 1: /* where the scar sits (1d6), or which limb broke (1d6); then a new */
    case 2: /* max HP if higher: 1d6 (scar, rattling blow) or 2d6 (limb, disease) */
    case 4:
    case 5:
        if (row == 1 || row == 4)
            scar_roll(b, t, 1, 6, row == 1 ? "scar location" : "broken limb");
        scar_max_hp(b, t, row <= 2 ? 1 : 2, 6);
        break;
    case 3: /* flat on its face: deprived, and 1d6 more max HP */
        u->cond |= SC_DEPRIVED;
        emit_cond(b, t, "deprived", true);
        set_max_hp(b, t, u->hp_max + scar_roll(b, t, 1, 6, "scar: max HP"));
        break;
    case 6: { /* 1-2 STR, 3-4 DEX, 5-6 WIL: 3d6 replaces the score if higher */
        int which = scar_roll(b, t, 1, 6, "head wound ability");
        int slot = which <= 2 ? SS_STR : which <= 4 ? SS_DEX : SS_WIL;
        set_ability(b, t, slot, scar_roll(b, t, 3, 6, "scar: ability"), true);
        break;
    }
    case 7:
        u->cond |= SC_HAMSTRUNG;
        emit_cond(b, t, "hamstrung", true);
        set_ability(b, t, SS_DEX, scar_roll(b, t, 3, 6, "scar: max DEX"), false);
        break;
    case 8:
    case 10: /* a passed WIL save raises max WIL by 1d4 (deafened) or 1d6 (sundered) */
        if (save(b, t, SS_WIL, "WIL save"))
            set_ability(b, t, SS_WIL,
                        u->stat_max[SS_WIL] + scar_roll(b, t, 1, row == 8 ? 4 : 6, "scar: max WIL"),
                        false);
        break;
    case 9:
        set_ability(b, t, SS_WIL, scar_roll(b, t, 3, 6, "scar: max WIL"), false);
        break;
    case 11: /* out of action; 2d6 becomes max HP, whatever it is */
        u->cond |= SC_DEPRIVED;
        incapacitate(b, t, SC_MORTAL, "mortal_wound");
        set_max_hp(b, t, scar_roll(b, t, 2, 6, "scar: max HP"));
        break;
    case 12:
        u->cond |= SC_DOOMED;
        break;
    default:
        break;
    }
}

void scars_damage(battle_t *b, int t, int amount)
{
    unit_t *u = &b->u[t];
    if (amount < 0)
        amount = 0;
    int before = u->hp;
    int left = u->hp - amount;
    u->hp = left > 0 ? left : 0;
    event_t e = event_make(EV_DAMAGE);
    e.target = t;
    e.amount = amount;
    e.hp = u->hp;
    battle_emit(b, &e);
    if (amount == 0)
        return;
    if (left == 0 && before > 0) {
        if (map_faction_is_player(b->map, b->map->combatants[t].faction) && !detachment(b, t))
            scar(b, t, amount);
        return;
    }
    if (left >= 0)
        return;
    /* Past zero: the rest comes off STR, then a STR save against critical damage. */
    scars_lose_ability(b, t, SS_STR, -left);
    if (!battle_active(b, t))
        return;
    bool passed = save(b, t, SS_STR, "STR save");
    if (u->cond & SC_DOOMED) {
        /* Doom ends at this save, pass or fail: death on a fail; on a pass,
         * 3d6 as a new max HP if higher. */
        u->cond &= ~(unsigned)SC_DOOMED;
        if (!passed) {
            emit_cond(b, t, "doomed", true);
            defeat(b, t);
            return;
        }
        emit_cond(b, t, "doomed", false);
        scar_max_hp(b, t, 3, 6);
        return;
    }
    if (passed)
        return;
    if (detachment(b, t)) {
        emit_cond(b, t, "routed", true);
        defeat(b, t);
    } else if (map_faction_is_player(b->map, b->map->combatants[t].faction)) {
        incapacitate(b, t, SC_CRITICAL, "critical");
    } else {
        emit_cond(b, t, "critical", true);
        defeat(b, t);
    }
}

/* ---- phases ------------------------------------------------------------- */

bool scars_crawling(const battle_t *b, int i)
{
    /* Critical damage and nothing worse: a PC crawling weakly, grasping for life. */
    return battle_active(b, i) && (b->u[i].cond & SC_HELPLESS) == SC_CRITICAL &&
           cst(b)->player[i];
}

/* May i declare at all: fighting, or a PC that can still crawl. */
static bool can_act(const battle_t *b, int i)
{
    return scars_fighting(b, i) || scars_crawling(b, i);
}

bool scars_in_phase(const battle_t *b, int i)
{
    const sc_state_t *s = cst(b);
    if (s->phase < 0 || s->phase >= s->n_phases || !can_act(b, i))
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
    const sc_state_t *s = cst(b);
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
    const sc_state_t *s = cst(b);
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
    sc_state_t *s = st(b);
    memset(s->decl, 0, sizeof(s->decl[0]) * (size_t)b->n);
    event_t e = event_make(EV_TURN_START);
    e.value = b->round;
    int k = s->phase;
    e.side = phase_side(b, k);
    hb_strlcpy(e.name, phase_name(s, k), sizeof e.name);
    battle_emit(b, &e);
}

static void resolve_phase(battle_t *b);

/* Move on to the next phase with anyone in it; close rounds as they pass. */
static void advance(battle_t *b)
{
    sc_state_t *s = st(b);
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
    sc_state_t *s = st(b);
    for (int i = 0; i < b->n; i++) {
        s->player[i] = battle_is_player(b, i);
        /* Scores the map gives at 0 mean from the start what they mean later:
         * STR 0 is death, DEX 0 paralysis, WIL 0 delirium (RULINGS). A score
         * nobody gave stays out of it. */
        for (int slot = SS_STR; slot <= SS_WIL; slot++)
            if (battle_active(b, i) && b->u[i].stat[slot] <= 0 &&
                battle_stat_given(b, i, STAT_NAMES[slot]))
                scars_lose_ability(b, i, slot, 0);
        /* No HP and no STR at all, given or not: not in this battle. */
        if (battle_active(b, i) && b->u[i].hp <= 0 && b->u[i].stat[SS_STR] <= 0)
            battle_remove(b, i);
    }
    /* Each player-side combatant able to act makes a DEX save: does it beat the foe? */
    for (int i = 0; i < b->n; i++) {
        if (!s->player[i] || !can_act(b, i))
            continue;
        s->passed[i] = save(b, i, SS_DEX, "DEX save");
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
    if (mode < 0 || mode >= SM_COUNT || !can_act(b, i))
        return false;
    bool crawling = scars_crawling(b, i);
    if (crawling && mode == SM_SECOND)
        return false; /* a crawl is no action */
    int budget = (mode == SM_SECOND ? 2 : 1) * b->prof[i].speed_ft;
    if (cst(b)->decl[i].set)
        budget = 0; /* declared already: nothing left this phase */
    geom_move_plain(b->board, i, budget, b->prof[i].interval_ft, out);
    out->step = scars_step;
    out->mode = mode;
    /* Hamstrung barely moves and a critical PC crawls: one hex at most. */
    out->flags = crawling || (b->u[i].cond & SC_HAMSTRUNG) ? 1 : 0;
    out->start = board_cell_index(b->board, pos(b, i));
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
    sc_state_t *s = st(b);
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
    if (act != CMD_END && act != CMD_ENGAGE && act != CMD_MOVE && act != CMD_RETREAT)
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
    sc_decl_t *d = &s->decl[a];
    memset(d, 0, sizeof *d);
    d->set = 1;
    d->act = (unsigned char)act;
    d->target = (short)(act == CMD_ENGAGE ? c->target : -1);
    d->weapon = (short)(c->kind == CMD_DECLARE ? c->weapon : -1);
    d->weapon2 = (short)(c->kind == CMD_DECLARE ? c->weapon2 : -1);
    d->marks = (unsigned char)(act == CMD_ENGAGE ? c->arg : 0);
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
        resolve_phase(b);
        advance(b);
    }
    return BATTLE_OK;
}

/* ---- resolving ---------------------------------------------------------- */

static bool on_edge(const battle_t *b, int i)
{
    cell_t c = hex_to_cell(b->map->layout, pos(b, i));
    return c.col == 0 || c.row == 0 || c.col == b->map->cols - 1 || c.row == b->map->rows - 1;
}

int scars_weapon_band(const battle_t *b, const weapon_t *w)
{
    if (!w || w->cls == WPN_MELEE)
        return CLOSE_HEX;
    int h = geom_ft_to_hexes(b->map, w->range_ft);
    /* Ranges round up to the text's bands: nearby or distant. */
    if (h <= CLOSE_HEX)
        return CLOSE_HEX;
    return h <= NEARBY_HEX ? NEARBY_HEX : DISTANT_HEX;
}

/* The die of a's attack on t with w, given the cover on the line between them
 * and the referee's marks: the weapon's own, d4 impaired, d12 enhanced. */
static sc_die_t die_of(const battle_t *b, int a, int t, const weapon_t *w, bool spill,
                       cover_t cover, unsigned marks)
{
    /* Unarmed is always a d4, whatever else holds: the specific rule wins. */
    if (!w)
        return (sc_die_t){1, 4, false, false};
    /* A flat weapon (no dice) rolls nothing of its own: 0 unless impaired or enhanced. */
    int sides = w->dice_sides, n = w->dice_n;
    bool blast = battle_weapon_tag(w, "blast") > 0;
    /* Cover impairs an aimed attack; a blast's spill goes around it. */
    bool impaired = !spill && (cover == COVER_LIGHT || cover == COVER_HEAVY);
    if (detachment(b, t) && !detachment(b, a) && !blast)
        impaired = true;
    if (marks & SC_MARK_IMPAIRED)
        impaired = true;
    bool enhanced = scars_helpless(b, t) || (detachment(b, a) && !detachment(b, t)) ||
                    (marks & SC_MARK_ENHANCED);
    if (impaired && enhanced) {
        /* The two cancel: the weapon's own die. */
    } else if (impaired) {
        sides = 4;
        n = 1;
    } else if (enhanced) {
        sides = 12;
        n = 1;
    }
    return (sc_die_t){n, sides, impaired, enhanced};
}

sc_die_t scars_attack_die(const battle_t *b, int a, int t, const weapon_t *w, bool spill)
{
    cover_t cover = spill ? COVER_NONE : sight_trace(b->board, pos(b, a), pos(b, t)).cover;
    return die_of(b, a, t, w, spill, cover, 0);
}

/* Does a's attack with w reach t from where both stand? */
static bool reaches(const battle_t *b, int a, int t, const weapon_t *w)
{
    return hex_distance(pos(b, a), pos(b, t)) <= scars_weapon_band(b, w) &&
           sight_clear(b->board, pos(b, a), pos(b, t));
}

/* A weapon's own blast: tag blast=R, R hexes around where it lands. */
static bool scars_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at,
                              area_t *out)
{
    (void)m;
    int radius = battle_weapon_tag(w, "blast");
    if (radius <= 0)
        return false;
    *out = area_blast(from, at, radius);
    return true;
}

bool scars_blast_area(const battle_t *b, int a, int t, const weapon_t *w, area_t *out)
{
    if (scars_weapon_area(b->map, w, pos(b, a), pos(b, t), out))
        return true;
    if (!detachment(b, a) || detachment(b, t))
        return false;
    /* A detachment's onslaught on an individual spills onto the hexes next to it. */
    *out = area_blast(pos(b, a), pos(b, t), 1);
    return true;
}

bool scars_blast_catches(const battle_t *b, int a, int t, int k, hex_t at, const weapon_t *w)
{
    area_t area;
    if (k == t || k == a || !scars_blast_area(b, a, t, w, &area))
        return false;
    /* The onslaught (no blast of the weapon's own) never strikes its own side. */
    if (battle_weapon_tag(w, "blast") <= 0 && !enemies(b, a, k))
        return false;
    return area_covers(b->board, &area, at);
}

/* Roll one attack die (NdS keep the highest, or the impaired / enhanced die). */
static int roll_attack(battle_t *b, int a, int t, const weapon_t *w, bool spill, cover_t cover,
                       unsigned marks)
{
    sc_die_t d = die_of(b, a, t, w, spill, cover, marks);
    char why[EV_NAME_MAX];
    snprintf(why, sizeof why, "damage on %s", b->map->combatants[t].id);
    return battle_roll(b, a, d.n, d.sides, 1, 0, why, NULL);
}

/* ---- odds --------------------------------------------------------------- */

/* P(the kept die <= k) for n dice of `sides`, keeping the highest: every die
 * at or under k. A die of 0 sides (no second weapon) is always under. */
static double kept_cdf(sc_die_t d, int k)
{
    if (d.sides <= 0 || k >= d.sides)
        return 1.0;
    if (k <= 0)
        return 0.0;
    double p = 1.0;
    for (int i = 0; i < d.n; i++)
        p *= (double)k / d.sides;
    return p;
}

bool scars_predict_dual(const battle_t *b, int a, int t, int wi, int wi2, predict_t *out)
{
    memset(out, 0, sizeof *out);
    if (!b || a == t || !battle_active(b, a) || !battle_active(b, t))
        return false;
    /* The same weapon checks as apply. */
    int nw = b->u[a].n_weapons;
    if (wi >= nw || wi2 >= nw || (wi2 >= 0 && wi2 == wi))
        return false;
    const weapon_t *w = battle_weapon(b, a, wi);
    const weapon_t *w2 = wi2 >= 0 ? battle_weapon(b, a, wi2) : NULL;
    bool r1 = reaches(b, a, t, w), r2 = wi2 >= 0 && reaches(b, a, t, w2);
    /* Damage on a hit counts the dice that land; with none landing, the
     * dice the attack would roll if it did. */
    bool use1 = r1 || !r2, use2 = wi2 >= 0 && (r2 || !r1);
    sc_die_t d1 = scars_attack_die(b, a, t, w, false), none = {0, 0, false, false};
    sc_die_t d2 = wi2 >= 0 ? scars_attack_die(b, a, t, w2, false) : none;
    if (!use1)
        d1 = none;
    if (!use2)
        d2 = none;
    sc_die_t shown = use1 ? d1 : d2;
    out->dmg_n = shown.n;
    out->dmg_sides = shown.sides;
    out->dmg_bonus = 0; /* the roll adds nothing; armor comes off what is kept */
    /* Exact mean of max(0, kept - armor): the kept face is the highest die of
     * every die rolled, so its CDF is the product of the dice's CDFs. */
    int armor = b->u[t].stat[SS_ARMOR];
    int top = d1.sides > d2.sides ? d1.sides : d2.sides;
    double mean = 0.0, below = 0.0;
    for (int k = 1; k <= top; k++) {
        double at_most = kept_cdf(d1, k) * kept_cdf(d2, k);
        int dmg = k - armor;
        if (dmg > 0)
            mean += (at_most - below) * dmg;
        below = at_most;
    }
    out->valid = true;
    out->p_hit = (r1 || r2) ? 1.0 : 0.0; /* no attack roll: it lands if it reaches */
    out->dmg_hit = mean;
    out->dmg_expected = out->p_hit * mean;
    return true;
}

bool scars_predict(const battle_t *b, int a, int t, int w, predict_t *out)
{
    return scars_predict_dual(b, a, t, w, -1, out);
}

/* ---- resolving (continued) ---------------------------------------------- */

static void resolve_phase(battle_t *b)
{
    sc_state_t *s = st(b);
    /* 1. Moves, in map order: up to the last free hex before any enemy. */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || !battle_active(b, i))
            continue;
        int stop = 0;
        for (int k = 0; k < d->n_path; k++) {
            int occ = board_occupant(b->board, hex_from_cell(b->map->layout, d->path[k]));
            if (occ >= 0 && occ != i && enemies(b, i, occ))
                break;
            if (occ < 0 || occ == i)
                stop = k + 1;
        }
        for (int k = 0; k < stop; k++)
            battle_step(b, i, hex_from_cell(b->map->layout, d->path[k]));
    }
    /* 2. Retreats: a safe edge and a DEX save. */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || d->act != CMD_RETREAT || !battle_active(b, i))
            continue;
        bool ok = on_edge(b, i) && save(b, i, SS_DEX, "DEX save (retreat)");
        battle_emit_action(b, i, "retreat", -1, ok);
        if (ok) {
            battle_remove(b, i);
            event_t e = event_make(EV_FLED);
            e.who = i;
            battle_emit(b, &e);
        }
    }
    /* 3. Attacks land together: which ones reach, and the cover on each line
     * (bodies included), are settled before any damage, so a combatant who
     * falls during the resolution still covers its later shots (RULINGS). */
    for (int i = 0; i < b->n; i++) {
        sc_decl_t *d = &s->decl[i];
        if (!d->set || d->act != CMD_ENGAGE || !battle_active(b, i) ||
            !battle_active(b, d->target)) {
            d->lands = 0;
            continue;
        }
        const weapon_t *w = battle_weapon(b, i, d->weapon);
        const weapon_t *w2 = d->weapon2 >= 0 ? battle_weapon(b, i, d->weapon2) : NULL;
        d->lands = (unsigned char)(reaches(b, i, d->target, w) |
                                   (d->weapon2 >= 0 && reaches(b, i, d->target, w2)) << 1);
        d->cover = (unsigned char)sight_trace(b->board, pos(b, i), pos(b, d->target)).cover;
        /* One attack event per weapon (a dual attack logs both), and each
         * landing blast shows the hexes it sweeps, the same area that decides
         * who is caught below. */
        for (int k = 0; k < 1 + (d->weapon2 >= 0); k++) {
            const weapon_t *wk = k ? w2 : w;
            event_t e = event_make(EV_ATTACK);
            e.who = i;
            e.target = d->target;
            e.hit = (d->lands >> k) & 1; /* no attack roll: it lands when it can reach */
            hb_strlcpy(e.name, wk ? wk->id : "unarmed", sizeof e.name);
            battle_emit(b, &e);
            area_t area;
            if (e.hit && scars_blast_area(b, i, d->target, wk, &area)) {
                event_t ae = area_event(b->map, i, d->target, &area);
                battle_emit(b, &ae);
            }
        }
    }
    /* Pooled by target: every die on it rolled, the single highest kept, armor once. */
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t))
            continue;
        int best = 0;
        bool any = false;
        for (int i = 0; i < b->n; i++) {
            const sc_decl_t *d = &s->decl[i];
            if (!d->set || d->act != CMD_ENGAGE || !d->lands)
                continue;
            for (int k = 0; k < 2; k++) {
                if (!(d->lands & (1 << k)))
                    continue;
                const weapon_t *w = battle_weapon(b, i, k ? d->weapon2 : d->weapon);
                if (d->target != t && !scars_blast_catches(b, i, d->target, t, pos(b, t), w))
                    continue;
                int v = roll_attack(b, i, t, w, d->target != t, (cover_t)d->cover, d->marks);
                best = v > best ? v : best;
                any = true;
            }
        }
        if (any)
            scars_damage(b, t, best - b->u[t].stat[SS_ARMOR]);
    }
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
    if (!scars_in_phase(b, a) || cst(b)->decl[a].set)
        return 0;
    if (n < cap)
        out[n] = cmd_make(CMD_END, a);
    n++;
    if (scars_crawling(b, a))
        return n; /* crawl a hex or lie still: nothing else */
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !enemies(b, a, t))
            continue;
        for (int w = -1; w < b->u[a].n_weapons; w++) {
            const weapon_t *wp = battle_weapon(b, a, w);
            if (hex_distance(pos(b, a), pos(b, t)) > scars_weapon_band(b, wp))
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
                    hex_distance(pos(b, a), pos(b, t)) > scars_weapon_band(b, battle_weapon(b, a, w2)))
                    continue;
                c.weapon2 = w2;
                if (n < cap)
                    out[n] = c;
                n++;
            }
        }
    }
    cmd_t mv = cmd_make(CMD_DECLARE, a);
    mv.act = CMD_MOVE;
    mv.arg = SM_SECOND;
    if (n < cap)
        out[n] = mv;
    n++;
    if (on_edge(b, a)) {
        cmd_t r = cmd_make(CMD_DECLARE, a);
        r.act = CMD_RETREAT;
        if (n < cap)
            out[n] = r;
        n++;
    }
    return n;
}

/* ---- AI ----------------------------------------------------------------- */

/* Path toward goal cut to budget feet, ending on a hex nobody holds or claims. */
static int path_toward(battle_t *b, int i, cell_t goal, int budget, cell_t *out, int cap)
{
    int cost = 0, len = 0;
    if (!geom_path(b->board, i, goal, b->prof[i].interval_ft, b->ps, &cost, b->path, b->ncells,
                   &len) ||
        len < 2)
        return 0;
    const sc_state_t *s = cst(b);
    int spent = 0, n = 0, last_ok = 0;
    for (int k = 1; k < len && n < cap; k++) {
        int sc = map_terrain_at(b->map, b->path[k])->move * b->map->feet_per_hex;
        if (spent + sc > budget)
            break;
        spent += sc;
        out[n++] = b->path[k];
        bool claimed = false;
        for (int j = 0; j < b->n && !claimed; j++) {
            const sc_decl_t *d = &s->decl[j];
            claimed = j != i && d->set && d->n_path > 0 &&
                      d->path[d->n_path - 1].col == b->path[k].col &&
                      d->path[d->n_path - 1].row == b->path[k].row;
        }
        if (board_occupant(b->board, hex_from_cell(b->map->layout, b->path[k])) < 0 && !claimed)
            last_ok = n;
    }
    return last_ok;
}

static int weapon_value(const weapon_t *w) { return w ? w->dice_sides * 10 + w->dice_n : 40; }

/* Where j will stand once this phase's moves resolve, as far as is known now:
 * the end of its declared path, else where it stands. */
static hex_t planned_pos(const battle_t *b, int j)
{
    const sc_decl_t *d = &cst(b)->decl[j];
    if (d->set && d->n_path > 0)
        return hex_from_cell(b->map->layout, d->path[d->n_path - 1]);
    return pos(b, j);
}

/* Would a's blast with w on t catch anyone of a's own side (helpless ones
 * too), where they stand or where they have declared to go? */
static bool blast_hits_friend(const battle_t *b, int a, int t, const weapon_t *w)
{
    if (battle_weapon_tag(w, "blast") <= 0)
        return false;
    for (int k = 0; k < b->n; k++)
        if (k != a && battle_active(b, k) && !enemies(b, a, k) &&
            scars_blast_catches(b, a, t, k, planned_pos(b, k), w))
            return true;
    return false;
}

/* Would a standing at h be caught by a blast an ally has already declared? */
static bool in_friendly_blast(const battle_t *b, int a, hex_t h)
{
    const sc_state_t *s = cst(b);
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j == a || !d->set || d->act != CMD_ENGAGE || enemies(b, a, j) ||
            !battle_active(b, d->target))
            continue;
        for (int k = 0; k < 2; k++) {
            int wi = k ? d->weapon2 : d->weapon;
            if (k && wi < 0)
                continue;
            const weapon_t *w = battle_weapon(b, j, wi);
            if (battle_weapon_tag(w, "blast") > 0 && scars_blast_catches(b, j, d->target, a, h, w))
                return true;
        }
    }
    return false;
}

/* The weapon a uses on t: of those that reach it now or after one move, the
 * most damage expected after t's armor, with impaired and enhanced
 * dice as the attack would roll them from here (so a blast against a
 * detachment beats a bigger die that would be impaired). Never a blast that
 * would catch a's own side; unarmed when nothing else will do. */
static int pick_weapon(const battle_t *b, int a, int t)
{
    const unit_t *u = &b->u[a];
    int dist = hex_distance(pos(b, a), pos(b, t));
    int bw = -1, bv = -1;
    for (int w = -1; w < u->n_weapons; w++) {
        const weapon_t *wp = battle_weapon(b, a, w);
        if (w < 0 && u->n_weapons > 0)
            continue;
        if (blast_hits_friend(b, a, t, wp))
            continue;
        int reach = scars_weapon_band(b, wp);
        predict_t pr;
        int mean = scars_predict(b, a, t, w, &pr) ? (int)(pr.dmg_hit * 100.0) : 0;
        /* A move comes with the action, so reaching after one move is as good
         * as reaching now; the plain die size breaks ties, as when armor
         * stops everything. */
        int v = mean * 1000 + weapon_value(wp) + (dist <= reach + SCARS_MOVE_HEXES ? 100000000 : 0);
        if (v > bv) {
            bv = v;
            bw = w;
        }
    }
    return bw;
}

/* Is hex h the end of a path an ally (not a) has declared this phase? */
static bool claimed_by_ally(const battle_t *b, int a, hex_t h)
{
    const sc_state_t *s = cst(b);
    cell_t c = hex_to_cell(b->map->layout, h);
    for (int j = 0; j < b->n; j++) {
        const sc_decl_t *d = &s->decl[j];
        if (j != a && d->set && d->n_path > 0 && d->path[d->n_path - 1].col == c.col &&
            d->path[d->n_path - 1].row == c.row)
            return true;
    }
    return false;
}

/* The cheapest hex within one move from which a's shot at t (a weapon band
 * of `reach` hexes) has a clear line with no cover on it, so it is not
 * impaired. Hexes an ally has claimed or will blast are passed over. */
static bool clear_shot_hex(battle_t *b, int a, int t, int reach, cell_t *out)
{
    int n = geom_reach(b->board, a, b->prof[a].speed_ft, b->prof[a].interval_ft, b->ps, b->reach,
                       b->ncells);
    int best = -1;
    for (int k = 0; k < n; k++) {
        hex_t h = hex_from_cell(b->map->layout, b->reach[k].at);
        if (hex_distance(h, pos(b, t)) > reach || (best >= 0 && b->reach[k].cost_ft >= b->reach[best].cost_ft))
            continue;
        if (claimed_by_ally(b, a, h) || in_friendly_blast(b, a, h))
            continue;
        sight_t sg = sight_trace(b->board, h, pos(b, t));
        if (sg.visible && sg.cover == COVER_NONE)
            best = k;
    }
    if (best < 0)
        return false;
    *out = b->reach[best].at;
    return true;
}

/* How much farther (in the AI's target score) a foe looks for each ally
 * already attacking it this phase. */
#define POOL_PENALTY 8

/* Allies of a that have declared an attack on t this phase. */
static int allies_on(const battle_t *b, int a, int t)
{
    const sc_state_t *s = cst(b);
    int n = 0;
    for (int j = 0; j < b->n; j++)
        n += j != a && s->decl[j].set && s->decl[j].act == CMD_ENGAGE && s->decl[j].target == t &&
             !enemies(b, a, j);
    return n;
}

/* Can a attack t this turn: in its weapon's band now or after one move? */
static bool in_reach_this_turn(const battle_t *b, int a, int t)
{
    int reach = scars_weapon_band(b, battle_weapon(b, a, pick_weapon(b, a, t)));
    return hex_distance(pos(b, a), pos(b, t)) <= reach + SCARS_MOVE_HEXES;
}

static void scars_ai(battle_t *b, int a, cmd_t *out)
{
    *out = cmd_make(CMD_END, a);
    if (!scars_in_phase(b, a))
        return;
    if (scars_crawling(b, a))
        return; /* lies still: a crawl is the table's call */
    unit_t *u = &b->u[a];
    /* Badly hurt with a way out: run for it. */
    if (u->hp == 0 && u->stat[SS_STR] * 2 < u->stat_max[SS_STR] && on_edge(b, a)) {
        out->kind = CMD_DECLARE;
        out->act = CMD_RETREAT;
        return;
    }
    /* The nearest foe still fighting, weaker ones counting as closer; and
     * apart, the nearest helpless one. The helpless no longer hold the field,
     * so they are attacked only when no fighting foe can be reached this turn
     * (the action would otherwise go to waste). */
    int t = -1, best = 0x3fffffff, th = -1, besth = 0x3fffffff;
    for (int k = 0; k < b->n; k++) {
        if (!battle_active(b, k) || !enemies(b, a, k))
            continue;
        int v = hex_distance(pos(b, a), pos(b, k)) * 3 + b->u[k].hp + b->u[k].stat[SS_STR] / 4;
        /* Attacks on one target pool and only the highest die counts, so a
         * foe an ally has already declared against is worth less. */
        v += POOL_PENALTY * allies_on(b, a, k);
        if (scars_helpless(b, k)) {
            if (v < besth) {
                besth = v;
                th = k;
            }
        } else if (v < best) {
            best = v;
            t = k;
        }
    }
    if (th >= 0 && (t < 0 || (!in_reach_this_turn(b, a, t) && in_reach_this_turn(b, a, th))))
        t = th;
    if (t < 0)
        return;
    int dist = hex_distance(pos(b, a), pos(b, t));
    int bw = pick_weapon(b, a, t);
    const weapon_t *wp = battle_weapon(b, a, bw);
    int reach = scars_weapon_band(b, wp);
    cmd_t c = cmd_make(CMD_DECLARE, a);
    c.weapon = bw;
    c.target = t;
    /* A shot from here through cover is impaired (d4): a ranged attacker
     * first looks for a hex within one move with a clear, uncovered line. */
    bool clear_here = dist <= reach && sight_clear(b->board, pos(b, a), pos(b, t));
    if (reach > CLOSE_HEX && dist <= reach + SCARS_MOVE_HEXES &&
        (!clear_here || sight_trace(b->board, pos(b, a), pos(b, t)).cover != COVER_NONE)) {
        cell_t spot;
        if (clear_shot_hex(b, a, t, reach, &spot)) {
            c.n_path = path_toward(b, a, spot, b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
            if (c.n_path > 0 && c.path[c.n_path - 1].col == spot.col &&
                c.path[c.n_path - 1].row == spot.row) {
                c.act = CMD_ENGAGE;
                *out = c;
                return;
            }
            c.n_path = 0;
        }
    }
    if (clear_here) {
        c.act = CMD_ENGAGE;
        *out = c;
        return;
    }
    /* Close in: to a free hex next to the target (or in range of it). When
     * an ally's declared blast sweeps every hex next to it, stop one hex
     * further out, ready for the next phase. */
    hex_t ring[12];
    int bc = 0x3fffffff;
    cell_t goal = {0, 0};
    bool found = false;
    for (int radius = 1; radius <= 2 && !found; radius++) {
        int nr = hex_ring(pos(b, t), radius, ring, 12);
        for (int k = 0; k < nr; k++) {
            int idx = board_cell_index(b->board, ring[k]);
            if (idx < 0 || b->board->occ[idx] >= 0 ||
                b->map->types[b->map->cells[idx]].move <= 0)
                continue;
            /* Never walk into the blast an ally has already declared. */
            if (in_friendly_blast(b, a, ring[k]))
                continue;
            int d = hex_distance(pos(b, a), ring[k]);
            if (d < bc) {
                bc = d;
                goal = hex_to_cell(b->map->layout, ring[k]);
                found = true;
            }
        }
    }
    if (!found)
        return;
    c.n_path = path_toward(b, a, goal, b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
    if (c.n_path > 0) {
        hex_t end = hex_from_cell(b->map->layout, c.path[c.n_path - 1]);
        if (hex_distance(end, pos(b, t)) <= reach) {
            c.act = CMD_ENGAGE;
            *out = c;
            return;
        }
    }
    /* Too far: the action becomes a second move. */
    c.act = CMD_MOVE;
    c.target = -1;
    c.n_path = path_toward(b, a, goal, 2 * b->prof[a].speed_ft, c.path, SCARS_PATH_MAX);
    *out = c;
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
    .stat_names = STAT_NAMES,
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
    .ai = scars_ai,
    .winner = scars_winner,
    .hidden_from = scars_hidden_from,
    .weapon_area = scars_weapon_area,
};
