/* xhalem.h - the Xha'lem ruleset's own state and helpers, for tests and the UI.
 *
 * The state lives in battle_t.rs as plain data (no pointers), so a reset can
 * zero it and a rebuild can replay into it.
 */
#ifndef HB_XHALEM_H
#define HB_XHALEM_H

#include "../core/battle.h"
#include "../core/trigger.h"

/* Stat slots, in the order of the names the templates use. */
enum {
    XS_AGILITY = 0,
    XS_STRENGTH,
    XS_EVASION,
    XS_STEALTH,
    XS_PERCEPTION,
    XS_INVESTIGATION,
    XS_ENGINE,
    XS_SYSTEMS,
    XS_HULL,
    XS_REACTOR,
    XS_SCANNERS,
    XS_CLOAK,       /* > 0: can cloak */
    XS_DUAL_STRIKE, /* > 0: two attacks per engage action */
    XS_DUAL_WEAPON, /* > 0: a creature may hold two weapons */
    XS_AQUATIC,     /* > 0: engages underwater without disadvantage */
    XS_TELEPORT,    /* > 0: may blink this many feet as its action */
    XS_COUNT
};

/* Condition bits (unit_t.cond). */
enum {
    XC_HIDDEN = 1u << 0,
    XC_CLOAKED = 1u << 1,
    XC_GRAPPLED = 1u << 2,
    XC_PRONE = 1u << 3,
    XC_FLYING = 1u << 4,
    XC_DISTRACTED = 1u << 5, /* an enemy's assist: the next ally strike has advantage */
};

/* Standby triggers (cmd_t.arg of CMD_STANDBY): the first six of the shared
 * vocabulary (core/trigger.h), each against any enemy or the named one. */
enum {
    XT_ENTERS_REACH = TRIG_ENTERS_REACH,     /* moves where the held weapon can strike */
    XT_ENGAGES = TRIG_ATTACKS,               /* makes an engagement */
    XT_DASHES = TRIG_DASHES,                 /* dashes or thrusts */
    XT_ENGAGES_RANGED = TRIG_ATTACKS_RANGED, /* engages with a ranged or thrown weapon */
    XT_MOVES_IN_SIGHT = TRIG_MOVES_IN_SIGHT, /* takes any step the holder can see */
    XT_ENGAGES_ALLY = TRIG_TARGETS_ALLY,     /* engages one of the holder's allies */
    XT_COUNT                                 /* triggers xhalem's standby supports */
};

/* Move modes (cmd_t.arg of CMD_MOVE; ruleset_t.move_modes). */
enum {
    XM_WALK = 0, /* on foot (a move of mode 0 by one already in the air keeps flying) */
    XM_FLY,      /* in the air, at the plain rate over any ground; takes off first (free) */
    XM_DASH,     /* the action spent on a dash or thrust, then a move at twice the speed */
    XM_COUNT
};
/* move_cost_t.flags: the move is flown; the mover drags a grappled foe. */
#define XMF_FLY 1
#define XMF_DRAG 2

/* Advantage sources, disadvantage sources and detriment of one d20 roll. */
typedef struct {
    int adv, dis;
    bool detriment;
} xh_mods_t;

/* Damage dice remembered per battle (xh_state_t.dmg_memo). */
#define XH_DMG_MEMO 48

typedef struct {
    int moved_ft;   /* movement spent this turn */
    bool acted;     /* the action is used */
    bool dashed;
    int dash_from_ft; /* moved_ft when the dash was taken: its own steps come after */
    bool dash_over;   /* a secondary came after the dash's steps began: no more moving */
    bool second;    /* the secondary action is used (see docs/rules-xhalem.md) */
} xh_turn_t;

