/* scars.h - the Scars ruleset's own state and helpers, for tests and the UI.
 *
 * A round is a list of phases (RULINGS: scars order): the player-side
 * combatants who passed their DEX save, then each opposing side, then the
 * player-side combatants who failed. In a phase every member declares, then
 * the phase resolves at once: moves, retreats, then pooled attacks.
 */
#ifndef HB_SCARS_H
#define HB_SCARS_H

#include "../core/area.h"
#include "../core/battle.h"
#include "predict.h"

enum { SS_STR = 0, SS_DEX, SS_WIL, SS_ARMOR, SS_DETACHMENT, SS_COUNT };

/* Condition bits (unit_t.cond). */
enum {
    SC_CRITICAL = 1u << 0,  /* critical damage: crawling, out of the fight */
    SC_PARALYZED = 1u << 1, /* DEX 0 */
    SC_DELIRIOUS = 1u << 2, /* WIL 0 */
    SC_DEPRIVED = 1u << 3,
    SC_HAMSTRUNG = 1u << 4, /* moves at most one hex */
    SC_DOOMED = 1u << 5,    /* the next failed critical save kills */
    SC_MORTAL = 1u << 6,    /* mortal wound: out of action */
    SC_STABLE = 1u << 7,    /* a helpless PC given aid: it will not die of its wounds */
    SC_WEAKENED = 1u << 8,  /* a detachment significantly weakened (the referee's call) */
};

/* The referee's marks on an attack (cmd_t.arg of a declared engage): fighting
 * from weakness (bound hands: impaired) or from advantage (a daring
 * manoeuvre: enhanced). They join the rules' own reasons; impaired and
 * enhanced together cancel, as always. */
enum { SC_MARK_IMPAIRED = 1, SC_MARK_ENHANCED = 2 };

/* Helpless: critical, paralyzed, delirious or mortally wounded. The combatant
 * stays on the map and can be attacked (enhanced), but never acts and no
 * longer counts for its side (docs/rules-scars.md, "Helpless"). */
#define SC_HELPLESS (SC_CRITICAL | SC_PARALYZED | SC_DELIRIOUS | SC_MORTAL)

/* Move budget: "nearby" is 10 hexes; a second move (the action) doubles it. */
#define SCARS_MOVE_HEXES 10
#define SCARS_PATH_MAX (2 * SCARS_MOVE_HEXES)

/* Move modes (ruleset_t.move_modes). A declaration's path is a SM_MOVE,
 * except with act CMD_MOVE (the action spent on a second move): SM_SECOND.
 * The legal list gives that declaration arg SM_SECOND. */
enum { SM_MOVE = 0, SM_SECOND, SM_COUNT };

typedef struct {
    unsigned char set;
    unsigned char act;     /* cmd_kind_t: CMD_ENGAGE, CMD_MOVE, CMD_RETREAT, CMD_STABILIZE or CMD_END */
    unsigned char lands;   /* bit 0 / 1: the first / second weapon reaches (while resolving) */
    unsigned char cover;   /* cover_t on the line to the target, fixed as the attacks resolve */
    unsigned char marks;   /* SC_MARK_*: the referee's impaired / enhanced call on this attack */
    short target, weapon, weapon2;
    short n_path;
    cell_t path[SCARS_PATH_MAX];
} sc_decl_t;

enum { SP_PASSED = 0, SP_SIDE, SP_FAILED };

typedef struct {
    int n_phases;
    int phase;                            /* current phase */
    int phase_kind[MAP_MAX_FACTIONS + 2]; /* SP_* */
    int phase_side[MAP_MAX_FACTIONS + 2]; /* for SP_SIDE: the board side */
    unsigned char passed[MAP_MAX_COMBATANTS]; /* DEX save at the start of combat */
    unsigned char player[MAP_MAX_COMBATANTS];
    sc_decl_t decl[MAP_MAX_COMBATANTS];
    unsigned char marks[MAP_MAX_COMBATANTS];  /* the referee's SC_MARK_* on the next attack */
    unsigned char weaken[MAP_MAX_COMBATANTS]; /* critical damage weakens this detachment */
} sc_state_t;

