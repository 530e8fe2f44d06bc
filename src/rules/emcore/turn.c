/* turn.c - emcore's numbers, initiative and the turn's three phases, and the
 * ruleset table. See docs/rules-emcore.md. */
#include <stdio.h>
#include <string.h>

#include "../ruleset.h"
#include "../../core/trigger.h"
#include "emcore.h"

static const char *const STAT_NAMES[ES_COUNT] = {
    [ES_FORCE] = "force",         [ES_ADEPTNESS] = "adeptness", [ES_INSIGHT] = "insight",
    [ES_FORTITUDE] = "fortitude", [ES_SPIRIT] = "spirit",       [ES_MIGHT] = "might",
    [ES_MOVEMENT] = "movement",   [ES_HEALTH] = "health",       [ES_WILLPOWER] = "willpower",
    [ES_ARMOR] = "armor",         [ES_INIT_BONUS] = "initiative_bonus",
};

/* Aspect levels and armor are kept to what a pool can roll. */
#define LEVEL_MAX 10

static hex_t pos(const battle_t *b, int i) { return b->board->pos[i]; }

/* ---- numbers -------------------------------------------------------------- */

int em_movement(const battle_t *b, int i) { return b->u[i].stat[ES_MOVEMENT]; }

int em_half_cost(const battle_t *b, int i) { return (em_movement(b, i) + 1) / 2; }

int em_full_less_one(const battle_t *b, int i)
{
    int c = em_movement(b, i) - 1;
    return c < 1 ? 1 : c;
}

int em_aspect_dice(const battle_t *b, int i, int aspect)
{
    int slot = aspect == EA_ADEPTNESS ? ES_ADEPTNESS : aspect == EA_SPIRIT ? ES_SPIRIT : ES_FORCE;
    return em_pool_dice(b->u[i].stat[slot]);
}

int em_soak_dice(const battle_t *b, int i)
{
    int n = em_pool_dice(b->u[i].stat[ES_FORTITUDE]) + b->u[i].stat[ES_ARMOR];
    return n > EM_POOL_MAX ? EM_POOL_MAX : n;
}

bool em_is_melee(const weapon_t *w) { return !w || w->cls == WPN_MELEE || w->cls == WPN_THROWN; }

bool em_is_ranged(const weapon_t *w) { return w && (w->cls == WPN_RANGED || w->cls == WPN_THROWN); }

int em_weapon_aspect(const weapon_t *w)
{
    int v = 0;
    if (w && stat_get(w->tags, w->n_tags, "aspect", &v) && v >= EA_FORCE && v <= EA_SPIRIT)
        return v;
    return w && w->cls == WPN_RANGED ? EA_ADEPTNESS : EA_FORCE;
}

int em_attack_aspect(const weapon_t *w, bool ranged)
{
    int v = 0;
    if (ranged && !(w && stat_get(w->tags, w->n_tags, "aspect", &v)))
        return EA_ADEPTNESS; /* a throw is a ranged attack: Adeptness (E23) */
    return em_weapon_aspect(w);
}

int em_melee_from(const battle_t *b, int a)
{
    for (int w = 0; w < b->u[a].n_weapons; w++)
        if (em_is_melee(b->u[a].weapon[w]))
            return 0;
    return -1;
}

void em_add_cmd(cmd_t *out, int cap, int *n, cmd_t c)
{
    if (*n < cap)
        out[*n] = c;
    (*n)++;
}

int em_reach_hex(const battle_t *b, int i, const weapon_t *w)
{
    (void)i;
    if (!w || w->reach_ft <= 0)
        return 1;
    return geom_ft_to_hexes(b->map, w->reach_ft);
}

int em_range_hex(const battle_t *b, const weapon_t *w)
{
    return w && w->range_ft > 0 ? geom_ft_to_hexes(b->map, w->range_ft) : 0;
}

int em_threat_hex(const battle_t *b, int i)
{
    int r = 1;
    for (int w = 0; w < b->u[i].n_weapons; w++) {
        const weapon_t *wp = b->u[i].weapon[w];
        if (em_is_melee(wp) && em_reach_hex(b, i, wp) > r)
            r = em_reach_hex(b, i, wp);
    }
    return r;
}

bool em_spare_only(const battle_t *b, int i)
{
    return (em_cst(b)->deeds[i] & (ED_IMMEDIATE | ED_COMMIT)) != 0;
}

