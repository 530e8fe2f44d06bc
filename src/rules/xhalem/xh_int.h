/* xh_int.h - what the files of the xhalem ruleset share (src/rules/xhalem/).
 *
 * The public face is src/rules/xhalem.h; this adds the small queries (inline),
 * the shapes the files pass between them and the functions one file calls
 * in another. Not for use outside src/rules/xhalem/.
 */
#ifndef HB_XH_INT_H
#define HB_XH_INT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/path.h"
#include "../predict.h"
#include "../ruleset.h"
#include "../xhalem.h"

/* Machine lengths are written in mech hexes of 15 ft (RULINGS: xhalem units). */
#define MECH_HEX_FT 15
#define NMAX MAP_MAX_COMBATANTS
/* The text leaves the difficulty of a rider's and a mount's checks to the
 * Architect; hexbattle uses 10 for both (d20 + Strength or Hull, meet or beat). */
#define XH_MOUNT_DC 10

typedef xh_mods_t mods_t;
typedef xh_engage_t eng_t;

/* The remaining cells of every move under way when a reaction comes (the
 * mover's, and the mover's whose move set that one off), which a held move
 * must not end on: each of those movers will still pass through or stop there. */
typedef struct walk_ctx {
    const cell_t *rest;
    int n;
    const struct walk_ctx *up;
} walk_ctx_t;

/* ---- small queries ------------------------------------------------------ */

static inline xh_state_t *st(battle_t *b)
{
    return (xh_state_t *)b->rs;
}

static inline const xh_state_t *cst(const battle_t *b)
{
    return (const xh_state_t *)b->rs;
}

static inline const map_combatant_t *mc(const battle_t *b, int i)
{
    return &b->map->combatants[i];
}

static inline bool is_machine(const battle_t *b, int i)
{
    return mc(b, i)->kind == KIND_MACHINE;
}

static inline int stat(const battle_t *b, int i, int s)
{
    return b->u[i].stat[s];
}

static inline bool has(const battle_t *b, int i, unsigned c)
{
    return (b->u[i].cond & c) != 0;
}

static inline hex_t pos(const battle_t *b, int i)
{
    return b->board->pos[i];
}

static inline int dist_hex(const battle_t *b, int i, int j)
{
    return hex_distance(pos(b, i), pos(b, j));
}

/* Is a distance of `hexes` within a rule length of `ft`? A length covers
 * ceil(ft / feet_per_hex) hexes (RULINGS, Scale), as the threat zone and the
 * overlays count it: 10 ft of reach still reaches the next 15-ft hex. */
static inline bool within_ft(const battle_t *b, int hexes, int ft)
{
    return hexes <= geom_ft_to_hexes(b->map, ft);
}

static inline int rider_on(const battle_t *b, int m)
{
    return cst(b)->rider_of[m] - 1;
}

static inline bool enemies(const battle_t *b, int i, int j)
{
    return !board_allies(b->board, i, j);
}

/* Engagement bonus: Systems for a machine, Agility for a creature. */
static inline int engage_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_SYSTEMS : XS_AGILITY);
}

/* Evasion / initiative bonus: Engine for a machine, Evasion for a creature. */
static inline int evade_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_ENGINE : XS_EVASION);
}

/* Raw-strength checks (grapple, shove, escape): Hull or Strength. */
static inline int might_bonus(const battle_t *b, int i)
{
    return stat(b, i, is_machine(b, i) ? XS_HULL : XS_STRENGTH);
}

/* Reach of combatant i with weapon w (NULL: unarmed), feet. */
/* The body's reach of c (feet): 5, or 10 for the biggest (mech hexes for machines). */
int xh_body_reach(const map_combatant_t *c);

/* Reach of combatant i striking with weapon w (NULL: unarmed), feet: a
 * weapon only ever extends the body's reach (RULINGS: reach). */
static inline int melee_reach(const battle_t *b, int i, const weapon_t *w)
{
    int body = xh_body_reach(mc(b, i));
    return w && w->cls == WPN_MELEE && w->reach_ft > body ? w->reach_ft : body;
}

static inline bool airborne(const battle_t *b, int i);

/* How deep i stands in the terrain's liquid (RULINGS: water): a flier is
 * above the terrain, not in it; the built-in water is wading depth. */
static inline depth_t immersion(const battle_t *b, int i)
{
    if (airborne(b, i)) return DEPTH_NONE;
    cell_t c = hex_to_cell(b->map->layout, pos(b, i));
    return map_terrain_at(b->map, c)->depth;
}

static inline bool immobile(const battle_t *b, int i)
{
    return cst(b)->grappled_by[i] > 0;
}

/* The one who carries i: its mount when it rides (a rider goes at its
 * mount's pace, in its mount's element), else i itself. */
