/* turn.c - Surface Combat: the turn sequence, faction initiative, free order
 * inside a faction, the two-action economy, Faction Morale, and the ruleset
 * table. See docs/rules-surface.md.
 */
#include <stdio.h>
#include <string.h>

#include "../ruleset.h"
#include "surface.h"

static const char *const STAT_NAMES[SF_COUNT] = {
    [SF_CB] = "combat_bonus",   [SF_VLN] = "vln",
    [SF_STR] = "strength",      [SF_SCALE] = "scale",
    [SF_MORALE] = "morale",     [SF_ARMOR] = "armor_hp",
    [SF_SOAK_N] = "soak_n",     [SF_SOAK_D] = "soak_d",
    [SF_SOAK_HEAT] = "soak_heat", [SF_SOAK2_N] = "soak2_n",
    [SF_SOAK2_D] = "soak2_d",   [SF_SOAK2_HEAT] = "soak2_heat",
    [SF_VENT] = "vent",         [SF_STEALTH] = "stealth",
    [SF_SENSOR] = "sensor",     [SF_SAVE] = "save",
    [SF_SAVE_AREA] = "save_area", [SF_SAVE_STUN] = "save_stun",
    [SF_SAVE_BEAM] = "save_beam", [SF_SAVE_HOMING] = "save_homing",
    [SF_HANDS] = "hands",       [SF_MOUNTS] = "mounts",
    [SF_OPERATORS] = "operators", [SF_MARTIAL] = "martial",
    [SF_INTERSHIELDS] = "intershields", [SF_HEAT] = "heat",
    [SF_NONLETHAL] = "nonlethal",
};

/* Melee reach by Scale in metres (S-R5), converted per map below. */
static const int SCALE_METRES[3] = {2, 5, 50};
/* Morale when neither the map nor any member gives one (S19). */
#define DEFAULT_MORALE 7
#define DEFAULT_HANDS 2

/* ---- lengths and small queries -------------------------------------------- */

/* Metres to whole hexes of fph feet, nearest, at least 1 (S1). */
static int metres_to_hexes(int metres, int fph)
{
    /* 1 m = 3.2808 ft; rounding to nearest in tenths of a foot. */
    long tenths = (long)metres * 32808L / 1000L; /* feet x 10 */
    long h = (tenths + 5L * fph) / (10L * fph);
    return h < 1 ? 1 : (int)h;
}

int sf_ft_hexes(const battle_t *b, int ft)
{
    int fph = b->map->feet_per_hex;
    int h = (ft + fph / 2) / fph;
    return h < 1 ? 1 : h;
}

int sf_er_ft(const battle_t *b, int i) { return b->map->combatants[i].speed_ft; }

bool sf_vehicle(const battle_t *b, int i) { return sf_stat(b, i, SF_MOUNTS) > 0; }

static int scale_hexes(int scale, int fph)
{
    if (scale < 0) scale = 0;
    if (scale > 2) scale = 2;
    return metres_to_hexes(SCALE_METRES[scale], fph);
}

int sf_body_reach(const battle_t *b, int i)
{
    return scale_hexes(sf_stat(b, i, SF_SCALE), b->map->feet_per_hex);
}

bool sf_has_tag(const weapon_t *w, const char *key)
{
    int v;
    return w && stat_get(w->tags, w->n_tags, key, &v);
}

int sf_weapon_reach(const battle_t *b, int i, const weapon_t *w)
{
    int r = sf_body_reach(b, i);
    return w && w->cls == WPN_MELEE && battle_weapon_tag(w, "long") > 0 ? 2 * r : r;
}

int sf_hands_of(const weapon_t *w)
{
    return sf_has_tag(w, "hands") ? battle_weapon_tag(w, "hands") : 1;
}

bool sf_ready(const battle_t *b, int i, int w)
{
    if (w < 0) return true; /* bare hands are always there */
    if (w >= b->u[i].n_weapons) return false;
    if (battle_weapon_tag(b->u[i].weapon[w], "quench") > 0 && sf_stat(b, i, SF_INTERSHIELDS) <= 0)
        return false; /* a Quench profile needs Intershields (S34) */
    return sf_vehicle(b, i) || ((sf_cst(b)->u[i].hand >> w) & 1u);
}

