/* surface.h - the Surface Combat ruleset (seed 001): shared state and helpers
 * of the files in src/rules/surface/, and what tests and the UI hooks read.
 *
 * A round ("turn" in the text) runs faction by faction in initiative order;
 * inside a faction's phase its members take their turns in any order, two
 * actions each. Attacks roll d20 + combat bonus + the target's VLN against 20;
 * damage meets soak dice, armour HP and then HP; heat vents at the end of each
 * character's turn; factions that took casualties check morale at the end of
 * the round. docs/rules-surface.md says how each gap in the text is ruled
 * (S1-S37 of the project's reading).
 */
#ifndef HB_SURFACE_H
#define HB_SURFACE_H

#include "../../core/area.h"
#include "../../core/battle.h"
#include "../predict.h"
#include "../ruleset.h"

/* Stat slots, in the order of the ruleset's name table. */
enum {
    SF_CB = 0,     /* combat_bonus */
    SF_VLN,        /* vulnerability: added to attacks against this combatant */
    SF_STR,        /* strength: melee/thrown damage, Heavy x, thrown range */
    SF_SCALE,      /* 0, 1, 2: melee reach 1, 3, 33 hexes */
    SF_MORALE,
    SF_ARMOR,      /* armour HP left (stat_max: as the battle began) */
    SF_SOAK_N, SF_SOAK_D, SF_SOAK_HEAT,
    SF_SOAK2_N, SF_SOAK2_D, SF_SOAK2_HEAT,
    SF_VENT,
    SF_STEALTH,    /* stealth tech level, worn defences added */
    SF_SENSOR,
    SF_SAVE, SF_SAVE_AREA, SF_SAVE_STUN, SF_SAVE_BEAM, SF_SAVE_HOMING,
    SF_HANDS,      /* default 2 */
    SF_MOUNTS, SF_OPERATORS, /* a vehicle: mounted weapons, no hands */
    SF_MARTIAL,    /* martial-arts pool die (0: none) */
    SF_INTERSHIELDS,
    SF_HEAT,       /* heat points now */
    SF_NONLETHAL,  /* nonlethal damage taken */
    SF_COUNT
};

/* Move modes (cmd_t.arg of CMD_MOVE). */
enum { SF_MOVE = 0, SF_SPRINT, SF_RETREAT, SF_FLEE, SF_MODE_COUNT };

/* Bits of cmd_t.arg of CMD_ENGAGE. */
#define SF_ARG_NONLETHAL 0x1  /* declared intent to subdue */
#define SF_ARG_MARTIAL 0x8    /* an unarmed attack splitting the martial pool (S33) */
#define SF_ARG_MARTIAL_SHIFT 4 /* bits 4..8: martial damage die X (unarmed) */
#define SF_ARG_MARTIAL_MASK 0x1f
#define SF_ARG_EXTRA_SHIFT 12  /* bits 12..23: further weapons of a vehicle */

/* Condition bits (unit_t.cond). */
enum {
    SFC_STUNNED = 1u << 0,
    SFC_SUBDUED = 1u << 1,
    SFC_ROUTED = 1u << 2,
};

#define SF_NMAX MAP_MAX_COMBATANTS

/* Weapons whose ammunition is counted (S35): the first 16 of a list. */
#define SF_AMMO_SLOTS 16

/* One combatant's turn-by-turn bookkeeping. */
typedef struct {
    uint8_t left;       /* actions unspent this round (S7: kept for flee responses) */
    uint8_t done;       /* its turn in this round is over */
    uint8_t attacked;   /* its one attack this round is spent */
    uint8_t moved;      /* moved this turn (move, sprint, retreat, flee) */
    uint8_t fired_still;/* fired a non-Assault ranged weapon: no move after (S9) */
    uint8_t guard;      /* martial defence die until its next turn (0: none) */
    uint16_t hand;      /* bit w: weapon w in hand */
    int8_t cont_w;      /* continuous fire: weapon, target, last round, streak */
    int16_t cont_t;
    int16_t cont_round;
    uint8_t cont_n;
    int8_t ray_w;       /* area ray kept up: weapon, round fired, centre */
    int16_t ray_round;
    cell_t ray_at;
    uint32_t given;     /* bit s: stat s came from the map or the template */
    uint16_t ammo[SF_AMMO_SLOTS]; /* rounds of ammunition each weapon spent (S35) */
} sf_unit_t;

