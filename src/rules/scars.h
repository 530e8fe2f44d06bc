/* scars.h - the Scars ruleset's own state and helpers, for tests and the UI.
 *
 * A round is a list of phases (RULINGS: scars order): the player-side
 * combatants who passed their DEX save, then each opposing side, then the
 * player-side combatants who failed. In a phase every member declares, then
 * the phase resolves at once: moves, retreats, then pooled attacks.
 */
#ifndef HB_SCARS_H
#define HB_SCARS_H

#include "../core/battle.h"

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
};

/* Move budget: "nearby" is 10 hexes; a second move (the action) doubles it. */
#define SCARS_MOVE_HEXES 10
#define SCARS_PATH_MAX (2 * SCARS_MOVE_HEXES)

typedef struct {
    unsigned char set;
    unsigned char act;     /* cmd_kind_t: CMD_ENGAGE, CMD_MOVE, CMD_RETREAT or CMD_END */
    unsigned char lands;   /* bit 0 / 1: the first / second weapon reaches (while resolving) */
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
} sc_state_t;

/* Is combatant i in the phase now declaring? */
bool scars_in_phase(const battle_t *b, int i);
/* Take `amount` (after armor) on combatant t: HP, then STR, saves, scars. */
void scars_damage(battle_t *b, int t, int amount);
/* Lower ability SLOT (SS_STR/DEX/WIL) of t by amount, with what 0 means. */
void scars_lose_ability(battle_t *b, int t, int slot, int amount);

#endif