int sf_melee_reach(const battle_t *b, int i)
{
    int r = sf_body_reach(b, i);
    for (int w = 0; w < b->u[i].n_weapons; w++)
        if (sf_ready(b, i, w) && b->u[i].weapon[w]->cls == WPN_MELEE) {
            int wr = sf_weapon_reach(b, i, b->u[i].weapon[w]);
            r = wr > r ? wr : r;
        }
    return r;
}

/* sf_in_melee_pair with i's melee reach ri already known. */
static bool in_melee_with(const battle_t *b, int i, int ri, int j)
{
    int d = sf_dist(b, i, j);
    /* Within the longer of the two reaches: i's, else j's. */
    if (d > ri && d > sf_melee_reach(b, j)) return false;
    return sight_clear(b->board, sf_pos(b, i), sf_pos(b, j));
}

bool sf_in_melee_pair(const battle_t *b, int i, int j)
{
    return in_melee_with(b, i, sf_melee_reach(b, i), j);
}

bool sf_in_melee(const battle_t *b, int i)
{
    int ri = -1;
    for (int j = 0; j < b->n; j++) {
        if (j == i || !battle_active(b, j) || !sf_enemies(b, i, j)) continue;
        if (ri < 0) ri = sf_melee_reach(b, i);
        if (in_melee_with(b, i, ri, j)) return true;
    }
    return false;
}

int sf_save_score(const battle_t *b, int i, int slot_override)
{
    if (slot_override >= 0 && sf_given(b, i, slot_override)) return sf_stat(b, i, slot_override);
    return sf_stat(b, i, SF_SAVE);
}

bool sf_roll_20(battle_t *b, int who, int mod, const char *why)
{
    roll_spec_t s = roll_plain(1, 20, 0, mod);
    s.goal = ROLL_GOAL_AT_LEAST;
    s.target = 20;
    return battle_roll_spec(b, who, &s, why, NULL) >= 20;
}

bool sf_save(battle_t *b, int i, int slot_override, const char *why)
{
    return sf_roll_20(b, i, sf_save_score(b, i, slot_override), why);
}

void sf_emit_stat(battle_t *b, int i, int s, int from)
{
    battle_emit_change(b, i, STAT_NAMES[s], from, b->u[i].stat[s]);
}

/* ---- geometry profile ------------------------------------------------------ */

/* Stat KEY of c: the map's override, else its template's, else def. */
static int map_stat(const tmpl_db_t *db, const map_combatant_t *c, const char *key, int def)
{
    int v;
    if (map_combatant_stat(c, key, &v)) return v;
    const tmpl_t *t = db && c->template_name[0] ? tmpl_find(db, c->template_name) : NULL;
    return t && stat_get(t->stats, t->n_stats, key, &v) ? v : def;
}

int sf_map_stat(const tmpl_db_t *db, const map_combatant_t *c, const char *key, int def)
{
    return map_stat(db, c, key, def);
}

/* Lengths from the map and the data alone (no battle): the reach of the
 * weapons it starts with in hand, taken as a battle takes them (the first
 * that fit its hands, in list order; a vehicle's are all mounted). */
static void surface_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                                geo_profile_t *out)
{
    int fph = m->feet_per_hex;
    int body = scale_hexes(map_stat(db, c, "scale", 0), fph), reach = body;
    bool vehicle = map_stat(db, c, "mounts", 0) > 0;
    int hands = map_stat(db, c, "hands", DEFAULT_HANDS), used = 0;
    for (int k = 0; db && k < c->n_weapons; k++) {
        const weapon_t *w = tmpl_find_weapon(db, c->weapons[k]);
        if (!w) continue;
        int need = sf_hands_of(w);
        if (!vehicle && used + need > hands) continue;
        used += need;
        int r = w->cls == WPN_MELEE && battle_weapon_tag(w, "long") > 0 ? 2 * body : body;
        reach = r > reach ? r : reach;
    }
    out->reach_ft = reach * fph;
    out->speed_ft = c->speed_ft;     /* one move: the Encounter Range */
    out->dash_ft = 4 * c->speed_ft;  /* a sprint (S3) */
    out->interval_ft = fph;
    out->flank_ft = 0;               /* the text has no flanking */
}