bool em_may_commit(const battle_t *b, int i)
{
    const em_state_t *s = em_cst(b);
    /* The Committed action takes all but the spare point, and what else it
     * does this turn must fit in that point: no fight, run, charge, Evasion
     * or getting up before it either (E3, E-A1). */
    return !s->commit[i] && !(s->deeds[i] & (ED_IMMEDIATE | ED_COMMIT | ED_MAJOR)) &&
           s->points[i] >= em_full_less_one(b, i);
}

bool em_may_evade(const battle_t *b, int i)
{
    const em_state_t *s = em_cst(b);
    return !em_spare_only(b, i) && !(b->u[i].cond & EC_EVADING) && s->points[i] >= em_half_cost(b, i);
}

bool em_able(const battle_t *b, int i)
{
    return battle_active(b, i) && !(b->u[i].cond & EC_PRONE);
}

bool em_too(const battle_t *b, int i)
{
    return battle_active(b, i) && (b->u[i].cond & (EC_PRONE | EC_RAN)) != 0;
}

bool em_enemies(const battle_t *b, int i, int j) { return !board_allies(b->board, i, j); }

bool em_threatens(const battle_t *b, int i, hex_t h)
{
    if (!em_able(b, i))
        return false;
    int d = hex_distance(pos(b, i), h);
    return d >= 1 && d <= em_threat_hex(b, i) && sight_clear(b->board, pos(b, i), h);
}

bool em_melee_reaches(const battle_t *b, int i, int t, const weapon_t *w)
{
    int d = hex_distance(pos(b, i), pos(b, t));
    return em_is_melee(w) && d >= 1 && d <= em_reach_hex(b, i, w) &&
           sight_clear(b->board, pos(b, i), pos(b, t));
}

bool em_shot_reaches(const battle_t *b, int i, int t, const weapon_t *w)
{
    int d = hex_distance(pos(b, i), pos(b, t));
    return em_is_ranged(w) && d >= 1 && d <= em_range_hex(b, w) &&
           sight_clear(b->board, pos(b, i), pos(b, t));
}

static const char *cond_name(unsigned bit)
{
    switch (bit) {
    case EC_PRONE: return "prone";
    case EC_RAN: return "running";
    case EC_COVER: return "in_cover";
    case EC_EVADING: return "evading";
    case EC_COMMITTED: return "committed";
    case EC_READIED: return "readied";
    case EC_ENGAGED: return "engaged";
    default: return "?";
    }
}

void em_set_cond(battle_t *b, int i, unsigned bit, bool on)
{
    bool was_too = em_too(b, i);
    bool had = (b->u[i].cond & bit) != 0;
    if (had == on)
        return;
    if (on)
        b->u[i].cond |= bit;
    else
        b->u[i].cond &= ~bit;
    battle_emit_condition(b, i, cond_name(bit), on);
    /* Target of opportunity is what prone and running add up to (E17). */
    if (em_too(b, i) != was_too)
        battle_emit_condition(b, i, "target_of_opportunity", !was_too);
}

void em_emit_stat(battle_t *b, int i, int s, int from)
{
    battle_emit_change(b, i, STAT_NAMES[s], from, b->u[i].stat[s]);
}

void em_pay(battle_t *b, int i, int pts, bool will)
{
    em_state_t *s = em_st(b);
    if (will) {
        int was = b->u[i].stat[ES_WILLPOWER];
        if (was > 0) b->u[i].stat[ES_WILLPOWER]--;
        em_emit_stat(b, i, ES_WILLPOWER, was);
        return;
    }
    s->points[i] -= pts;
    if (s->points[i] < 0)
        s->points[i] = 0;
}

void em_update_engaged(battle_t *b)
{
    const em_state_t *s = em_cst(b);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i))
            continue;
        bool eng = false;
        for (int j = 0; j < b->n && !eng && em_able(b, i) && !s->free_of[i]; j++)
            eng = j != i && em_enemies(b, i, j) && em_able(b, j) && !s->free_of[j] &&
                  (em_threatens(b, i, pos(b, j)) || em_threatens(b, j, pos(b, i)));
        em_set_cond(b, i, EC_ENGAGED, eng);
    }
}

/* ---- phases ---------------------------------------------------------------- */

int em_phase(const battle_t *b) { return em_cst(b)->phase; }

const char *em_phase_name(int phase)
{
    static const char *const NAMES[EP_COUNT] = {"immediate", "movement", "commitment"};
    return phase >= 0 && phase < EP_COUNT ? NAMES[phase] : "none";
}