/* Terrain along lines the AI has looked down (los.c), by the pair of end
 * cells, either way: valid while the terrain is what it was read as (each
 * cell's sight, wall and cover bits, and the grid, compared in full by
 * sf_los_sync). Maps of up to SF_LOS_CELLS cells; larger ones are traced
 * each time. Zeroed = empty. */
#define SF_LOS_CELLS 362 /* 362 * 362 pairs fit val */
typedef struct {
    bool ready;
    int cols, rows;
    hex_layout_t layout;
    uint8_t terrain[SF_LOS_CELLS];                     /* what each cell was read as */
    uint8_t cells[SF_LOS_CELLS];                       /* the map's cells then */
    int n_types;
    uint8_t type_bits[MAP_MAX_TERRAIN];                /* each terrain type read as */
    uint8_t val[SF_LOS_CELLS * SF_LOS_CELLS];          /* 0 not traced, else los.c's bits */
} sf_los_t;

typedef struct {
    int n_order;
    int order[MAP_MAX_FACTIONS];   /* board sides, first to act first */
    int init[MAP_MAX_FACTIONS];    /* each side's first initiative roll */
    int phase;                     /* index into order; -1 before setup ends */
    int open;                      /* the phase's turn_start has been emitted */
    int cur;                       /* member whose turn is under way, -1 none */
    uint8_t casualty[MAP_MAX_FACTIONS]; /* side took a casualty this round */
    uint8_t player[MAP_MAX_FACTIONS];
    uint8_t stand[MAP_MAX_FACTIONS]; /* the referee overrules the side's next rout (S19) */
    sf_unit_t u[SF_NMAX];
} sf_state_t;

/* ---- small queries (turn.c) ---------------------------------------------- */

static inline sf_state_t *sf_st(battle_t *b) { return (sf_state_t *)b->rs; }
static inline const sf_state_t *sf_cst(const battle_t *b) { return (const sf_state_t *)b->rs; }
static inline hex_t sf_pos(const battle_t *b, int i) { return b->board->pos[i]; }
static inline int sf_dist(const battle_t *b, int i, int j)
{
    return hex_distance(b->board->pos[i], b->board->pos[j]);
}
static inline bool sf_enemies(const battle_t *b, int i, int j)
{
    return !board_allies(b->board, i, j);
}
static inline int sf_stat(const battle_t *b, int i, int s) { return b->u[i].stat[s]; }
/* Did the map or the template give combatant i stat s (else it is 0)? */
static inline bool sf_given(const battle_t *b, int i, int s)
{
    return (sf_cst(b)->u[i].given >> s) & 1u;
}

/* Feet to whole hexes by hand: nearest, at least 1 (S1; not ceil). */
int sf_ft_hexes(const battle_t *b, int ft);
/* Encounter Range in feet (the stat block's speed; S2). */
int sf_er_ft(const battle_t *b, int i);
/* Is i a vehicle (mounts > 0): weapons mounted, no hands, no switching? */
bool sf_vehicle(const battle_t *b, int i);
/* Body reach in hexes by Scale (S1): 1, 3 or 33. */
int sf_body_reach(const battle_t *b, int i);
/* Melee reach in hexes of i with melee weapon w (NULL: unarmed or a club);
 * Long doubles it. */
int sf_weapon_reach(const battle_t *b, int i, const weapon_t *w);
/* i's melee reach now: the longest of its in-hand melee weapons and its body. */
int sf_melee_reach(const battle_t *b, int i);
/* Are i and j in melee (S4): within the larger reach, with sight between? */
bool sf_in_melee_pair(const battle_t *b, int i, int j);
/* Is i in melee with any enemy? */
bool sf_in_melee(const battle_t *b, int i);
/* Is weapon w of i at hand now (in hand, or mounted on a vehicle)? */
bool sf_ready(const battle_t *b, int i, int w);
/* The weapons in hand once i takes weapon w (w < 0: the battle's start, the
 * first that fit) keeping those of `had` that still fit, in list order. */