/* The battle's own profile follows the weapon in hand (Long) and the stats
 * the templates give, which the map-only profile above cannot see. */
static void sync_profile(battle_t *b, int i)
{
    b->prof[i].reach_ft = sf_melee_reach(b, i) * b->map->feet_per_hex;
    b->prof[i].speed_ft = sf_er_ft(b, i);
    b->prof[i].dash_ft = 4 * sf_er_ft(b, i);
}

/* ---- weapons in hand -------------------------------------------------------- */

/* Take weapon w in hand and keep as many of the others already in hand as
 * still fit, in list order (w < 0: the first that fit, the battle's start). */
uint16_t sf_hand_with(const battle_t *b, int i, int w, uint16_t had)
{
    int hands = sf_given(b, i, SF_HANDS) ? sf_stat(b, i, SF_HANDS) : DEFAULT_HANDS;
    uint16_t h = 0;
    int used = 0;
    if (w >= 0) {
        h = (uint16_t)(1u << w);
        used = sf_hands_of(b->u[i].weapon[w]);
    }
    for (int k = 0; k < b->u[i].n_weapons && k < 16; k++) {
        if (k == w || (w >= 0 && !((had >> k) & 1u))) continue;
        int need = sf_hands_of(b->u[i].weapon[k]);
        if (used + need <= hands) {
            h |= (uint16_t)(1u << k);
            used += need;
        }
    }
    return h;
}

static void set_hand(battle_t *b, int i, uint16_t h)
{
    sf_st(b)->u[i].hand = h;
    b->u[i].equipped = -1;
    for (int k = 0; k < b->u[i].n_weapons; k++)
        if ((h >> k) & 1u) {
            b->u[i].equipped = k;
            break;
        }
    sync_profile(b, i);
}

static bool switch_ok(const battle_t *b, int a, int w)
{
    const sf_state_t *s = sf_cst(b);
    return !sf_vehicle(b, a) && w >= 0 && w < b->u[a].n_weapons && w < 16 &&
           !((s->u[a].hand >> w) & 1u) && s->u[a].left >= 1;
}

/* ---- doors ------------------------------------------------------------------ */

static int use_result(const battle_t *b, int a, cell_t at)
{
    if (!map_in_bounds(b->map, at) || sf_cst(b)->u[a].left < 1) return -1;
    if (hex_distance(hex_from_cell(b->map->layout, at), sf_pos(b, a)) != 1) return -1;
    if (board_occupant(b->board, hex_from_cell(b->map->layout, at)) >= 0) return -1;
    const terrain_t *t = map_terrain_at(b->map, at);
    return t->opens_to[0] ? map_find_type(b->map, t->opens_to) : -1;
}

/* ---- turn order ------------------------------------------------------------- */

static int phase_side(const battle_t *b)
{
    const sf_state_t *s = sf_cst(b);
    return s->phase >= 0 && s->phase < s->n_order ? s->order[s->phase] : -1;
}

bool sf_may_act(const battle_t *b, int i)
{
    const sf_state_t *s = sf_cst(b);
    if (b->over || !battle_active(b, i) || b->board->side[i] != phase_side(b)) return false;
    if (s->cur >= 0) return s->cur == i;
    return !s->u[i].done;
}

static int surface_winner(const battle_t *b) { return battle_last_side(b); }

/* Architect factions hand their members over in the AI's preferred order
 * (S21); the players' in map order. Insertion sort: a faction is small. */