static inline int carrier(const battle_t *b, int i)
{
    int m = xhalem_mount_of(b, i);
    return m >= 0 ? m : i;
}

static inline bool airborne(const battle_t *b, int i)
{
    return has(b, carrier(b, i), XC_FLYING);
}

static inline int round_up(int v, int step)
{
    return step > 1 ? (v + step - 1) / step * step : v;
}

static inline bool holding_someone(const battle_t *b, int a)
{
    for (int k = 0; k < b->n; k++)
        if (cst(b)->grappled_by[k] == a + 1) return true;
    return false;
}

/* ---- core.c ---- */

/* ruleset_t.geo_profile: reach, speed, dash, interval and flanking lengths. */
void xhalem_geo_profile(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c,
                        geo_profile_t *out);
/* Emit a condition event (the bit itself is the caller's). */
/* Set or clear condition bit on i, emitting the change (nothing when unchanged). */
void xh_set_cond(battle_t *b, int i, unsigned bit, const char *name, bool on);
/* Undo a mount/rider pair (either may be gone); the rider keeps its hex and,
 * if still in the fight and the hex is free, takes it. */
void xh_unmount(battle_t *b, int r);
/* t takes amount (at least 0) off its HP, and falls at 0. */
void xh_deal_damage(battle_t *b, int t, int amount);
/* Feet i may move in a turn, flying or on foot, doubled by a dash, halved
 * while dragging a grappled foe. */
int xh_speed_ft(const battle_t *b, int i, bool flying, bool dashed);
/* Movement speed of the actor i as it stands (flying or walking, dashed or not), feet. */
int xh_mode_speed(const battle_t *b, int i);
/* ruleset_t.hidden_from: hidden or cloaked, and found by nobody of side. */
bool xhalem_hidden_from(const battle_t *b, int who, int side);

/* ---- engage.c ---- */

/* xhalem_d20 by its short name. */
int xh_d20(battle_t *b, int who, mods_t m, int bonus, const char *why, int *natural);
/* Damage bonus: the score the text adds for this kind of weapon. */
int xh_damage_bonus(const battle_t *b, int a, const weapon_t *w);
/* predict_damage_mean, remembered for the rest of the battle (the same
 * value to the bit; b's rules state holds the memo). */
double xh_damage_mean(const battle_t *b, int n, int sides, int bonus, bool half);
/* The engagement shape as a value (xhalem_engage_shape; .legal false when it cannot be made). */
eng_t xh_assess(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity, bool forced);
/* Roll an engagement of t by a shaped as g (why: "engage", "grapple"):
 * a's d20s against t's evasion (a bare score when t is unaware), the
 * creature's naturals, an automatic failure; striking gives a hidden or
 * cloaked attacker away and spends an ally's assist. Returns hit; emits the
 * rolls only. */
bool xh_contest(battle_t *b, int a, int t, const eng_t *g, const char *why);
/* xh_contest for a strike with weapon w (NULL unarmed), then its attack event. */
bool xh_engagement(battle_t *b, int a, int t, const weapon_t *w, const eng_t *g);
/* Damage for a hit of t by a, rolled as the engagement's shape g says. */
void xh_strike_damage(battle_t *b, int a, int t, const eng_t *g);
/* A full engagement of t by a: roll, then damage on a hit. Returns hit. */
bool xh_strike(battle_t *b, int a, int t, const weapon_t *w, bool opportunity, bool forced);

/* ---- reactions.c ---- */

/* May r react at all: in the fight, its reaction unspent, not held. */
bool xh_can_react(const battle_t *b, int r);
/* The melee weapon in r's hand that reaches farthest, or -1 for none. */
int xh_melee_weapon_index(const battle_t *b, int r);
/* Mover m is about to step from h0 to h1: enemies whose reach it leaves may
 * strike (RULINGS: opportunity). forced: an unwilling move (by `by`).
 * reacting: a held standby move out of turn, so no engagement of this turn
 * excuses it. Returns false when the mover is no longer standing. */
bool xh_opportunities(battle_t *b, int m, hex_t h0, hex_t h1, bool forced, int by, bool reacting);
/* Standby holders whose trigger this step meets act now, after it: the mover
 * entered the held weapon's reach (XT_ENTERS_REACH), or moved at all where the
 * holder can see it (XT_MOVES_IN_SIGHT). */
void xh_standby_after_move(battle_t *b, int m, const walk_ctx_t *ctx);
/* After a engaged t with w: XT_ENGAGES (any engagement), XT_ENGAGES_RANGED (a
 * ranged or thrown one) and XT_ENGAGES_ALLY (one aimed at the holder's ally). */
void xh_standby_after_engage(battle_t *b, int a, int t, const weapon_t *used);
/* After a dashed or thrust (XT_DASHES): before it has moved a step. */
void xh_standby_after_dash(battle_t *b, int a);
/* The AI (and every side the table leaves to it) takes every opportunity and
 * every held standby; a side the table set to decline lets them pass before
 * this is asked (battle_table_choice). */