uint16_t sf_hand_with(const battle_t *b, int i, int w, uint16_t had);
/* The hands weapon w needs (tag `hands`, default 1). */
int sf_hands_of(const weapon_t *w);
/* Is a tag present on weapon w (whatever its value)? */
bool sf_has_tag(const weapon_t *w, const char *key);
/* Save score of i for a kind ("area", "stun", "beam", "homing"): the
 * override when given, else the general `save`. */
int sf_save_score(const battle_t *b, int i, int slot_override);
/* Roll a save (S27): d20 + score >= 20. */
bool sf_save(battle_t *b, int i, int slot_override, const char *why);
/* Emit a stat event for i's slot s at its current value. */
void sf_emit_stat(battle_t *b, int i, int s, int from);
/* Is it i's side's phase, i still to act or acting, and no one else acting? */
bool sf_may_act(const battle_t *b, int i);
/* Start i's turn if it has not started (emits turn_start). */
void sf_begin_turn(battle_t *b, int i);
/* Spend n actions of i; ends its turn when none are left. */
void sf_spend(battle_t *b, int i, int n);
/* Has a roll or a question stopped the command (the driver will rebuild and
 * apply it again)? Loops that roll stop early. */
static inline bool sf_halted(const battle_t *b) { return battle_halted(b); }
/* Roll d20 + mod for combatant who (side when who is -1) against 20 or more,
 * the shape of every to-hit roll and save (S-R1, S27); true when it reaches. */
bool sf_roll_20(battle_t *b, int who, int mod, const char *why);
/* Is i still fighting (in the battle, not stunned, subdued or routed)? */
static inline bool sf_fighting(const battle_t *b, int i) { return battle_active(b, i); }

/* A faction's Morale (S19): the map's `morale` for it, else the highest
 * `morale` among its members still fighting, else 7. Player factions too. */
int sf_side_morale(const battle_t *b, int sd);

/* ---- sight for the AI (los.c) ---------------------------------------------- */

/* Forget los's lines unless b's terrain is the one they were traced on. */
void sf_los_sync(sf_los_t *los, const battle_t *b);
/* This thread's kept lines, synced to b's terrain, or NULL (a map too large).
 * Odds runs battle after battle on one map: the lines outlive each battle. */
sf_los_t *sf_los_for(const battle_t *b);
/* sight_trace_walls(b->board, from, to, walled) exactly (walled may be NULL;
 * sight_trace's answer is the same), the terrain part read from los when
 * kept there (los NULL: traced). */
sight_t sf_los_trace(sf_los_t *los, const battle_t *b, hex_t from, hex_t to, bool *walled);
/* sight_clear(b->board, from, to) exactly, through los the same way. */
bool sf_los_clear(sf_los_t *los, const battle_t *b, hex_t from, hex_t to);
/* sf_los_trace as one number: 0 seen in the open, 1 light cover, 2 heavy,
 * 3 unseen, 4 unseen and walled off. The AI's inner loops ask it; a number
 * comes back in a register where a sight_t went through memory. */
int sf_los_level(sf_los_t *los, const battle_t *b, hex_t from, hex_t to);
/* sf_los_level with the bodies left out, from one hex to each of n (with
 * their cell indices, -1 off the map): the terrain's part alone (a body in
 * between can only raise it to light cover); -1 when los cannot tell. */
void sf_los_terrain_levels(sf_los_t *los, const battle_t *b, hex_t from, int from_cell,
                           const hex_t *to, const int *to_cell, int n, int8_t *out);

/* ---- moving (move.c) ------------------------------------------------------ */

/* Names of the move modes, for the UI and `query reach --mode`. */
extern const char *const SF_MODE_NAMES[SF_MODE_COUNT];
/* Budget in feet of one move of `mode` (ER, 4 ER, half the ER in whole hexes,
 * 2 ER). */
int sf_mode_budget(const battle_t *b, int i, int mode);
/* May i move in `mode` now: actions and this turn's shots for the combatant
 * who may act (a fresh turn for anyone else), and in melee for a retreat or a
 * flee, out of it for a move or a sprint? */
bool sf_mode_open(const battle_t *b, int i, int mode);
/* ruleset_t.move_cost: the price of each step of `mode` (a retreat and a flee
 * never step closer to a foe they were in melee with) and where it may end. */
bool sf_move_cost(const battle_t *b, int i, int mode, move_cost_t *out);
/* Check a path of mode for i, who may act now; writes its cost in feet. */
bool sf_path_ok(const battle_t *b, int i, int mode, const cell_t *path, int n, int *cost_ft);
/* Carry out a move command (already checked). */
void sf_do_move(battle_t *b, const cmd_t *c);