static int surface_actors(const battle_t *b, int *out, int cap)
{
    const sf_state_t *s = sf_cst(b);
    if (b->over || s->phase < 0) return 0;
    if (s->cur >= 0) {
        if (cap > 0) out[0] = s->cur;
        return 1;
    }
    int sd = phase_side(b), n = 0;
    bool ai = !s->player[sd];
    int keys[SF_NMAX];
    for (int i = 0; i < b->n; i++) {
        if (!sf_may_act(b, i)) continue;
        int k = ai ? sf_ai_order_key(b, i) : 0;
        int at = n < cap ? n : cap;
        while (at > 0 && keys[at - 1] > k) {
            if (at < cap) {
                out[at] = out[at - 1];
                keys[at] = keys[at - 1];
            }
            at--;
        }
        if (at < cap) {
            out[at] = i;
            keys[at] = k;
        }
        n++;
    }
    return n;
}

static void emit_turn(battle_t *b, ev_type_t type, int who, int side)
{
    event_t e = event_make(type);
    e.who = who;
    e.side = side;
    e.value = b->round;
    battle_emit(b, &e);
}

static void advance(battle_t *b);

void sf_begin_turn(battle_t *b, int i)
{
    sf_state_t *s = sf_st(b);
    if (s->cur == i) return;
    s->cur = i;
    if (s->u[i].guard) { /* the martial defence lasts until its own next turn */
        s->u[i].guard = 0;
        battle_emit_condition(b, i, "martial_guard", false);
    }
    emit_turn(b, EV_TURN_START, i, b->board->side[i]);
}

/* The end of i's turn: heat vents and may hurt (S9, S17). */
static void end_turn(battle_t *b, int i)
{
    sf_state_t *s = sf_st(b);
    if (battle_active(b, i)) sf_vent(b, i);
    s->u[i].done = 1;
    if (s->cur == i) s->cur = -1;
    emit_turn(b, EV_TURN_END, i, b->board->side[i]);
    advance(b);
}

void sf_spend(battle_t *b, int i, int n)
{
    sf_state_t *s = sf_st(b);
    s->u[i].left = (uint8_t)(s->u[i].left > n ? s->u[i].left - n : 0);
    if (s->cur == i && (s->u[i].left == 0 || !battle_active(b, i))) end_turn(b, i);
}

int sf_side_morale(const battle_t *b, int sd)
{
    int best = -1;
    if (map_faction_value(b->map, b->board->side_name[sd], "morale", &best)) return best;
    for (int i = 0; i < b->n; i++)
        if (battle_active(b, i) && b->board->side[i] == sd && sf_given(b, i, SF_MORALE) &&
            sf_stat(b, i, SF_MORALE) > best)
            best = sf_stat(b, i, SF_MORALE);
    return best >= 0 ? best : DEFAULT_MORALE;
}

/* Every member of side sd leaves the battle alive (condition `cond`, then
 * `fled`): a rout, or a withdrawal the referee calls. */
static void leave(battle_t *b, int sd, const char *cond)
{
    sf_state_t *s = sf_st(b);
    for (int i = 0; i < b->n; i++) {
        if (!battle_active(b, i) || b->board->side[i] != sd) continue;
        b->u[i].cond |= SFC_ROUTED;
        battle_emit_condition(b, i, cond, true);
        battle_remove(b, i);
        event_t e = event_make(EV_FLED);
        e.who = i;
        battle_emit(b, &e);
        if (s->cur == i) s->cur = -1;
    }
}

/* Faction Morale (S19): each faction with a new casualty this round checks,
 * in initiative order, player factions as any other: 2d6 under its score
 * (a roll equal to it fails); a failure routs it, unless the referee has
 * called that its faction stands (surface_calls). */
static void morale_step(battle_t *b)
{
    sf_state_t *s = sf_st(b);
    for (int k = 0; k < s->n_order; k++) {
        int sd = s->order[k];
        if (!s->casualty[sd] || battle_side_count(b, sd) == 0 || battle_last_side(b) != -2)
            continue;
        int score = sf_side_morale(b, sd);
        if (score >= 12) continue; /* fights to the death */
        bool pass = false;
        if (score > 2) {
            char why[DICE_WHY_MAX];
            snprintf(why, sizeof why, "morale of %.24s (%d)", b->board->side_name[sd], score);
            roll_spec_t spec = roll_plain(2, 6, 0, 0);
            spec.goal = ROLL_GOAL_AT_MOST;
            spec.target = score - 1; /* "under" the score */
            pass = battle_roll_spec_side(b, -1, sd, &spec, why, NULL) < score;
        }
        if (pass) continue;
        if (s->stand[sd]) { /* the referee overrules this rout */
            s->stand[sd] = 0;
            for (int i = 0; i < b->n; i++)
                if (battle_active(b, i) && b->board->side[i] == sd) {
                    battle_emit_action(b, i, "rout_overruled", -1, true);
                    break;
                }
            continue;
        }
        leave(b, sd, "routed");
    }
}