int xhalem_react(const battle_t *b, int reactor, const react_offer_t *offer);

/* ---- turn.c ---- */

/* Hand the turn to the next combatant still standing; close rounds as they pass. */
void xh_next_turn(battle_t *b);

/* ---- move.c ---- */

/* A step of a move (move_cost_t.step): passable terrain, no enemy in the
 * hex (allies are passed through); a flier crosses ground at the plain rate. */
int xh_step(void *ud, int from, int to);
/* The mode i moves in as it stands: flying once in the air, else walking. */
int xh_current_mode(const battle_t *b, int i);
/* i walks path[0..n) (already checked and paid for) of its own will: on its
 * turn, or out of turn as a held standby move (reacting). Each step may draw
 * opportunities first and set off standbys after; up is the move under way
 * that this one answers, if any. */
void xh_walk(battle_t *b, int i, const cell_t *path, int n, bool reacting, const walk_ctx_t *up);
/* The dash (or a machine's thrust): the action, and the move doubles. */
void xh_dash(battle_t *b, int a);
/* A move in mode c->arg (XM_*): the path must be one the mode's cost
 * accepts, within its budget (xhalem_move_cost). Flying takes off first; a
 * dash spends the action first, and the path is checked again after any
 * standby the dash set off. */
battle_status_t xh_do_move(battle_t *b, const cmd_t *c);
/* Push t one hex straight away from a, if that hex is free and passable. */
void xh_push_away(battle_t *b, int a, int t);
/* The hex a's push would move t to (false: no room, the push moves nothing). */
bool xh_push_dest(const battle_t *b, int a, int t, hex_t *out);

/* ---- actions.c ---- */

/* May a mount m now, as its action (see do_mount)? */
bool xh_mount_ok(const battle_t *b, int a, int m);
/* Dual strike with weapons w and w2 (no bare hands), both at hand; a
 * creature's two strikes use one weapon unless it fights with two. */
bool xh_dual_ok(const battle_t *b, int a, int w, int w2);
/* May a grapple or shove t now: an enemy in reach and in sight, no more than
 * one size larger, and a's hands free of another hold. */
bool xh_grab_ok(const battle_t *b, int a, int t);
/* Could a hide where it stands: a creature not hidden already, that no enemy
 * sees clearly? (Whether its action or a granted secondary is free is the
 * caller's question.) */
bool xh_hide_spot_ok(const battle_t *b, int a);
/* May a hide now, as its action? */
bool xh_hide_ok(const battle_t *b, int a);
/* The terrain type the object at `at` turns into when a uses it, or -1 when
 * a cannot use anything there (out of reach, or nothing that opens). */
int xh_use_result(const battle_t *b, int a, cell_t at);
/* Assist: distract enemy t in reach for ally `ally`, who stands within 5 ft. */
bool xh_assist_ok(const battle_t *b, int a, int t, int ally);
/* The ally an assist names: arg ally+1, or (arg 0) the only ally within
 * 5 ft; -1 when that is no ally a may assist (RULINGS: assist). */
int xh_assist_ally(const battle_t *b, int a, int arg);
/* Standby: a trigger and a held engagement (with a weapon at hand) or a held
 * move to a passable hex, against any enemy or a named one. */
bool xh_standby_ok(const battle_t *b, const cmd_t *c);
/* Switching weapons (the action): a creature takes up weapon w (put_away
 * -1); a machine, holding two, takes up w and puts away put_away. */
bool xh_switch_ok(const battle_t *b, int a, int w, int put_away);
/* Switching between walking and flying (free): up needs a fly speed, down a
 * hex that can be stood on. */
bool xh_fly_ok(const battle_t *b, int a, bool up);
/* Does something a has grant c as its secondary action? A weapon tagged
 * `secondary` grants one more engagement with it (an off-hand blade); a
 * template's `secondary` names the kind its specialty or program grants. */
bool xh_secondary_grant(const battle_t *b, int a, const cmd_t *c);
/* ruleset_t.apply. */
battle_status_t xhalem_apply(battle_t *b, const cmd_t *c);

/* ---- legal.c ---- */

/* An engage command of a at t with weapon w. */
cmd_t xh_engage_cmd(int a, int t, int w);
/* ruleset_t.legal. */
int xhalem_legal(battle_t *b, int a, cmd_t *out, int cap);

/* ---- ai.c ---- */

/* ---- present.c: the G3 hooks ---- */
bool xh_predict(const battle_t *b, const cmd_t *c, predict_t *out);
bool xh_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap);
int xh_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap);

/* ruleset_t.ai: the Architect's choice for a. */
void xhalem_ai(battle_t *b, int a, cmd_t *out);

#endif