/* ---- attacking (attack.c) ------------------------------------------------- */

#define SF_MAX_WEAPONS 12
/* Most hexes one blast or cone may cover (a radius of 18 hexes). */
#define SF_AREA_MAX 1024

/* How one weapon's attack on one target resolves, from where both stand:
 * apply rolls exactly this, and the odds read it. */
typedef enum { SF_ROLL_HIT = 0, SF_ROLL_BEAM, SF_ROLL_HOMING, SF_ROLL_NONE } sf_roll_kind_t;

typedef struct {
    int weapon;          /* index, -1 unarmed */
    const weapon_t *w;   /* NULL: unarmed */
    sf_roll_kind_t roll; /* to-hit, or the target's save instead, or none (cone) */
    int bonus;           /* to-hit: d20 + bonus >= 20 hits; saves: the save score */
    int cover_mod;       /* part of bonus: cover, concealment or stealth (<= 0) */
    int shots;
    int dmg_n, dmg_sides, dmg_bonus; /* per hitting shot */
    int xdie;            /* martial arts: one more die of this size per shot (0 none) */
    bool nonlethal;      /* damage goes to the nonlethal track */
    bool club;           /* a lethal weapon swung as a club (S32) */
    bool melee;          /* a melee attack (weapon, unarmed or club) */
    int blast;           /* radius in hexes (blast or area ray), 0 none */
    bool ray;            /* an area ray */
    int ray_loss;        /* damage lost by moving a kept-up ray */
    bool cone;
    int heat_fire;       /* heat added to the firer */
    int heat_hit;        /* heat added to whoever a shot hits */
    int actions;         /* 1, or 2 for Heavy */
} sf_shot_t;

/* Shape of attacker a's attack on t (or, for a cone, aimed at `at`) with
 * weapon wi, with cmd flags `arg` and `n_weapons` weapons in the attack.
 * False when that weapon cannot make this attack now. */
bool sf_shot_shape(const battle_t *b, int a, int t, int wi, int arg, int n_weapons, cell_t at,
                   sf_shot_t *out);

/* The tags of one weapon an attack's shape reads, each read once (0 when
 * absent) instead of looked up by name shot after shot. */
typedef struct {
    int cone, assault, handheld, homing, beam, steady, nonlethal, blunt;
    int blast, area_ray, shots, heavy, heat, heat_on_hit, particle, continuous, quench;
    bool has_heat_on_hit;
} sf_wtags_t;
void sf_wtags_read(const weapon_t *w, sf_wtags_t *out);
/* sf_wtags_read, from a small per-thread table: an entry is used only while
 * the weapon at that address still has the very tags it was read from
 * (compared key by key), so an edited or reloaded weapon is read again.
 * NULL (bare hands): all zero. */
void sf_wtags_get(const weapon_t *w, sf_wtags_t *out);

/* Cover levels (sf_cover_level) already worked out, by the hex the attacker
 * stands on and the target, and targets' melee reach: valid only while
 * nothing changes but the attacker's hex and its own turn flags and hands
 * (every other position and hand, the terrain, the stats), as during one AI
 * call that places its combatant on hex after hex to look. Zeroed = empty;
 * sf_cover_memo_reset empties one again. */
#define SF_COVER_MEMO 2048 /* slots, a power of two */
typedef struct {
    uint32_t key[SF_COVER_MEMO]; /* 0 empty, else 1 + cell index * SF_NMAX + target */
    int8_t lvl[SF_COVER_MEMO];
    int n;
    uint16_t used[SF_COVER_MEMO]; /* the slots filled, n of them */
    int16_t mreach[SF_NMAX]; /* 0 unknown, else 1 + sf_melee_reach of the target */
    sf_los_t *los;           /* lines traced this battle (NULL: trace each) */
} sf_cover_memo_t;
/* Empty a memo that was zeroed once and used since, clearing only the
 * slots it filled, and set the lines it reads. */