/* A phase of the turn's sequence (S-T1): initiative, action, morale. */
static void emit_phase(battle_t *b, const char *name)
{
    event_t e = event_make(EV_PHASE);
    e.value = b->round;
    hb_strlcpy(e.name, name, sizeof e.name);
    battle_emit(b, &e);
}

static void start_round(battle_t *b)
{
    sf_state_t *s = sf_st(b);
    emit_phase(b, "action");
    memset(s->casualty, 0, sizeof s->casualty);
    for (int i = 0; i < b->n; i++) {
        s->u[i].left = 2;
        s->u[i].done = 0;
        s->u[i].attacked = 0;
        s->u[i].moved = 0;       /* each character's turn falls inside the round */
        s->u[i].fired_still = 0;
    }
    s->phase = 0;
    s->cur = -1;
}

/* Open the current faction's phase (a side with no one left is skipped). */
static void open_phase(battle_t *b)
{
    sf_state_t *s = sf_st(b);
    s->open = battle_side_count(b, phase_side(b)) > 0;
    if (s->open) emit_turn(b, EV_TURN_START, -1, phase_side(b));
}

/* Move on while the current faction has no one left to act: next faction,
 * or the morale step and the next round. Stops once one side is left. */
static void advance(battle_t *b)
{
    sf_state_t *s = sf_st(b);
    for (int guard = 0; guard < 4 * (s->n_order + 1); guard++) {
        if (battle_last_side(b) != -2 || s->phase < 0) return;
        int any;
        if (s->open && (s->cur >= 0 || surface_actors(b, &any, 1) > 0)) return;
        if (s->open) emit_turn(b, EV_TURN_END, -1, phase_side(b));
        s->open = 0;
        s->phase++;
        if (s->phase >= s->n_order) {
            emit_phase(b, "morale");
            morale_step(b);
            if (battle_last_side(b) != -2) return;
            if (!battle_round_end(b)) {
                s->phase = -1;
                return;
            }
            start_round(b);
        }
        open_phase(b);
    }
}

/* Rank the sides of grp[0..n) by a d20 each, re-rolling ties among the tied
 * only (S2, S20); writes them into out, highest first. */
static void rank_sides(battle_t *b, int *grp, int n, int *out, bool first)
{
    sf_state_t *s = sf_st(b);
    int roll[MAP_MAX_FACTIONS];
    for (int k = 0; k < n; k++) {
        char why[DICE_WHY_MAX];
        snprintf(why, sizeof why, first ? "initiative of %.24s" : "initiative roll-off of %.24s",
                 b->board->side_name[grp[k]]);
        roll[k] = battle_roll_side(b, -1, grp[k], 1, 20, 0, 0, why, NULL);
        if (first) s->init[grp[k]] = roll[k];
    }
    /* Stable sort, highest first (ties keep side order until rolled off). */
    for (int k = 1; k < n; k++)
        for (int j = k; j > 0 && roll[j] > roll[j - 1]; j--) {
            int t = roll[j];
            roll[j] = roll[j - 1];
            roll[j - 1] = t;
            t = grp[j];
            grp[j] = grp[j - 1];
            grp[j - 1] = t;
        }
    for (int k = 0; k < n;) {
        int e = k + 1;
        while (e < n && roll[e] == roll[k]) e++;
        /* A stopped roll gives stand-in faces that would tie for ever: the
         * command is applied again once the die is in. */
        if (e - k > 1 && !sf_halted(b)) {
            rank_sides(b, grp + k, e - k, out + k, false);
        } else {
            for (int j = k; j < e; j++) out[j] = grp[j];
        }
        k = e;
    }
}