/* The die one attack rolls: n dice of `sides`, keep the highest. */
typedef struct {
    int n, sides;
    bool impaired, enhanced; /* both set: they cancelled, the weapon's own die */
} sc_die_t;

/* Is combatant i helpless (SC_HELPLESS)? */
bool scars_helpless(const battle_t *b, int i);
/* Is i a PC with critical damage (and nothing worse), who may still crawl
 * one hex a phase and do nothing else? */
bool scars_crawling(const battle_t *b, int i);
/* May a attack with weapons w and w2 together (w2 -1: one weapon)? Two
 * different weapons it carries, neither of them two-handed. */
bool scars_dual_ok(const battle_t *b, int a, int w, int w2);
/* Is i still fighting: in the battle and not helpless? Victory counts these. */
bool scars_fighting(const battle_t *b, int i);
/* Winning side: the one side with anyone still fighting; -1 none, -2 not over. */
int scars_winner(const battle_t *b);
/* The die a's attack on t with w rolls from where both stand now: the
 * weapon's own (unarmed 1d4), d4 impaired, d12 enhanced. spill: t is caught in
 * a blast aimed at someone else (cover does not impair it). Apply rolls this;
 * the prediction reads it, so the two cannot disagree. */
sc_die_t scars_attack_die(const battle_t *b, int a, int t, const weapon_t *w, bool spill);
/* The blast of a's attack on t with w, from where both stand: the weapon's
 * own (tag blast=R, R hexes around t), else a detachment's onslaught on an
 * individual (1 hex around t); false when the attack has none. */
bool scars_blast_area(const battle_t *b, int a, int t, const weapon_t *w, area_t *out);
/* Would a blast from a's weapon w aimed at t also catch combatant k (k
 * standing at `at`)? The blast's area must reach `at` (line of effect from
 * t's hex: a wall shields what lies behind it); neither a nor t counts, and
 * detachment onslaughts spill only onto a's enemies. */
bool scars_blast_catches(const battle_t *b, int a, int t, int k, hex_t at, const weapon_t *w);
/* Odds of a engaging t with weapon w (-1 unarmed) from where they stand: an
 * attack that reaches always lands (p_hit 1; 0 when it cannot reach or see),
 * and dmg_hit is the mean of the kept die minus t's armor, floored at 0. The
 * other attackers pooled on t are ignored. False if the attack is malformed. */
bool scars_predict(const battle_t *b, int a, int t, int w, predict_t *out);
/* The same for a dual attack with weapons w and w2 (w2 -1: none). */
bool scars_predict_dual(const battle_t *b, int a, int t, int w, int w2, predict_t *out);

/* The hexes weapon w (NULL: unarmed) reaches: close (1) for melee, else the
 * band its range falls in, nearby (10) or distant (20). */
int scars_weapon_band(const battle_t *b, const weapon_t *w);
/* ruleset_t.move_cost for scars (see ruleset.h). */
bool scars_move_cost(const battle_t *b, int i, int mode, move_cost_t *out);
/* What a would most likely declare now, as the AI plans it, whatever phase
 * it is (the referee's telegraph). Never rolls. */
void scars_intent(battle_t *b, int a, cmd_t *out);
/* Is combatant i in the phase now declaring? */
bool scars_in_phase(const battle_t *b, int i);
/* Take `amount` (after armor) on combatant t: HP, then STR, saves, scars. */
void scars_damage(battle_t *b, int t, int amount);
/* Lower ability SLOT (SS_STR/DEX/WIL) of t by amount, with what 0 means. */
void scars_lose_ability(battle_t *b, int t, int slot, int amount);

#endif