void sf_cover_memo_reset(sf_cover_memo_t *memo, sf_los_t *los);
/* sf_cover_level(b, a, t), read from memo or worked out and kept there. */
int sf_cover_level_memo(sf_cover_memo_t *memo, const battle_t *b, int a, int t);
/* sf_shot_shape, taking cover levels from memo (NULL: none). */
bool sf_shot_shape_memo(const battle_t *b, int a, int t, int wi, int arg, int n_weapons, cell_t at,
                        sf_cover_memo_t *memo, sf_shot_t *out);
/* Every weapon index of an attack command (weapon, weapon2, vehicle extras);
 * returns the count (0: malformed). */
int sf_attack_weapons(const battle_t *b, const cmd_t *c, int *out);
/* Is the attack command legal now? */
bool sf_attack_ok(const battle_t *b, const cmd_t *c);
/* Actions it takes a to fire w (NULL: unarmed): 2 for Heavy x above a's
 * strength (S-A5, S10), else 1. */
int sf_fire_actions(const battle_t *b, int a, const weapon_t *w);
/* Actions a move in `mode` costs (S-A2, S-A3: sprint and flee take 2). */
int sf_mode_actions(int mode);
/* ruleset_t.refused: a's move modes and weapons in hand that the turn
 * refuses, and why. */
int sf_refused(const battle_t *b, int a, refusal_t *out, int cap);
/* Carry out an attack command (already checked). */
void sf_do_attack(battle_t *b, const cmd_t *c);
/* One melee attack of r on t out of turn (a flee response). */
void sf_respond(battle_t *b, int r, int t, int wi);
/* The weapon r would answer a flee by t with: the in-hand melee weapon that
 * reaches, else -1 unarmed; -2 when r cannot reach t at all. */
int sf_response_weapon(const battle_t *b, int r, int t);
/* May i see where t is, to aim at it (S22, S23)? Cover level against a's
 * attack on t (0 none, 1 light, 2 heavy, 3 concealed, 4 cannot target). */
int sf_cover_level(const battle_t *b, int a, int t);
/* Does a's faction know of t (the AI plans only from that; S22, S23,
 * RULINGS "the AI plays fair"): a member's sensor (above 0) is at least its
 * stealth tech, or for some member t is neither hidden nor concealed: its
 * stealth level against that member under 3, and no smoke (terrain that
 * blocks sight and can be walked into) alone between them. A foe merely
 * behind a wall is known. los as sf_los_trace (NULL: traced). */
bool sf_side_knows(const battle_t *b, int a, int t, sf_los_t *los);
/* The to-hit modifier of a cover level below 4 (S17: -1, -2, -4). */
int sf_cover_mod(int level);
/* Stealth level of t against a's sensors (S23). */
int sf_stealth_level(const battle_t *b, int a, int t);
/* The area weapon w strikes fired from `from` at hex `at` (ruleset_t.weapon_area):
 * a blast or area ray of its radius around `at`, or a cone of its range
 * towards `at` (width d/2 at d, S25). False when w has no area. */
bool sf_weapon_area(const map_t *m, const weapon_t *w, hex_t from, hex_t at, area_t *out);
/* The hexes a's weapon w strikes aimed at `at` from where a stands, line of
 * effect included; returns the count written (at most cap). */
int sf_area_hexes(const battle_t *b, int a, const weapon_t *w, hex_t at, hex_t *out, int cap);

/* ---- damage (damage.c) ---------------------------------------------------- */

/* One packet of damage reaching t: raw amount, whether nonlethal, who from,
 * heat the hit adds. Saves are done; soak, armour HP and HP follow here. */
void sf_take(battle_t *b, int t, int from, int amount, bool nonlethal, int heat_hit,
             const char *weapon);
/* Heat damage and venting at the end of i's turn (S9, S16, S17). */
void sf_vent(battle_t *b, int i);
/* Add heat to i (emits the stat). */
void sf_add_heat(battle_t *b, int i, int amount);
/* Take i out: defeated at 0 HP, stunned or subdued (a casualty). */
void sf_casualty(battle_t *b, int i, const char *cond);
/* Would the defender t soak this packet (the AI's policy, S13)? */
bool sf_soak_pays(const battle_t *b, int t, int amount);
/* Expected total of t's soak dice, and the heat rolling them adds. */
double sf_soak_mean(const battle_t *b, int t);
int sf_soak_heat(const battle_t *b, int t);

/* ---- odds (present.c) ----------------------------------------------------- */