static void surface_setup(battle_t *b)
{
    sf_state_t *s = sf_st(b);
    s->phase = -1;
    s->cur = -1;
    for (int i = 0; i < b->n; i++) {
        const map_combatant_t *c = &b->map->combatants[i];
        const tmpl_t *t = c->template_name[0] ? tmpl_find(b->db, c->template_name) : NULL;
        uint32_t given = 0;
        for (int k = 0; k < SF_COUNT; k++) {
            int v;
            if (map_combatant_stat(c, STAT_NAMES[k], &v) ||
                (t && stat_get(t->stats, t->n_stats, STAT_NAMES[k], &v)))
                given |= 1u << k;
        }
        s->u[i].given = given;
        s->u[i].cont_w = s->u[i].ray_w = -1;
        s->u[i].cont_t = -1;
        set_hand(b, i, sf_hand_with(b, i, -1, 0));
        if (b->u[i].hp <= 0) battle_remove(b, i);
    }
    for (int i = 0; i < b->n; i++)
        s->player[b->board->side[i]] = battle_is_player(b, i);
    /* Faction initiative: the sides with anyone on the field. */
    b->round = 1;
    emit_phase(b, "initiative");
    int grp[MAP_MAX_FACTIONS], n = 0;
    for (int sd = 0; sd < b->board->n_sides; sd++)
        if (battle_side_count(b, sd) > 0) grp[n++] = sd;
    rank_sides(b, grp, n, s->order, true);
    s->n_order = n;
    for (int k = 0; k < n; k++) {
        event_t e = event_make(EV_INITIATIVE);
        e.side = s->order[k];
        e.total = s->init[s->order[k]];
        e.value = k + 1;
        battle_emit(b, &e);
    }
    if (n < 2) return; /* nothing to fight */
    start_round(b);
    open_phase(b);
    advance(b);
}

/* ---- commands ---------------------------------------------------------------- */

/* ---- the referee's calls ------------------------------------------------------ */

/* The saves a referee may call (S27), by stat slot. */
static const int CALL_SAVES[5] = {SF_SAVE, SF_SAVE_AREA, SF_SAVE_STUN, SF_SAVE_BEAM, SF_SAVE_HOMING};
static const char *const CALL_SAVE_NAMES[5] = {"", " vs. area", " vs. stun", " vs. beam",
                                               " vs. homing"};

static void add_call(ref_call_t *out, int cap, int *n, cmd_t c, const char *fmt, const char *who,
                     const char *more)
{
    if (*n < cap) {
        out[*n].cmd = c;
        snprintf(out[*n].label, sizeof out[*n].label, fmt, who, more);
    }
    (*n)++;
}

/* What the text leaves to the referee about `who`: a save of any kind, and
 * its faction's withdrawal (a faction of Morale 12 fights on "until the
 * Referee determines they decide to withdraw", S-O4; a bargain, S-O3). */
static int surface_calls(battle_t *b, int who, ref_call_t *out, int cap)
{
    int n = 0;
    if (b->over || who < 0 || who >= b->n || !battle_active(b, who)) return 0;
    char nm[41];
    hb_strlcpy(nm, b->map->combatants[who].name, sizeof nm);
    for (int k = 0; k < 5; k++) {
        cmd_t c = cmd_make(CMD_SAVE, who);
        c.arg = CALL_SAVES[k];
        add_call(out, cap, &n, c, "%s: call a save%s", nm, CALL_SAVE_NAMES[k]);
    }
    cmd_t w = cmd_make(CMD_RETREAT, who);
    w.arg = 1;
    add_call(out, cap, &n, w, "%s and its faction: withdraw from the battle%s", nm, "");
    /* Overrule a rout (S19): the faction's next failed morale check does
     * not rout it; called again, the dice decide again. */
    w.arg = 2;
    add_call(out, cap, &n, w, "%s and its faction: %s", nm,
             sf_cst(b)->stand[b->board->side[who]] ? "a failed morale check routs it again"
                                                    : "stand despite a failed morale check");
    return n;
}