bool em_is_slot(const battle_t *b, int i)
{
    const em_state_t *s = em_cst(b);
    return (s->phase == EP_MOVEMENT || s->phase == EP_COMMITMENT) && s->actor == i && i >= 0;
}

static void emit_phase(battle_t *b, int phase)
{
    event_t e = event_make(EV_PHASE);
    e.value = b->round;
    hb_strlcpy(e.name, em_phase_name(phase), sizeof e.name);
    battle_emit(b, &e);
}

static void emit_turn(battle_t *b, ev_type_t t, int who)
{
    event_t e = event_make(t);
    e.who = who;
    e.value = b->round;
    battle_emit(b, &e);
}

static bool decided(const battle_t *b) { return battle_last_side(b) != -2; }

static void start_round(battle_t *b);
static void next_slot(battle_t *b);

/* Open the Movement or Commitment phase: its slots in initiative order. */
static void start_slots(battle_t *b, int phase)
{
    em_state_t *s = em_st(b);
    s->phase = phase;
    s->cur = -1;
    s->actor = -1;
    emit_phase(b, phase);
    next_slot(b);
}

static void end_round(battle_t *b)
{
    em_state_t *s = em_st(b);
    s->actor = -1;
    if (!battle_round_end(b)) {
        s->phase = -1;
        return;
    }
    start_round(b);
}

/* The next slot of the Movement or Commitment phase in initiative order, or
 * the next phase when there is none. */
static void next_slot(battle_t *b)
{
    em_state_t *s = em_st(b);
    if (decided(b))
        return;
    while (++s->cur < s->n_order) {
        int i = s->order[s->cur];
        if (!battle_active(b, i))
            continue;
        if (s->phase == EP_COMMITMENT) {
            if (!s->commit[i])
                continue;
            if (b->u[i].cond & EC_PRONE) { /* fallen since: the shot is lost */
                s->commit[i] = 0;
                em_set_cond(b, i, EC_COMMITTED, false);
                continue;
            }
        }
        s->actor = i;
        emit_turn(b, EV_TURN_START, i);
        if (s->phase == EP_MOVEMENT) {
            /* Its own slot ends the cover it took and the exposure of its
             * last run (E15, E5). */
            em_set_cond(b, i, EC_COVER, false);
            em_set_cond(b, i, EC_RAN, false);
        }
        /* Foes readied for this moment go before it acts (E18). */
        em_ready_moment(b, TRIG_TURN_STARTS, i);
        if (decided(b))
            return;
        if (!battle_active(b, i) || (s->phase == EP_COMMITMENT && !s->commit[i])) {
            emit_turn(b, EV_TURN_END, i); /* struck down (or its aim spoilt) first */
            s->actor = -1;
            continue;
        }
        return;
    }
    s->actor = -1;
    if (s->phase == EP_MOVEMENT)
        start_slots(b, EP_COMMITMENT);
    else
        end_round(b);
}

void em_end_slot(battle_t *b)
{
    em_state_t *s = em_st(b);
    int i = s->actor;
    if (i >= 0) {
        emit_turn(b, EV_TURN_END, i);
        if (s->phase == EP_COMMITMENT && s->commit[i]) {
            s->commit[i] = 0;
            if (battle_active(b, i))
                em_set_cond(b, i, EC_COMMITTED, false);
        }
    }
    s->actor = -1;
    next_slot(b);
}

void em_after_immediate(battle_t *b)
{
    if (!decided(b))
        start_slots(b, EP_MOVEMENT);
}

static void start_round(battle_t *b)
{
    em_state_t *s = em_st(b);
    s->phase = EP_IMMEDIATE;
    s->actor = -1;
    for (int i = 0; i < b->n; i++) {
        s->points[i] = em_movement(b, i); /* E20 */
        s->imm[i] = -1;
        s->evade[i] = -1;
        s->free_of[i] = 0;
        s->deeds[i] = 0;
        s->moved[i] = 0;
        s->n_oa[i] = 0;
        memset(&s->decl[i], 0, sizeof s->decl[i]);
        if (!battle_active(b, i))
            continue;
        em_set_cond(b, i, EC_EVADING, false);
        if ((b->u[i].cond & EC_READIED) && s->rd_round[i] < b->round)
            em_set_cond(b, i, EC_READIED, false); /* unused: lost with its turn (E18) */
    }
    emit_phase(b, EP_IMMEDIATE);
    /* Readied actions set for the start of the turn go first (E18). */
    em_ready_moment(b, TRIG_ROUND_STARTS, -1);
    if (decided(b))
        return;
    em_update_engaged(b);
    em_find_groups(b);
    int any = 0;
    for (int i = 0; i < b->n && !any; i++)
        any = em_participant(b, i);
    if (!any) {
        em_resolve_immediate(b);
        em_after_immediate(b);
    }
}

