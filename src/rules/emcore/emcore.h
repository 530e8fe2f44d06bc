/* emcore.h - the EMCore combat extension (seed 003) as the `emcore` ruleset:
 * its state, and the helpers its files share with each other and the tests.
 *
 * A round ("turn" in the text) runs in three phases: Immediate (every
 * engaged character declares a fight or a disengage, hidden, and the
 * engagements resolve together as connected groups), Movement (one slot
 * each in initiative order, paid from the Movement score as points) and
 * Commitment (aimed shots and spells fire in initiative order). Every roll
 * is a pool of d12s counted for successes. See docs/rules-emcore.md, where
 * each ruling the code makes is written down.
 *
 * The state lives in battle_t.rs as plain data, zeroed on reset.
 */
#ifndef HB_EMCORE_H
#define HB_EMCORE_H

#include "../../core/battle.h"
#include "../predict.h"
#include "../ruleset.h"

/* Stat slots, in the order of the names the templates use. */
enum {
    ES_FORCE = 0,
    ES_ADEPTNESS,
    ES_INSIGHT,
    ES_FORTITUDE,
    ES_SPIRIT,
    ES_MIGHT,      /* melee base damage; 0 or absent: ceil(force / 2) */
    ES_MOVEMENT,   /* points per turn; 0 or absent: 4 */
    ES_HEALTH,     /* wounds it can take; 0 or absent: 3 + fortitude */
    ES_WILLPOWER,  /* forced actions left; 0 or absent at the start: 2 */
    ES_ARMOR,      /* extra dice to soak */
    ES_INIT_BONUS, /* levels added to Insight for initiative */
    ES_COUNT
};

/* Aspects a roll may use (weapon tag `aspect`: 0 force, 1 adeptness, 2 spirit). */
enum { EA_FORCE = 0, EA_ADEPTNESS, EA_SPIRIT };

/* Condition bits (unit_t.cond). */
enum {
    EC_PRONE = 1u << 0,     /* fallen: a target of opportunity, cannot act but get up */
    EC_RAN = 1u << 1,       /* ran this turn: a target of opportunity until its next slot */
    EC_COVER = 1u << 2,     /* taking cover: its roll opposes ranged attacks */
    EC_EVADING = 1u << 3,   /* Evasion this turn: its roll opposes ranged attacks */
    EC_COMMITTED = 1u << 4, /* holds a Committed action for the Commitment phase */
    EC_READIED = 1u << 5,   /* holds a readied action */
    EC_ENGAGED = 1u << 6,   /* locked in melee with an enemy (E6) */
};

/* What a character has done this turn (em_state_t.deeds), for what an
 * Immediate or a Committed action leaves (E3, E-A1). */
enum {
    ED_IMMEDIATE = 1u << 0, /* fought, guarded or disengaged in the Immediate phase */
    ED_COMMIT = 1u << 1,    /* issued a Committed action */
    ED_MAJOR = 1u << 2,     /* ran, charged, evaded or got up: more than a step or a minor action */
};

/* Phases of a turn. */
enum { EP_IMMEDIATE = 0, EP_MOVEMENT, EP_COMMITMENT, EP_COUNT };

/* Move modes (CMD_MOVE.arg). */
enum {
    EM_HASTY = 0, /* 1 hex a point, difficult 2; guard kept */
    EM_RUN,       /* 2 hexes a point, open ground only, Adeptness test per point */
    EM_CHARGE,    /* 2 terrain units a point; must end with an enemy in reach */
    EM_FORCED,    /* one hex for 1 Willpower, when out of points */
    EM_MODE_COUNT
};

/* How a pool's dice score. */
typedef enum {
    EPOOL_FULL = 0, /* 1 is -1; 8-9 one success; 10-12 two (a critical) */
    EPOOL_CRITS1,   /* a hasty shot: only criticals count, one each; 1 is still -1 */
    EPOOL_CRITS2,   /* a shot at a target in cover: only criticals, still two each */
} em_pool_mode_t;