static battle_status_t apply_call(battle_t *b, const cmd_t *c)
{
    int a = c->actor;
    if (c->kind == CMD_SAVE) {
        for (int k = 0; k < 5; k++)
            if (c->arg == CALL_SAVES[k]) {
                char why[DICE_WHY_MAX], what[EV_NAME_MAX];
                snprintf(why, sizeof why, "save%s (called)", CALL_SAVE_NAMES[k]);
                snprintf(what, sizeof what, "%s", k ? STAT_NAMES[CALL_SAVES[k]] : "save");
                bool ok = sf_save(b, a, c->arg, why);
                battle_emit_action(b, a, what, -1, ok);
                return BATTLE_OK;
            }
        return BATTLE_ILLEGAL;
    }
    if (c->arg == 2) {
        sf_state_t *s = sf_st(b);
        int sd = b->board->side[a];
        s->stand[sd] = !s->stand[sd];
        battle_emit_action(b, a, s->stand[sd] ? "rout_overrule" : "rout_overrule_cleared", -1, true);
        return BATTLE_OK;
    }
    if (c->arg != 1) return BATTLE_ILLEGAL;
    leave(b, b->board->side[a], "withdrew");
    advance(b);
    return BATTLE_OK;
}

static battle_status_t surface_apply(battle_t *b, const cmd_t *c)
{
    sf_state_t *s = sf_st(b);
    int a = c->actor;
    if (a < 0 || a >= b->n || b->over) return BATTLE_ILLEGAL;
    if ((c->kind == CMD_SAVE || c->kind == CMD_RETREAT) && battle_active(b, a) && s->phase >= 0)
        return apply_call(b, c);
    if (!sf_may_act(b, a)) return BATTLE_ILLEGAL;
    sf_unit_t *u = &s->u[a];
    switch (c->kind) {
    case CMD_END:
        sf_begin_turn(b, a);
        end_turn(b, a);
        return BATTLE_OK;
    case CMD_MOVE: {
        int cost;
        if (!sf_path_ok(b, a, c->arg, c->path, c->n_path, &cost)) return BATTLE_ILLEGAL;
        sf_begin_turn(b, a);
        sf_do_move(b, c);
        return BATTLE_OK;
    }
    case CMD_ENGAGE:
        if (!sf_attack_ok(b, c)) return BATTLE_ILLEGAL;
        sf_begin_turn(b, a);
        sf_do_attack(b, c);
        return BATTLE_OK;
    case CMD_SWITCH:
        if (!switch_ok(b, a, c->weapon)) return BATTLE_ILLEGAL;
        sf_begin_turn(b, a);
        set_hand(b, a, sf_hand_with(b, a, c->weapon, u->hand));
        battle_emit_action(b, a, "switch", -1, true);
        sf_spend(b, a, 1);
        return BATTLE_OK;
    case CMD_USE: {
        int to = use_result(b, a, c->at);
        if (to < 0) return BATTLE_ILLEGAL;
        sf_begin_turn(b, a);
        b->map->cells[map_index(b->map, c->at)] = (uint8_t)to;
        battle_emit_action(b, a, "use", -1, true);
        event_t e = event_make(EV_TERRAIN);
        e.to = c->at;
        hb_strlcpy(e.name, b->map->types[to].name, sizeof e.name);
        battle_emit(b, &e);
        sf_spend(b, a, 1);
        return BATTLE_OK;
    }
    default:
        return BATTLE_ILLEGAL;
    }
}

/* The legal list: end, one bare move per open mode (the path is the
 * referee's), every attack that may be made now, switches and doors. */
typedef struct {
    cmd_t *out;
    int cap, n;
} list_t;

static void offer(list_t *l, const cmd_t *c)
{
    if (l->n < l->cap) l->out[l->n] = *c;
    l->n++;
}