/* ---- setup ------------------------------------------------------------------ */

static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Derived numbers and their defaults (E2). */
static void derive(battle_t *b, int i)
{
    unit_t *u = &b->u[i];
    static const int LEVELS[] = {ES_FORCE, ES_ADEPTNESS, ES_INSIGHT, ES_FORTITUDE, ES_SPIRIT,
                                 ES_ARMOR, ES_INIT_BONUS};
    for (size_t k = 0; k < sizeof LEVELS / sizeof LEVELS[0]; k++)
        u->stat[LEVELS[k]] = clamp(u->stat[LEVELS[k]], 0, LEVEL_MAX);
    if (u->stat[ES_MIGHT] <= 0)
        u->stat[ES_MIGHT] = (u->stat[ES_FORCE] + 1) / 2;
    if (u->stat[ES_MOVEMENT] <= 0)
        u->stat[ES_MOVEMENT] = 4;
    if (u->stat[ES_HEALTH] <= 0)
        u->stat[ES_HEALTH] = 3 + u->stat[ES_FORTITUDE];
    if (u->stat[ES_WILLPOWER] <= 0)
        u->stat[ES_WILLPOWER] = 2;
    u->stat[ES_MOVEMENT] = clamp(u->stat[ES_MOVEMENT], 1, 2 * LEVEL_MAX);
    for (int s = 0; s < ES_COUNT; s++)
        u->stat_max[s] = u->stat[s];
    /* Wounds are counted on the HP track: hp = health - wounds. A map may
     * start someone wounded by giving a lower hp. */
    const map_combatant_t *c = &b->map->combatants[i];
    u->hp_max = u->stat[ES_HEALTH];
    u->hp = (c->given & GIVEN_HP) ? clamp(c->hp, 0, u->hp_max) : u->hp_max;
    u->equipped = -1; /* every weapon is at hand (docs: no drawing) */
}

static void initiative(battle_t *b)
{
    em_state_t *s = em_st(b);
    s->n_order = 0;
    for (int i = 0; i < b->n; i++) {
        s->tie[i] = -1;
        if (!battle_active(b, i))
            continue;
        s->level[i] = b->u[i].stat[ES_INSIGHT] + b->u[i].stat[ES_INIT_BONUS];
        s->order[s->n_order++] = i;
    }
    /* Ties roll Insight once, in map order (E14). */
    for (int k = 0; k < s->n_order; k++) {
        int i = s->order[k];
        for (int m = 0; m < s->n_order && s->tie[i] < 0; m++) {
            int j = s->order[m];
            if (j != i && s->level[j] == s->level[i]) {
                em_roll_t r = em_roll(b, i, em_pool_dice(b->u[i].stat[ES_INSIGHT]), EPOOL_FULL,
                                      "initiative tie");
                s->tie[i] = r.succ;
            }
        }
    }
    /* Insertion sort: level, then the tie roll, then map order. */
    for (int k = 1; k < s->n_order; k++) {
        int x = s->order[k], m = k - 1;
        while (m >= 0) {
            int y = s->order[m];
            bool after = s->level[y] < s->level[x] ||
                         (s->level[y] == s->level[x] && s->tie[y] < s->tie[x]);
            if (!after)
                break;
            s->order[m + 1] = y;
            m--;
        }
        s->order[m + 1] = x;
    }
    for (int k = 0; k < s->n_order; k++) {
        event_t e = event_make(EV_INITIATIVE);
        e.who = s->order[k];
        e.total = s->level[s->order[k]];
        e.value = k + 1;
        battle_emit(b, &e);
    }
}

static void em_setup(battle_t *b)
{
    em_state_t *s = em_st(b);
    s->inc_attacker = -1;
    for (int i = 0; i < b->n; i++) {
        derive(b, i);
        s->rd_round[i] = -1;
        b->prof[i].speed_ft = em_movement(b, i) * b->map->feet_per_hex;
        b->prof[i].dash_ft = 2 * b->prof[i].speed_ft;
        if (b->u[i].hp <= 0)
            battle_remove(b, i);
    }
    initiative(b);
    b->round = 1;
    start_round(b);
}