/* The most dice one pool rolls: aspects and armor are kept to 0..10 at the
 * start (docs), so a soak pool is at most 6 + 10 dice. */
#define EM_POOL_MAX 16
/* Opportunity attacks one character may make in a turn (one per target). */
#define EM_OA_MAX 8

/* One character's Immediate-phase declaration (hidden until resolution). */
typedef struct {
    unsigned char set;
    unsigned char act; /* CMD_ENGAGE (fight) or CMD_DISENGAGE */
    short target;      /* fight: the foe attacked, -1 guard only */
    short weapon;      /* fight: the weapon, -1 unarmed */
} em_decl_t;

typedef struct {
    int phase;  /* EP_*; -1 once the battle can go no further */
    int cur;    /* Movement and Commitment: index into order of the slot */
    int actor;  /* whose slot it is, -1 none */
    int order[MAP_MAX_COMBATANTS]; /* initiative order, fixed for the battle (E14) */
    int n_order;
    int level[MAP_MAX_COMBATANTS]; /* Insight + initiative bonus */
    int tie[MAP_MAX_COMBATANTS];   /* Insight successes rolled to break ties, -1 none */
    int points[MAP_MAX_COMBATANTS];
    short group[MAP_MAX_COMBATANTS]; /* Immediate: engagement group + 1, 0 none */
    em_decl_t decl[MAP_MAX_COMBATANTS];
    signed char imm[MAP_MAX_COMBATANTS];   /* this turn's fight roll (guarded), -1 none */
    signed char cover[MAP_MAX_COMBATANTS]; /* cover roll while EC_COVER */
    signed char evade[MAP_MAX_COMBATANTS]; /* Evasion roll while EC_EVADING */
    short commit[MAP_MAX_COMBATANTS];      /* committed weapon + 1, 0 none */
    unsigned short nocked[MAP_MAX_COMBATANTS]; /* bit w: weapon w has an arrow nocked */
    unsigned char free_of[MAP_MAX_COMBATANTS]; /* broke free this turn (E10) */
    unsigned char deeds[MAP_MAX_COMBATANTS];   /* ED_* bits, this turn */
    unsigned char moved[MAP_MAX_COMBATANTS];   /* points' worth moved since it committed (E13) */
    /* The attack a dodge is being asked about (the AI prices it): who, with
     * which weapon, of which kind, at range or not. */
    short inc_attacker, inc_weapon;
    unsigned char inc_kind, inc_ranged;
    short oa[MAP_MAX_COMBATANTS][EM_OA_MAX];   /* targets of its opportunity attacks this turn */
    unsigned char n_oa[MAP_MAX_COMBATANTS];
    /* Readied actions (E18): live during round rd_round only. */
    int rd_round[MAP_MAX_COMBATANTS];
    short rd_trigger[MAP_MAX_COMBATANTS];
    short rd_target[MAP_MAX_COMBATANTS]; /* -1: any enemy */
    short rd_weapon[MAP_MAX_COMBATANTS];
    unsigned char rd_move[MAP_MAX_COMBATANTS]; /* 1: a readied move to rd_at, not a blow */
    cell_t rd_at[MAP_MAX_COMBATANTS];
} em_state_t;

/* One pool roll: the dice's net count (may be negative), successes (at
 * least 0), and how many criticals and botches it showed. */
typedef struct {
    int n, net, succ, crits, botches;
} em_roll_t;

static inline em_state_t *em_st(battle_t *b) { return (em_state_t *)b->rs; }
static inline const em_state_t *em_cst(const battle_t *b) { return (const em_state_t *)b->rs; }

/* ---- pool.c: the dice ---------------------------------------------------- */

/* Dice for an Aspect at level L: 1 + ceil(L / 2) (E1), at least 1. */
int em_pool_dice(int level);
/* The roll spec of n d12 counted in mode m (the log and the dice prompt
 * describe it: "3d12: 8+ succeeds, 10+ counts 2, a 1 takes one away"). */