static void offer_attacks(battle_t *b, int a, list_t *l)
{
    const unit_t *u = &b->u[a];
    for (int t = 0; t < b->n; t++) {
        if (!battle_active(b, t) || !sf_enemies(b, a, t)) continue;
        for (int w = -1; w < u->n_weapons; w++) {
            cmd_t c = cmd_make(CMD_ENGAGE, a);
            c.target = t;
            c.weapon = w;
            c.at = hex_to_cell(b->map->layout, sf_pos(b, t));
            for (int nl = 0; nl < 2; nl++) {
                c.arg = nl ? SF_ARG_NONLETHAL : 0;
                if (sf_attack_ok(b, &c)) offer(l, &c);
            }
            c.arg = 0;
            /* Two weapons at once (S24), each pair once. */
            for (int w2 = w + 1; w >= 0 && w2 < u->n_weapons; w2++) {
                c.weapon2 = w2;
                if (sf_attack_ok(b, &c)) offer(l, &c);
            }
        }
    }
}

int sf_legal(battle_t *b, int a, cmd_t *out, int cap)
{
    list_t l = {out, cap, 0};
    if (!sf_may_act(b, a)) return 0;
    cmd_t c = cmd_make(CMD_END, a);
    offer(&l, &c);
    for (int m = 0; m < SF_MODE_COUNT; m++)
        if (sf_mode_open(b, a, m)) {
            c = cmd_make(CMD_MOVE, a);
            c.arg = m;
            offer(&l, &c);
        }
    offer_attacks(b, a, &l);
    for (int w = 0; w < b->u[a].n_weapons; w++)
        if (switch_ok(b, a, w)) {
            c = cmd_make(CMD_SWITCH, a);
            c.weapon = w;
            offer(&l, &c);
        }
    for (int d = 0; d < HEX_DIRS; d++) {
        c = cmd_make(CMD_USE, a);
        c.at = hex_to_cell(b->map->layout, hex_neighbor(sf_pos(b, a), d));
        if (use_result(b, a, c.at) >= 0) offer(&l, &c);
    }
    return l.n;
}

/* The AI's answers: a flee response by its rule; soak (asked without the
 * amount here: apply weighs the amount itself) when the heat costs nothing. */
static int surface_react(const battle_t *b, int reactor, const react_offer_t *offer)
{
    if (offer->n < 2) return 0;
    if (strcmp(offer->kind, "flee_response") == 0)
        return sf_ai_respond(b, reactor, offer->trigger) ? 1 : 0;
    if (strcmp(offer->kind, "soak") == 0) {
        sf_def_t d;
        sf_def_init(b, reactor, &d);
        return d.has_soak && d.heat_cost <= 0.0 ? 1 : 0;
    }
    return 0;
}

/* A stealth level of 4 or more against every watcher of the side hides a
 * combatant from that side's view (S23). */
static bool surface_hidden_from(const battle_t *b, int who, int side)
{
    if (!battle_active(b, who) || b->board->side[who] == side) return false;
    bool any = false;
    for (int j = 0; j < b->n; j++) {
        if (!battle_active(b, j) || b->board->side[j] != side) continue;
        any = true;
        if (sf_stealth_level(b, j, who) < 4) return false;
    }
    return any;
}

const ruleset_t ruleset_surface = {
    .id = "surface",
    .title = "Surface Combat: faction turns, soak and heat",
    .geo_profile = surface_geo_profile,
    .stat_names = STAT_NAMES,
    .n_stats = SF_COUNT,
    .state_size = sizeof(sf_state_t),
    .setup = surface_setup,
    .actors = surface_actors,
    .move_modes = SF_MODE_NAMES,
    .n_move_modes = SF_MODE_COUNT,
    .move_cost = sf_move_cost,
    .legal = sf_legal,
    .apply = surface_apply,
    .react = surface_react,
    .ai = sf_ai,
    .winner = surface_winner,
    .hidden_from = surface_hidden_from,
    .weapon_area = sf_weapon_area,
    .calls = surface_calls,
    .call_kinds = RULESET_CALL(CMD_SAVE),
    .predict = sf_predict_cmd,
    .bands = sf_bands,
    .gauges = sf_gauges,
    .describe = sf_describe,
    .refused = sf_refused,
    .ammo_used = sf_ammo_used,
    .revision = 2, /* 2: issue 31 (fire in melee, stealth 3, thrown and moving, morale) */
};