/* Chance that d20 + bonus >= 20. */
double sf_p_d20(int bonus);
/* A defender as the odds see it: its soak total's distribution, the HP the
 * heat of soaking is expected to cost, armour HP, HP, martial guard. */
#define SF_SOAK_MAX 64
/* HP a heat point left after venting is expected to cost at a turn's end: a
 * d6 showing 1 or 2 deals its face, so (1 + 2) / 6. */
#define SF_HEAT_POINT_COST 0.5
/* Heat points left past the vent after `add` more heat, less those left
 * before it, for one at `heat` with vent `vent` (S-D9): what the heat of a
 * soak or a shot costs, in points. */
int sf_heat_over(int heat, int vent, int add);
#define SF_DEF_KEY 8
typedef struct {
    double soak[SF_SOAK_MAX];
    int top;
    bool has_soak;
    double heat_cost;
    int armor, hp, guard;
    /* Everything the fields above are worked out from (sf_def_init): equal
     * keys, equal defenders. sf_loss_by_hits keeps its answers by it. */
    int key[SF_DEF_KEY];
} sf_def_t;
void sf_def_init(const battle_t *b, int t, sf_def_t *d);
/* Does soaking `amount` pay (S13): expected damage absorbed over the HP the
 * added heat is expected to cost? The AI's answer, and the odds'. */
bool sf_def_soaks(const sf_def_t *d, int amount);
/* Expected loss of one packet of `left` damage after any area save; *kill
 * (may be NULL) gets the chance it takes the defender's last HP. */
double sf_def_loss(const sf_def_t *d, int left, bool nonlethal, double *kill);
/* Most shots the odds follow one by one. */
#define SF_SHOTS_MAX 63
/* Chance of each number of hitting shots 0..shots (p[0]: a miss). */
void sf_hit_dist(const sf_shot_t *s, double *p);
/* Expected loss ek[k] and kill chance pk[k] when exactly k shots hit (k =
 * 0..shots), the area save included. */
void sf_loss_by_hits(const sf_def_t *def, int save_area, const sf_shot_t *s, double *ek,
                     double *pk);
/* sf_expected_loss for a defender already described. */
double sf_expected_loss_def(const sf_def_t *def, int save_area, const sf_shot_t *s);
/* Expected HP (or nonlethal) t loses to shape s: every hit count, the
 * area save, soak as t's policy would take it, armour HP. */
double sf_expected_loss(const battle_t *b, int t, const sf_shot_t *s);
/* Odds of a engaging t with weapon w (-1 unarmed) and cmd flags arg. */
bool surface_predict(const battle_t *b, int a, int t, int w, int arg, predict_t *out);
/* Range of ranged or thrown weapon w in feet for a user of this strength
 * (S29: thrown + 10 ft per point). */
int sf_range_ft(const weapon_t *w, int strength);
/* Stat KEY of map combatant c: the map's override, else its template's
 * (db may be NULL), else def. */
int sf_map_stat(const tmpl_db_t *db, const map_combatant_t *c, const char *key, int def);
/* ---- present.c: the G3 hooks (ruleset.h) ---- */
bool sf_predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out);
int sf_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap);
int sf_gauges(const battle_t *b, int i, gauge_t *out, int cap);
/* ruleset_t.ammo_used: the rounds each weapon that uses Ammunition (ranged
 * or thrown, not drawing energy) spent (S35, S-T4). */
int sf_ammo_used(const battle_t *b, ammo_use_t *out, int cap);
/* Does weapon w use Ammunition (S35)? */
bool sf_uses_ammo(const weapon_t *w);
bool sf_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap);

/* ---- AI (ai.c) ------------------------------------------------------------ */

void sf_ai(battle_t *b, int a, cmd_t *out);
/* For tests, on one thread: on, the AI weighs every candidate in full and
 * skips nothing by its bounds; its picks must be the very same. */
void sf_ai_exhaustive(bool on);
/* Ordering of an Architect faction's members (S21, 1.5): lower goes first. */
int sf_ai_order_key(const battle_t *b, int i);
/* Does r answer the flee of t with an attack (policy)? */
bool sf_ai_respond(const battle_t *b, int r, int t);

/* ---- listing (turn.c) ----------------------------------------------------- */

int sf_legal(battle_t *b, int a, cmd_t *out, int cap);

#endif