roll_spec_t em_pool_spec(int n, em_pool_mode_t m);
/* What one d12 face scores in mode m. */
int em_face_value(int face, em_pool_mode_t m);
/* Roll n d12 for combatant who in mode m, logging a roll event with why. */
em_roll_t em_roll(battle_t *b, int who, int n, em_pool_mode_t m, const char *why);
/* Probability distribution of a pool's successes (floored at 0): dist[k] for
 * k in 0..2n; returns the top index. dist holds at least 2 * EM_POOL_MAX + 1. */
int em_pool_dist(int n, em_pool_mode_t m, double *dist);
/* Probability that the net (not floored) is negative: a botch. */
double em_pool_botch(int n, em_pool_mode_t m);
/* Probability that an attack pool beats a defence pool strictly, with the
 * expected margin when it does (mean over winning outcomes) and the expected
 * wounds after a soak pool against base + margin damage. def_n 0: a known
 * defence of def_fixed successes. soak_n 0: no soak. */
typedef struct {
    double p_win, margin, wounds;
} em_odds_t;
em_odds_t em_odds(int atk_n, em_pool_mode_t am, int def_n, int def_fixed, int base, int soak_n);

/* ---- turn.c: numbers, order and phases ----------------------------------- */

/* Points a character has per turn (its Movement score). */
int em_movement(const battle_t *b, int i);
/* ceil(M / 2) and M - 1 (at least 1) for character i (E4). */
int em_half_cost(const battle_t *b, int i);
int em_full_less_one(const battle_t *b, int i);
/* ruleset_t.refused (refuse.c): Aim and Evade the slot's points cannot pay. */
int em_refused(const battle_t *b, int a, refusal_t *out, int cap);
/* Dice i rolls with aspect a (EA_*). */
int em_aspect_dice(const battle_t *b, int i, int aspect);
/* Dice i soaks with: Fortitude plus armor. */
int em_soak_dice(const battle_t *b, int i);
/* The aspect weapon w (NULL: unarmed) rolls with (E23). */
int em_weapon_aspect(const weapon_t *w);
/* The aspect an attack with w rolls: w's own, but a weapon thrown (ranged
 * set) without an `aspect` tag rolls Adeptness, as ranged attacks do. */
int em_attack_aspect(const weapon_t *w, bool ranged);
/* Is weapon w a melee weapon (melee or thrown class, or unarmed)? */
bool em_is_melee(const weapon_t *w);
/* Can w be fired or thrown (ranged or thrown class)? */
bool em_is_ranged(const weapon_t *w);
/* Where a's list of melee weapons to fight with starts: 0 when it carries
 * one (weapons that cannot strike in melee are skipped by the caller), -1
 * (bare hands first) when it carries none. */
int em_melee_from(const battle_t *b, int a);
/* Append c to out (capacity cap) at *n, counting it even past cap. */
void em_add_cmd(cmd_t *out, int cap, int *n, cmd_t c);
/* Reach of i with w in hexes (melee). */
int em_reach_hex(const battle_t *b, int i, const weapon_t *w);
/* Range of w in hexes (ranged / thrown). */
int em_range_hex(const battle_t *b, const weapon_t *w);
/* Does i threaten hex h with its longest melee reach (reach and sight)? */
bool em_threatens(const battle_t *b, int i, hex_t h);
/* Can i reach t with weapon w in melee from where both stand (reach, sight)? */
bool em_melee_reaches(const battle_t *b, int i, int t, const weapon_t *w);
/* Can i shoot t with w from where both stand (range, clear sight)? */
bool em_shot_reaches(const battle_t *b, int i, int t, const weapon_t *w);
/* The longest melee reach i has with anything it carries, in hexes. */
int em_threat_hex(const battle_t *b, int i);
/* Has i made an Immediate or a Committed action this turn, so that its
 * spare point buys only a one-hex step, a reaction or a minor action (E3)? */