/* ---- the table's entry points ------------------------------------------------ */

static void em_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                           geo_profile_t *out)
{
    /* Without a battle: the map's movement override, else the template's,
     * else 4 (E2); reach is the longest melee weapon's (the threat range). */
    int fph = m->feet_per_hex;
    int mv = 0;
    const tmpl_t *t = db && c->template_name[0] ? tmpl_find(db, c->template_name) : NULL;
    if (!map_combatant_stat(c, "movement", &mv) &&
        !(t && stat_get(t->stats, t->n_stats, "movement", &mv)))
        mv = 0;
    if (mv <= 0)
        mv = 4;
    int reach = fph;
    for (int w = 0; db && w < c->n_weapons; w++) {
        const weapon_t *wp = tmpl_find_weapon(db, c->weapons[w]);
        if (wp && em_is_melee(wp) && wp->reach_ft > reach)
            reach = wp->reach_ft;
    }
    out->reach_ft = c->reach_ft > reach ? c->reach_ft : reach;
    out->speed_ft = mv * fph;      /* hasty: one hex a point */
    out->dash_ft = 2 * mv * fph;   /* run or charge: two a point */
    out->interval_ft = fph;
    out->flank_ft = 0;             /* no flanking in this system */
}

static int em_actors(const battle_t *b, int *out, int cap)
{
    const em_state_t *s = em_cst(b);
    int n = 0;
    if (b->over || s->phase < 0)
        return 0;
    if (s->phase != EP_IMMEDIATE) {
        if (s->actor >= 0 && cap > 0)
            out[n++] = s->actor;
        return n;
    }
    /* The Architect's characters first: they declare before the players (E7). */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < b->n; i++)
            if (em_participant(b, i) && !s->decl[i].set && battle_is_player(b, i) == (pass == 1) &&
                n < cap)
                out[n++] = i;
    return n;
}

static int em_legal(battle_t *b, int a, cmd_t *out, int cap)
{
    const em_state_t *s = em_cst(b);
    if (b->over || a < 0 || a >= b->n || !battle_active(b, a))
        return 0;
    if (s->phase == EP_IMMEDIATE)
        return em_participant(b, a) && !s->decl[a].set ? em_legal_declare(b, a, out, cap) : 0;
    return em_is_slot(b, a) ? em_legal_slot(b, a, out, cap) : 0;
}

static battle_status_t em_apply(battle_t *b, const cmd_t *c)
{
    const em_state_t *s = em_cst(b);
    if (b->over || s->phase < 0 || c->actor < 0 || c->actor >= b->n)
        return BATTLE_ILLEGAL;
    if (s->phase == EP_IMMEDIATE)
        return em_declare(b, c);
    return em_apply_slot(b, c);
}

static int em_winner(const battle_t *b) { return battle_last_side(b); }

/* Nothing hides in this system. */
static bool em_hidden_from(const battle_t *b, int who, int side)
{
    (void)b;
    (void)who;
    (void)side;
    return false;
}

static const char *const MOVE_MODES[EM_MODE_COUNT] = {
    [EM_HASTY] = "hasty", [EM_RUN] = "run", [EM_CHARGE] = "charge", [EM_FORCED] = "forced"};

const ruleset_t ruleset_emcore = {
    .id = "emcore",
    .title = "EMCore: turns in phases, d12 pools",
    .revision = 1, /* issue 32: the spare point, Immediate dodges, evasion on disengaging */
    .geo_profile = em_geo_profile,
    .stat_names = STAT_NAMES,
    .n_stats = ES_COUNT,
    .state_size = sizeof(em_state_t),
    .setup = em_setup,
    .actors = em_actors,
    .move_modes = MOVE_MODES,
    .n_move_modes = EM_MODE_COUNT,
    .move_cost = em_move_cost_hook,
    .legal = em_legal,
    .apply = em_apply,
    .react = em_react_policy,
    .ai = em_ai,
    .winner = em_winner,
    .hidden_from = em_hidden_from,
    .predict = em_predict_cmd,
    .gauges = em_gauges,
    .describe = em_describe,
    .refused = em_refused,
    .queue = em_queue,
    .bands = em_bands,
};