typedef struct {
    int order[MAP_MAX_COMBATANTS]; /* initiative order */
    int score[MAP_MAX_COMBATANTS]; /* initiative totals */
    int tiekey[MAP_MAX_COMBATANTS];
    int n_order;
    int cur;        /* index into order of the combatant whose turn it is */
    int actor;      /* whose turn it is, -1 when none */
    xh_turn_t turn;
    unsigned char engaged_by_mover[MAP_MAX_COMBATANTS]; /* the actor engaged k this turn */
    unsigned char reaction_used[MAP_MAX_COMBATANTS];
    unsigned char revealed[MAP_MAX_COMBATANTS]; /* cloaked but its position is known */
    unsigned char standby[MAP_MAX_COMBATANTS];
    int sb_trigger[MAP_MAX_COMBATANTS];
    int sb_target[MAP_MAX_COMBATANTS]; /* -1: any enemy */
    int sb_weapon[MAP_MAX_COMBATANTS];
    unsigned char sb_move[MAP_MAX_COMBATANTS]; /* the held action is a move to sb_at */
    cell_t sb_at[MAP_MAX_COMBATANTS];
    int sb_move_ft[MAP_MAX_COMBATANTS];        /* movement left from the holder's turn */
    int assist_on[MAP_MAX_COMBATANTS];   /* k distracted by assister-1 (0: none) */
    int assist_for[MAP_MAX_COMBATANTS];  /* ...for the one ally ally-1 it named */
    int grappled_by[MAP_MAX_COMBATANTS]; /* k held by holder-1 (0: free) */
    int stealth[MAP_MAX_COMBATANTS];     /* stealth total while hidden */
    cell_t hid_at[MAP_MAX_COMBATANTS];   /* where it was when it hid... */
    unsigned hid_seen[MAP_MAX_COMBATANTS]; /* ...seen doing so by these sides (bit per
                                              side): where they look for it (the AI) */
    int mounted_on[MAP_MAX_COMBATANTS];  /* rider k sits on mount-1 (0: on foot) */
    int rider_of[MAP_MAX_COMBATANTS];    /* mount k carries rider-1 (0: none) */
    unsigned short mhand[MAP_MAX_COMBATANTS]; /* a machine's weapons in hand (bit w), two */
    /* Mean damages already worked out this battle (xh_damage_mean): the AI
     * and the odds ask for the same few dice many times a turn. */
    struct {
        short n, sides, bonus, half; /* half: -1 for an empty slot */
        double mean;
    } dmg_memo[XH_DMG_MEMO];
    int n_dmg_memo;
} xh_state_t;

/* The whole shape of one engagement of t by a with weapon w (NULL: unarmed)
 * as things stand: legality, the dice both sides roll, the bonuses, naturals,
 * range and the damage roll. apply() rolls exactly this and predict.c computes
 * its odds from it, so the two cannot disagree. */
typedef struct {
    bool legal;       /* may be attempted at all */
    bool auto_fail;   /* attempted, but cannot hit (an undetected target out of range) */
    bool beyond;      /* past a ranged weapon's range: disadvantage, half damage */
    bool unaware;     /* t does not know a is there: no evasion roll (def_n 0) */
    xh_mods_t atk, def;
    int flank_partners;
    int atk_n, atk_keep, atk_bonus; /* n d20, keep 1 highest / -1 lowest / 0 one die */
    int def_n, def_keep, def_bonus; /* def_n 0: a flat def_bonus */
    bool naturals;                  /* a creature: natural 1 misses, natural 20 hits */
    int dmg_n, dmg_sides, dmg_bonus;
    int dmg_factor;                 /* 1; 0 fire into water; 2 lightning into water */
} xh_engage_t;
/* Fill *out for a engaging t with w; opportunity/forced: an opportunity strike
 * (advantage, or disadvantage on a forced move). Returns out->legal. */
bool xhalem_engage_shape(const battle_t *b, int a, int t, const weapon_t *w, bool opportunity,
                         bool forced, xh_engage_t *out);

/* Roll d20 with these modifiers resolved (RULINGS: rolls) plus bonus; the kept
 * die goes to *natural when given. Returns the total. */
int xhalem_d20(battle_t *b, int who, xh_mods_t m, int bonus, const char *why, int *natural);
/* Does obs know where t is (sight, hiding, cloaking, a machine's passive scan)? */
bool xhalem_aware(const battle_t *b, int obs, int t);
/* Is weapon w (-1: unarmed) of combatant i at hand now? */
bool xhalem_equipped(const battle_t *b, int i, int w);
/* i's reach now (feet): the larger of its body's reach and that of the melee
 * weapons in hand (RULINGS: one reach for the threat zone, opportunities,
 * flanking, the threat query and overlay). battle_t.prof[i].reach_ft holds it. */
int xhalem_reach(const battle_t *b, int i);
/* Feet the current actor may still move this turn, as it stands. */
int xhalem_move_left(const battle_t *b);
/* ruleset_t.move_cost: how i moves in mode XM_* now (see ruleset.h). */
bool xhalem_move_cost(const battle_t *b, int i, int mode, move_cost_t *out);
/* The combatant i rides, or -1 when it is on foot. */
int xhalem_mount_of(const battle_t *b, int i);
/* The secondary action a's template grants by name (a cmd kind), or -1. */
int xhalem_secondary_kind(const battle_t *b, int a);

#endif