bool em_spare_only(const battle_t *b, int i);
/* May i commit an aimed shot or spell now: the points, and nothing this turn
 * beyond a step or a minor action (E3)? Evade now: the points, not evading
 * already, and no Immediate or Committed action this turn? */
bool em_may_commit(const battle_t *b, int i);
bool em_may_evade(const battle_t *b, int i);
/* Is i able to act: in the fight and not prone? */
bool em_able(const battle_t *b, int i);
/* Is i a target of opportunity (prone, or ran this turn; E17)? */
bool em_too(const battle_t *b, int i);
/* Enemies? */
bool em_enemies(const battle_t *b, int i, int j);
/* Turn condition bit on or off for i, with a condition event when it changes. */
void em_set_cond(battle_t *b, int i, unsigned bit, bool on);
/* Emit a stat event for i's slot s. */
void em_emit_stat(battle_t *b, int i, int s, int from);
/* Spend points (pts > 0) or, when will is set, one Willpower. */
void em_pay(battle_t *b, int i, int pts, bool will);
/* Recompute who is engaged (E6) and emit the changes. */
void em_update_engaged(battle_t *b);
/* The phase now, and the name of a phase. */
int em_phase(const battle_t *b);
const char *em_phase_name(int phase);
/* Is it i's slot (Movement or Commitment phase)? */
bool em_is_slot(const battle_t *b, int i);
/* End the slot now playing and move on (the next slot, phase or turn). */
void em_end_slot(battle_t *b);
/* The Immediate phase is resolved: on to the Movement phase. */
void em_after_immediate(battle_t *b);

/* ---- immediate.c: engagements -------------------------------------------- */

/* Work out the engagement groups for this Immediate phase (state group[]). */
void em_find_groups(battle_t *b);
/* Is i in an engagement group this Immediate phase? */
bool em_participant(const battle_t *b, int i);
/* Apply a declaration (CMD_DECLARE with act CMD_ENGAGE or CMD_DISENGAGE). */
battle_status_t em_declare(battle_t *b, const cmd_t *c);
/* Declarations legal for participant a. */
int em_legal_declare(battle_t *b, int a, cmd_t *out, int cap);
/* Everyone has declared: resolve every group at once. */
void em_resolve_immediate(battle_t *b);

/* ---- act.c: the Movement and Commitment phases ---------------------------- */

/* Apply one command of the actor whose slot it is. */
battle_status_t em_apply_slot(battle_t *b, const cmd_t *c);
/* Commands legal for the actor whose slot it is. */
int em_legal_slot(battle_t *b, int a, cmd_t *out, int cap);
/* Points a move of this mode along path[0..n) costs for i, or -1 when the
 * mode refuses it (terrain, length, where it ends). */
int em_move_cost(const battle_t *b, int i, int mode, const cell_t *path, int n);
/* How i moves in mode now (ruleset_t.move_cost): the step price in feet, a
 * point being feet_per_hex (hasty) or twice that (run, charge), where it may
 * end, and the budget: its points left in its slot, a fresh turn's for anyone
 * else. False when it cannot move that way (prone, out, no Willpower...). */
bool em_move_cost_hook(const battle_t *b, int i, int mode, move_cost_t *out);
/* The budget in feet of that (-1 when the mode is closed to i), and the
 * price of one step into cell to_cell (-1 refused). */
int em_mode_budget_ft(const battle_t *b, int i, int mode);
int em_step_cost_ft(const battle_t *b, int i, int mode, int to_cell);
/* Hexes i may end a move of this mode on within budget_ft (the search's
 * feet, see em_step_cost_ft), its own hex and occupied ones left out. */
int em_reach_mode(battle_t *b, int i, int mode, int budget_ft, geom_reach_t *out, int cap);
/* Cheapest path of i in this mode to goal (start excluded) into out;
 * returns its length, 0 when there is none (or it is longer than cap). */
int em_path_mode(battle_t *b, int i, int mode, cell_t goal, cell_t *out, int cap);
/* A free hasty move of i towards cell goal outside its own slot (a readied
 * move): the cheapest path, as far along it as a whole Movement score pays
 * for, step by step as any move (triggers, opportunities). Returns the
 * steps taken. */
int em_free_move(battle_t *b, int i, cell_t goal);
/* Is cover to be had where i stands (E15)? */
bool em_cover_allowed(const battle_t *b, int i);

/* ---- attack.c: attacks, defences, wounds ----------------------------------- */

typedef enum {
    EK_FIGHT = 0, /* the Immediate phase's melee */
    EK_HASTY,     /* a hasty shot or throw: crits only, no base */
    EK_COMMITTED, /* an aimed shot or spell */
    EK_OPPORTUNITY, /* a melee attack on a target of opportunity */
    EK_READIED,   /* a readied attack going off */
} em_attack_kind_t;

/* Carry out an attack of a on t with weapon wi (index, -1 unarmed) outside
 * the Immediate phase, in melee or (ranged) with a shot or throw: the
 * defence chain (E11), the contest, damage and soak. Returns whether it hit. */
bool em_attack(battle_t *b, int a, int t, int wi, em_attack_kind_t kind, bool ranged);
/* The defence t puts up against a's attack as far as is known before any
 * dodge: *fixed gets the successes when one is known (cover, evasion, a
 * fight roll), and the return says which: 0 none (0, or a dodge may be
 * offered), 1 cover, 2 evasion, 3 the fight roll. */
int em_known_defence(const battle_t *b, int t, em_attack_kind_t kind, bool ranged, int *fixed);
/* Offer t, attacked by a with weapon wi (this kind, at range or not) and
 * guarded by nothing, a dodge: for a point, or for 1 Willpower with none
 * left (E-X1, E19), the table's or the AI's choice. True when taken (paid
 * and told); the dodge roll is the caller's. */
bool em_offer_dodge(battle_t *b, int t, int a, int wi, em_attack_kind_t kind, bool ranged);
/* The reaction event: r reacts (kind) to trigger. */
void em_emit_reaction(battle_t *b, int r, int trigger, const char *kind);
/* The attack event: a on t with w (NULL bare hands), hit or not. */
void em_emit_attack(battle_t *b, int a, int t, const weapon_t *w, bool hit);
/* Does r take a reaction of this kind ("dodge", "dodge_willpower",
 * "opportunity", "opportunity_willpower", "readied") set off by trigger: the
 * table's answer when its side decides, else the policy below. */
bool em_take_reaction(battle_t *b, int r, const char *kind, int trigger);
/* The reaction policy (ruleset_t.react): what the AI takes of a dodge, an
 * opportunity attack or a readied action offered to r. */
int em_react_policy(const battle_t *b, int r, const react_offer_t *offer);
/* Soak damage on t and take the wounds (E9); removes t when out unless
 * defer is set. Returns the wounds. */
int em_soak(battle_t *b, int t, int damage, bool defer);
/* Take t out when its wounds reach its health. */
void em_check_out(battle_t *b, int t);
/* Base damage of a's attack with w of this kind (before net successes). */
int em_base_damage(const battle_t *b, int a, const weapon_t *w, em_attack_kind_t kind, bool ranged);
/* The pool mode a's attack of this kind on t rolls in. */
em_pool_mode_t em_attack_mode(const battle_t *b, int t, const weapon_t *w, em_attack_kind_t kind,
                              bool ranged);
/* Opportunity attacks: may r still make one on t this turn; note one made. */
bool em_oa_open(const battle_t *b, int r, int t);
void em_note_oa(battle_t *b, int r, int t);
/* r's best melee weapon reaching t (-1 bare hands), or -2 when none reaches. */
int em_best_melee(const battle_t *b, int r, int t);
/* Offer enemies the opportunity attacks that i, a target of opportunity
 * that has just become one or stepped to where it stands, gives them.
 * `from` is where it came from (or where it stands when it just became one). */
void em_offer_opportunity(battle_t *b, int i, hex_t from, bool fresh);

/* ---- ready.c: readied actions (E18) ------------------------------------------ */

/* Can a readied action wait for trigger trig (core/trigger.h): every deed
 * but a declaration, and the moments "the round begins" and "an enemy's
 * turn begins"? */
bool em_trigger_supported(int trig);
/* `who` has just done what trigger trig names (to target, a step from hex
 * `from`, or, for leaving, about to step to `to`): readied foes waiting for
 * it go now, in map order. */
void em_ready_check(battle_t *b, int trig, int who, int target, hex_t from, hex_t to);
/* A moment has come (TRIG_ROUND_STARTS with who -1, or TRIG_TURN_STARTS
 * with who the combatant whose slot begins): readied actions set for it go,
 * in map order. */
void em_ready_moment(battle_t *b, int trig, int who);
/* Readied actions a may prepare now, appended to out from n; the new count. */
int em_legal_ready(const battle_t *b, int a, cmd_t *out, int cap, int n);
/* CMD_STANDBY: ready, for the whole Movement score, a blow or shot with
 * weapon (act CMD_END or CMD_ENGAGE; at target, -1 any enemy) or a hasty
 * move to cell `at` worth the Movement score (act CMD_MOVE; weapon then only
 * measures the reach a trigger asks about), for trigger arg. */
battle_status_t em_do_ready(battle_t *b, const cmd_t *c);

/* ---- ai.c ------------------------------------------------------------------ */

void em_ai(battle_t *b, int a, cmd_t *out);
/* Would i dodge the attack a is about to make (the AI's choice)? */
bool em_ai_dodge(const battle_t *b, int i, int a, bool will);
/* Would r take an opportunity attack on t (the AI's choice)? */
bool em_ai_opportunity(const battle_t *b, int r, int t, bool will);

/* ---- present.c ------------------------------------------------------------- */

/* The whole shape of an attack a could make on t with weapon w now, and its
 * odds: the AI and the screen read this, the attack rolls the same pools. */
typedef struct {
    bool valid;
    em_attack_kind_t kind;
    bool ranged;
    int atk_n;            /* the attacker's dice */
    em_pool_mode_t mode;  /* how they count */
    int def_src;          /* em_known_defence: 0 none / dodge, 1 cover, 2 evasion, 3 fight roll */
    int def_n;            /* defence dice (a fight roll to come, or a dodge); 0: def_fixed */
    int def_fixed;        /* a defence already rolled */
    int base;             /* base damage before the margin */
    int soak_n;           /* the target's soak dice */
    em_odds_t odds;
} em_forecast_t;
bool em_forecast(const battle_t *b, int a, int t, int w, em_forecast_t *out);
/* The same for an attack of kind want (EK_FIGHT, EK_HASTY or EK_COMMITTED;
 * a melee weapon in reach of a target of opportunity is an opportunity
 * attack), whatever the phase: the AI weighs what it could do later. */
bool em_forecast_kind(const battle_t *b, int a, int t, int w, em_attack_kind_t want,
                      em_forecast_t *out);

/* Odds of a attacking t with weapon w as things stand (the Immediate fight
 * in the Immediate phase, a shot or an opportunity attack otherwise). */
bool em_predict(const battle_t *b, int a, int t, int w, predict_t *out);
/* ---- present.c: the G3 hooks (ruleset.h) ---- */
bool em_predict_cmd(const battle_t *b, const cmd_t *c, predict_t *out);
int em_gauges(const battle_t *b, int i, gauge_t *out, int cap);
bool em_describe(const battle_t *b, const cmd_t *c, char *label, size_t cap);
int em_queue(const battle_t *b, turn_slot_t *out, int cap);
int em_bands(const map_t *m, const tmpl_db_t *db, const map_combatant_t *c, const weapon_t *w,
             const geo_profile_t *prof, range_band_t *out, int cap);

#endif
